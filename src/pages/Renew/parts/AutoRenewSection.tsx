import { useEffect, useState } from 'react'
import { View, Text } from '@tarojs/components'
import { Switch } from '@nutui/nutui-react-taro'
import { ariaRole } from '@/platform/a11y'
import type { AutoRenewState, Device } from '@/types/api'
import {
  AUTO_RENEW_PAY_METHODS,
  autoRenewPayLabels,
  type AutoRenewPayMethod,
} from '@/domain/auto-renew'
import { durationLabel } from '@/domain/catalogue'
import { PayMethod } from '@/domain/order-status'
import { errorMessage, toast } from '@/runtime/feedback'
import { setAutoRenew } from '@/api/device'
import Section from '@/components/Section'
import styles from './auto-renew.module.scss'

/** On when every phone of the page has it, with the first one's duration and pay method. */
function initialState(devices: Device[]): AutoRenewState | null {
  if (devices.length === 0 || !devices.every((d) => d.autoRenew)) return null
  return devices[0].autoRenew
}

/**
 * 自动续费 for the phones of the renewal page: switched on with the duration chosen above, paid from
 * cloud beans or (a company) its account balance, and off again at any time. The fleet's phones
 * follow at once (their cards show it).
 */
export default function AutoRenewSection({
  deviceIds,
  devices,
  days,
  company,
  onChanged,
}: {
  deviceIds: number[]
  devices: Device[]
  /** The duration chosen above (its goodTime); switching on renews by it. */
  days: number | undefined
  company: boolean
  onChanged: (state: AutoRenewState | null) => void
}) {
  const [state, setState] = useState<AutoRenewState | null>(null)
  const [payMethod, setPayMethod] = useState<AutoRenewPayMethod>(PayMethod.beans)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState('')
  const failure = devices.find((d) => d.autoRenew?.failure)?.autoRenew?.failure

  useEffect(() => {
    const initial = initialState(devices)
    setState(initial)
    if (initial) setPayMethod(initial.payMethod)
  }, [devices])

  const send = async (enabled: boolean, method: AutoRenewPayMethod) => {
    if (enabled && !days) return setError('请先选择续费时长')
    setBusy(true)
    setError('')
    try {
      const result = await setAutoRenew(
        enabled ? { deviceIds, enabled, days, payMethod: method } : { deviceIds, enabled },
      )
      setState(result.autoRenew)
      onChanged(result.autoRenew)
      toast(
        result.autoRenew
          ? `已开启自动续费，将在到期前${result.daysBefore}天自动续费`
          : '已关闭自动续费',
      )
    } catch (e) {
      setError(errorMessage(e, '自动续费设置失败'))
    } finally {
      setBusy(false)
    }
  }

  const pick = (method: AutoRenewPayMethod) => {
    setPayMethod(method)
    if (state && method !== state.payMethod) void send(true, method)
  }

  const hint = state
    ? `每次续费${durationLabel(state.days)}，从${autoRenewPayLabels[state.payMethod]}扣款`
    : `到期前按所选时长自动续费，从${company ? '云豆或企业账户余额' : '云豆'}扣款`

  return (
    <Section title="自动续费">
      <View className={styles.row}>
        <View className={styles.text}>
          <Text>自动续费</Text>
          <Text className={styles.hint}>{hint}</Text>
        </View>
        <Switch
          {...ariaRole('switch')}
          aria-label="自动续费"
          checked={state !== null}
          disabled={busy}
          onChange={(on: boolean) => void send(on, payMethod)}
        />
      </View>
      {company && (
        <View className={styles.methods} role="radiogroup" aria-label="自动续费支付方式">
          {AUTO_RENEW_PAY_METHODS.map((method) => (
            <View
              key={method}
              role="radio"
              aria-checked={payMethod === method}
              className={`${styles.method} ${payMethod === method ? styles.selected : ''}`}
              onClick={() => !busy && pick(method)}
            >
              {autoRenewPayLabels[method]}
            </View>
          ))}
        </View>
      )}
      {state && failure && <Text className={styles.failure}>上次自动续费未成功：{failure}</Text>}
      {error && (
        <View className={styles.failure} role="alert">
          {error}
        </View>
      )}
    </Section>
  )
}
