import { useCallback, useState } from 'react'
import { View, Text } from '@tarojs/components'
import { Button, Calendar } from '@nutui/nutui-react-taro'
import dayjs from 'dayjs'
import type { BeanLedgerEntry } from '@/types/api'
import PagedList from '@/components/PagedList'
import { formatDateTime } from '@/domain/formatters'
import { listBeanLedger } from '@/api/wallet'
import styles from './cloudBeansList.module.scss'

/** How far back the date filter reaches (SPEC: the calendar covers 3 months). */
export const CALENDAR_MONTHS = 3

export interface DateRange {
  /** 'YYYY-MM-DD' */
  from: string
  to: string
}

/** The dates NutUI's range calendar confirms: [[y, m, d, 'YYYY-MM-DD', week], […]] or plain strings. */
export function rangeFromCalendar(param: unknown): DateRange | null {
  const dates = (Array.isArray(param) ? param.flat(2) : [param]).filter(
    (value): value is string => typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value),
  )
  if (dates.length === 0) return null
  const sorted = [...dates].sort()
  return { from: sorted[0], to: sorted[sorted.length - 1] }
}

/** [start of `from`, start of the day after `to`) in epoch ms, local time. */
export function rangeToTimes(range: DateRange): { start: number; end: number } {
  return {
    start: dayjs(range.from).startOf('day').valueOf(),
    end: dayjs(range.to).add(1, 'day').startOf('day').valueOf(),
  }
}

function LedgerItem({ entry }: { entry: BeanLedgerEntry }) {
  const credit = entry.change > 0
  return (
    <View className={styles.item}>
      <View className={styles.row}>
        <Text className={styles.reason}>{entry.reasonText}</Text>
        <Text className={credit ? styles.credit : styles.debit}>
          {credit ? `+${entry.change}` : entry.change}
        </Text>
      </View>
      {entry.remark && <Text className={styles.meta}>{entry.remark}</Text>}
      {entry.orderNo && <Text className={styles.meta}>订单号：{entry.orderNo}</Text>}
      <View className={styles.row}>
        <Text className={styles.meta}>{formatDateTime(entry.createdAt)}</Text>
        <Text className={styles.meta}>余额 {entry.balanceAfter}</Text>
      </View>
    </View>
  )
}

/** 云豆明细: every credit and debit, newest first, optionally within a date range. */
export default function CloudBeansList() {
  const [range, setRange] = useState<DateRange | null>(null)
  const [picking, setPicking] = useState(false)
  const rangeText = range ? `${range.from} 至 ${range.to}` : '全部日期'
  const today = dayjs().format('YYYY-MM-DD')
  const earliest = dayjs().subtract(CALENDAR_MONTHS, 'month').format('YYYY-MM-DD')

  const load = useCallback(
    (page: number, rows: number) =>
      listBeanLedger(page, rows, range ? rangeToTimes(range) : undefined),
    [range],
  )

  return (
    <View className={styles.page}>
      <View className={styles.filter}>
        <View
          className={`${styles.rangeText} drop-down`}
          role="button"
          aria-label={`日期选择 ${rangeText}`}
          onClick={() => setPicking(true)}
        >
          {rangeText}
        </View>
        {range && (
          <Button size="small" fill="none" onClick={() => setRange(null)}>
            清除
          </Button>
        )}
      </View>
      <PagedList<BeanLedgerEntry>
        className={styles.list}
        load={load}
        reloadKey={range ? `${range.from}|${range.to}` : 'all'}
        keyOf={(entry) => entry.id}
        renderItem={(entry) => <LedgerItem entry={entry} />}
      />
      <Calendar
        visible={picking}
        type="range"
        title="日期选择"
        startDate={earliest}
        endDate={today}
        defaultValue={range ? [range.from, range.to] : undefined}
        onClose={() => setPicking(false)}
        onConfirm={(param) => {
          setPicking(false)
          const chosen = rangeFromCalendar(param)
          if (chosen) setRange(chosen)
        }}
      />
    </View>
  )
}
