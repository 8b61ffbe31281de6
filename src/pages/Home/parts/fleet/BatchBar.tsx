import { useState } from 'react'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button } from '@nutui/nutui-react-taro'
import type { BatchSummary } from '@/domain/batch-results'
import { validateBatchSelection, validateRenewSelection } from '@/domain/batch-results'
import { confirm, toast, toastError } from '@/runtime/feedback'
import { BottomSheet, DialogBox } from '@/components/Overlay'
import { STATUS_CHOICES } from '@/domain/fleet-range'
import { navigate } from '@/runtime/navigation'
import { useStores } from '@/stores'
import { actionQuery, actionRoute } from './action-routes'
import styles from './fleet.module.scss'

/**
 * Multi-select bar: 全选, 按状态 (every 运行中, 7天内到期 or 已到期 phone of the filters), batch 重启 (with a
 * per-phone result), 续费, 移动分组, 授权 and 转移.
 */
function BatchBar() {
  const { fleet } = useStores()
  const [summary, setSummary] = useState<BatchSummary | null>(null)
  const [statusSheet, setStatusSheet] = useState(false)
  const count = fleet.selection.size
  const renewRoute = actionRoute('renew')
  const moveRoute = actionRoute('moveGroup')
  const transferRoute = actionRoute('transfer')
  const empowerRoute = actionRoute('empower')

  // a renewal takes a whole studio (MAX_RENEW_BATCH); commands and the other pages MAX_BATCH
  const checked = (validate = validateBatchSelection): number[] | null => {
    const problem = validate(fleet.selectedIds)
    if (problem) {
      toast(problem)
      return null
    }
    return fleet.selectedIds
  }

  const reboot = async () => {
    const ids = checked()
    if (!ids) return
    if (!(await confirm('批量重启', `确定重启选中的${ids.length}台云手机吗？`))) return
    try {
      setSummary(await fleet.batchReboot())
      void fleet.reload()
    } catch (error) {
      toastError(error)
    }
  }

  const open = (action: 'renew' | 'moveGroup' | 'empower' | 'transfer') => {
    const ids = checked(action === 'renew' ? validateRenewSelection : validateBatchSelection)
    const route = actionRoute(action)
    if (ids && route) void navigate(route, actionQuery(action, ids))
  }

  const selectByStatus = async (index: number) => {
    setStatusSheet(false)
    const choice = STATUS_CHOICES[index]
    const now = Date.now()
    const count = await fleet.selectWhere((d) => choice.matches(d, now))
    if (count === 0) toast(`没有${choice.label}的云手机`)
  }

  const nameOf = (id: number) => fleet.devices.find((d) => d.deviceId === id)?.name ?? `#${id}`

  return (
    <View className={styles.batchBar}>
      <View className={styles.batchInfo}>
        <View
          className={styles.selectAll}
          role="checkbox"
          aria-checked={fleet.allSelected}
          onClick={() => void fleet.toggleAll().catch(toastError)}
        >
          <View className={fleet.allSelected ? styles.tickOn : styles.tick} aria-hidden>
            {fleet.allSelected ? '✓' : ''}
          </View>
          全选
        </View>
        <View
          className={styles.batchCancel}
          role="button"
          aria-haspopup="dialog"
          onClick={() => setStatusSheet(true)}
        >
          按状态
        </View>
        <Text className={styles.batchCount}>已选{count}台</Text>
        <View className={styles.batchCancel} role="button" onClick={fleet.endSelect}>
          取消
        </View>
      </View>
      <View className={styles.batchButtons}>
        <Button size="small" type="primary" disabled={count === 0} onClick={reboot}>
          重启
        </Button>
        {renewRoute && (
          <Button size="small" disabled={count === 0} onClick={() => open('renew')}>
            续费
          </Button>
        )}
        {moveRoute && (
          <Button size="small" disabled={count === 0} onClick={() => open('moveGroup')}>
            移动分组
          </Button>
        )}
        {empowerRoute && (
          <Button size="small" disabled={count === 0} onClick={() => open('empower')}>
            授权
          </Button>
        )}
        {transferRoute && (
          <Button size="small" disabled={count === 0} onClick={() => open('transfer')}>
            转移
          </Button>
        )}
      </View>
      <BottomSheet
        visible={statusSheet}
        title="按状态全选"
        options={STATUS_CHOICES.map((c) => c.label)}
        onCancel={() => setStatusSheet(false)}
        onSelect={(index) => void selectByStatus(index).catch(toastError)}
      />
      <DialogBox
        visible={summary !== null}
        title="批量重启结果"
        confirmText="知道了"
        onConfirm={() => setSummary(null)}
        onClose={() => setSummary(null)}
      >
        <View className={styles.summary}>
          <Text className={styles.summaryText}>{summary?.text}</Text>
          {summary?.failures.map((failure) => (
            <View key={failure.msg} className={styles.failure}>
              <Text className={styles.failureMsg}>{failure.msg}</Text>
              <Text className={styles.failureIds}>{failure.deviceIds.map(nameOf).join('、')}</Text>
            </View>
          ))}
        </View>
      </DialogBox>
    </View>
  )
}

export default observer(BatchBar)
