import { useState } from 'react'
import { useDidShow } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button } from '@nutui/nutui-react-taro'
import type { TimeToMonthQuote, TimeToMonthResult } from '@/types/api'
import { confirm, toast, toastError, toastSuccess } from '@/runtime/feedback'
import { useIdempotencyKey } from '@/hooks/use-idempotency-key'
import { formatDateTime } from '@/domain/formatters'
import { ResultCode } from '@/domain/result-codes'
import { ApiError } from '@/runtime/request'
import { createTimeToMonthOrder, getTimeToMonthQuote } from '@/api/wallet'
import { navigate } from '@/runtime/navigation'
import { useStores } from '@/stores'
import styles from './index.module.scss'

const minute = (ms: number) => formatDateTime(ms).slice(0, 16)

/** 云豆转包月: 30 more days for one of my phones, paid with beans (1015 → 去充值). */
function CloudBeanToMonthly() {
  const { fleet } = useStores()
  const picked = fleet.pickedDevice
  const pickerText = picked ? picked.name : '选择要转包月的云手机'
  const [quote, setQuote] = useState<TimeToMonthQuote | null>(null)
  const [result, setResult] = useState<TimeToMonthResult | null>(null)
  const [submitting, setSubmitting] = useState(false)
  const idempotency = useIdempotencyKey()

  // on first show and on coming back from user/device (a phone chosen) or user/recharge (more beans)
  useDidShow(() => {
    const device = fleet.pickedDevice
    if (!device) return
    getTimeToMonthQuote(device.deviceId)
      .then(setQuote)
      .catch((error) => {
        setQuote(null)
        toastError(error)
      })
  })

  const short = quote !== null && quote.balance < quote.beans

  const goRecharge = async (title: string) => {
    if (await confirm(title, '云豆余额不足，充值后即可转包月', '去充值')) {
      await navigate('recharge')
    }
  }

  const submit = async () => {
    if (!picked || !quote) return toast('请选择要转包月的云手机')
    if (short) return goRecharge('云豆不足')
    setSubmitting(true)
    try {
      const answer = await createTimeToMonthOrder({
        deviceId: quote.deviceId,
        expectedBeans: quote.beans,
        idempotencyKey: idempotency.current(),
      })
      idempotency.renew()
      setResult(answer)
      setQuote({ ...quote, balance: answer.balance, expireAt: answer.newExpireAt })
      toastSuccess('转包月成功')
    } catch (error) {
      // the request layer's 去充值 dialog (refusal-dialogs.ts) shows it when it ran the call
      if (error instanceof ApiError && error.code === ResultCode.CLOUD_BEANS_INSUFFICIENT) {
        if (!error.dialogShown) await goRecharge(error.msg)
      } else {
        toastError(error)
      }
    } finally {
      setSubmitting(false)
    }
  }

  return (
    <View className={styles.page}>
      <View className={styles.card}>
        <View
          className={styles.picker}
          role="button"
          aria-label={`选择云手机 ${pickerText}`}
          onClick={() => {
            setResult(null)
            void navigate('chooseDevice')
          }}
        >
          <Text className={picked ? undefined : styles.placeholder}>{pickerText}</Text>
        </View>
        {quote && picked && (
          <View className={styles.quote}>
            <View className={styles.row}>
              <Text>包月时长</Text>
              <Text>{quote.days}天</Text>
            </View>
            <View className={styles.row}>
              <Text>所需云豆</Text>
              <Text className={styles.beans}>{quote.beans}</Text>
            </View>
            <View className={styles.row}>
              <Text>云豆余额</Text>
              <Text className={short ? styles.short : undefined}>{quote.balance}</Text>
            </View>
            <View className={styles.row}>
              <Text>当前到期</Text>
              <Text>{minute(quote.expireAt)}</Text>
            </View>
            {!result && (
              <View className={styles.row}>
                <Text>转包月后到期</Text>
                <Text>{minute(quote.newExpireAt)}</Text>
              </View>
            )}
          </View>
        )}
        {result && (
          <View className={styles.result} role="status">
            <Text>转包月成功，云手机到期时间延长至{minute(result.newExpireAt)}</Text>
          </View>
        )}
      </View>
      <View className={styles.footer}>
        <Text className={styles.note}>1云豆抵1分，按云手机配置的月付价格折算</Text>
        {short ? (
          <Button type="primary" block onClick={() => void navigate('recharge')}>
            云豆不足，去充值
          </Button>
        ) : (
          <Button
            type="primary"
            block
            loading={submitting}
            disabled={!quote || result !== null}
            onClick={submit}
          >
            确认转包月
          </Button>
        )}
      </View>
    </View>
  )
}

export default observer(CloudBeanToMonthly)
