import { useState } from 'react'
import { useDidShow, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { ActionSheet, Button } from '@nutui/nutui-react-taro'
import { confirm, errorMessage, toastError } from '@/runtime/feedback'
import { useSingleFlight } from '@/hooks/use-single-flight'
import { url } from '@/constants/routes'
import { canPay, OrderStatus, payCountdown, PayMethod } from '@/domain/order-status'
import { ResultCode } from '@/domain/result-codes'
import { cancelOrder } from '@/api/order'
import { createPayment, getBeanBalance, sandboxPayAct } from '@/api/pay'
import { getAccountBalance } from '@/api/wallet'
import { formatYuan } from '@/domain/formatters'
import { useStores } from '@/stores'
import { openCheckout } from './parts/checkout'
import OrderResult from './parts/OrderResult'
import OrderSummary from './parts/OrderSummary'
import PayMethods from './parts/PayMethods'
import { payMethodsFor, SANDBOX_ACTIONS, WECHAT_PAY_MESSAGES } from './parts/pay-flow'
import { useNow } from './parts/use-now'
import { useOrderPoll } from './parts/use-order-poll'
import styles from './parts/pay.module.scss'

const BEANS_SHORT = '云豆余额不足，请选择其他支付方式'
/** Back from the checkout page: the provider's notification normally lands within this time. */
const CONFIRM_WINDOW_MS = 8000

/** Pays an order (own: ?orderNo=, shared big-user link: ?link=) and follows it to its result. */
function Pay() {
  const { session } = useStores()
  const { params } = useRouter()
  const ref = params.link ? { link: params.link } : { orderNo: params.orderNo }
  const { order, setOrder, error, refresh } = useOrderPoll(ref)
  const [account, setAccount] = useState<{ balance: number; enabled: boolean } | null>(null)
  const methods = payMethodsFor(session.runtime, order?.kind, account?.enabled ?? false)
  const [method, setMethod] = useState<PayMethod>(methods[0].value)
  const [payError, setPayError] = useState('')
  const [sandboxTrade, setSandboxTrade] = useState<string | null>(null)
  const [beans, setBeans] = useState<number | null>(null)
  const [openedAt] = useState(Date.now())
  const flight = useSingleFlight()
  const unpaid = order?.status === OrderStatus.unpaid
  const now = useNow(1000, unpaid)

  useDidShow(() => {
    getBeanBalance()
      .then((b) => setBeans(b.balance))
      .catch(() => setBeans(null)) // the beans method still works; the server checks the balance
    getAccountBalance()
      .then(setAccount)
      .catch(() => setAccount(null)) // without it only the account-balance method is missing
  })

  const pay = () =>
    flight.run(async () => {
      setPayError('')
      try {
        const returnUrl = url('pay', { ...ref, paying: 1 })
        const outcome = await createPayment({ ...ref, payMethod: method, returnUrl })
        if (!outcome.ok) return setPayError(outcome.msg)
        const { paid, checkoutUrl, tradeNo } = outcome.data
        if (paid || !checkoutUrl) return refresh()
        // the mini-program has no sandbox page to open: the same three choices in an action sheet
        if (session.runtime === 'applet') setSandboxTrade(tradeNo)
        else openCheckout(checkoutUrl)
      } catch (e) {
        const code = (e as { code?: number }).code
        setPayError(
          code === ResultCode.CLOUD_BEANS_INSUFFICIENT
            ? BEANS_SHORT
            : errorMessage(e, '支付发起失败'),
        )
      }
    })

  const act = (tradeNo: string, choice: (typeof SANDBOX_ACTIONS)[number]) =>
    flight.run(async () => {
      setSandboxTrade(null)
      try {
        await sandboxPayAct(tradeNo, choice.action)
        setPayError(WECHAT_PAY_MESSAGES[choice.result])
      } catch (e) {
        setPayError(errorMessage(e, WECHAT_PAY_MESSAGES.fail))
      }
      refresh()
    })

  const cancel = async () => {
    if (!order || !(await confirm('取消订单', '确定取消该订单吗？'))) return
    try {
      setOrder(await cancelOrder({ orderNo: order.orderNo }))
    } catch (e) {
      toastError(e)
    }
  }

  if (!order) {
    return (
      <View className={styles.page}>{error && <Text className={styles.error}>{error}</Text>}</View>
    )
  }
  const payable = canPay(order, now)
  return (
    <View className={styles.page}>
      {unpaid ? (
        <View className={styles.countdown}>
          <Text>{payable ? '支付剩余时间' : '支付时间已过，订单即将关闭'}</Text>
          {payable && <Text className={styles.clock}>{payCountdown(order.payDeadline, now)}</Text>}
          {params.paying && (
            <Text className={styles.hint}>
              {now - openedAt < CONFIRM_WINDOW_MS
                ? '如已完成支付，请稍候，正在确认支付结果…'
                : '支付未完成，可重新选择支付方式支付'}
            </Text>
          )}
        </View>
      ) : (
        <OrderResult order={order} />
      )}
      <OrderSummary order={order} />
      {unpaid && (
        <View className={styles.card}>
          <Text className={styles.label}>支付方式</Text>
          <PayMethods
            methods={methods}
            value={method}
            onChange={setMethod}
            notes={{
              ...(beans === null ? {} : { [PayMethod.beans]: `余额 ${beans} 云豆（1云豆抵1分）` }),
              ...(account?.enabled
                ? { [PayMethod.accountBalance]: `余额 ${formatYuan(account.balance)}` }
                : {}),
            }}
          />
        </View>
      )}
      {payError && (
        <View className={styles.error} role="alert">
          {payError}
        </View>
      )}
      {unpaid && (
        <View className={styles.actions}>
          {order.isOwner && (
            <Button fill="outline" onClick={cancel}>
              取消订单
            </Button>
          )}
          <Button type="primary" disabled={!payable || flight.running} onClick={pay}>
            立即支付
          </Button>
        </View>
      )}
      <ActionSheet
        visible={sandboxTrade !== null}
        title="沙箱支付"
        description="沙箱环境：选择本次支付的结果"
        options={SANDBOX_ACTIONS.map((a) => ({ name: a.name }))}
        onSelect={(_item, index) => sandboxTrade && act(sandboxTrade, SANDBOX_ACTIONS[index])}
        onCancel={() => setSandboxTrade(null)}
      />
    </View>
  )
}

export default observer(Pay)
