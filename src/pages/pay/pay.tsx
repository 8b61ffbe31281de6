import { useState } from 'react'
import { useDidShow, useLoad, useRouter } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { ActionSheet, Button } from '@nutui/nutui-react-taro'
import { confirmDestructive, errorMessage, toastError } from '@/runtime/feedback'
import { useSingleFlight } from '@/hooks/use-single-flight'
import { canPay, OrderStatus, payCountdown, PayMethod } from '@/domain/order-status'
import { ResultCode } from '@/domain/result-codes'
import { cancelOrder } from '@/api/order'
import { getBeanBalance, sandboxPayAct } from '@/api/pay'
import { getAccountBalance } from '@/api/wallet'
import { formatYuan } from '@/domain/formatters'
import platform from '@/platform'
import wechatPayment from '@/platform/wechat-pay'
import { useStores } from '@/stores'
import OrderResult from './parts/OrderResult'
import OrderSummary from './parts/OrderSummary'
import PayMethods from './parts/PayMethods'
import {
  confirmHint,
  type Confirming,
  payMethodsFor,
  SANDBOX_ACTIONS,
  WECHAT_PAY_MESSAGES,
  WECHAT_REAUTHORISE,
} from './parts/pay-flow'
import { startPayment } from './parts/start-payment'
import { useNow } from './parts/use-now'
import { useOrderPoll } from './parts/use-order-poll'
import styles from './parts/pay.module.scss'

const BEANS_SHORT = '云豆余额不足，请选择其他支付方式'

/** Pays an order (own: ?orderNo=, shared big-user link: ?link=) and follows it to its result. */
function Pay() {
  const { session } = useStores()
  const { params } = useRouter()
  const ref = params.link ? { link: params.link } : { orderNo: params.orderNo }
  const { order, setOrder, error, refresh } = useOrderPoll(ref)
  const [account, setAccount] = useState<{ balance: number; enabled: boolean } | null>(null)
  const inWeChat = session.runtime === 'applet' || platform.isWeChatBrowser()
  const methods = payMethodsFor(session.runtime, order?.kind, account?.enabled ?? false, inWeChat)
  const [method, setMethod] = useState<PayMethod>(methods[0].value)
  const [payError, setPayError] = useState('')
  const [sandboxTrade, setSandboxTrade] = useState<string | null>(null)
  const [beans, setBeans] = useState<number | null>(null)
  // back from a checkout page (?paying=1), or WeChat's sheet said ok: waiting for the server's word
  const [confirming, setConfirming] = useState<Confirming | null>(() =>
    params.paying ? { since: Date.now(), wechatOk: false } : null,
  )
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

  /** Where WeChat Pay needs the payer's code: the config read at launch, or read now; null if unread. */
  const codeScenes = async () => {
    try {
      const config = session.commonConfig ?? (await session.loadCommonConfig({ quiet: true }))
      return config.wechatPayCodeScenes
    } catch {
      return null // the request layer has reported it; a code is got as before
    }
  }

  const pay = (payMethod: PayMethod, wxCode?: string) =>
    flight.run(async () => {
      setPayError('')
      try {
        const step = await startPayment({
          ref,
          method: payMethod,
          runtime: session.runtime,
          wxCode,
          codeScenes: payMethod === PayMethod.wechatPay && !wxCode ? await codeScenes() : null,
        })
        if (step.kind === 'refused') setPayError(step.msg)
        else if (step.kind === 'sandbox') setSandboxTrade(step.tradeNo)
        else if (step.kind === 'wechat') {
          if (step.result === 'ok') setConfirming({ since: Date.now(), wechatOk: true })
          else setPayError(WECHAT_PAY_MESSAGES[step.result])
          refresh()
        } else if (step.kind === 'follow') refresh()
      } catch (e) {
        const code = (e as { code?: number }).code
        setPayError(
          code === ResultCode.CLOUD_BEANS_INSUFFICIENT
            ? BEANS_SHORT
            : errorMessage(e, '支付发起失败'),
        )
      }
    })

  // back from WeChat's authorisation with the payer's code: the buyer already tapped 立即支付
  useLoad(() => {
    const back = wechatPayment.takeReturnedCode(params)
    if (back === null) return
    setMethod(PayMethod.wechatPay)
    if (back === 'refused') setPayError(WECHAT_REAUTHORISE)
    else void pay(PayMethod.wechatPay, back.code)
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
    if (!order || !(await confirmDestructive('取消订单', '确定取消该订单吗？'))) return
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
          {confirming && <Text className={styles.hint}>{confirmHint(confirming, now)}</Text>}
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
          <Button type="primary" disabled={!payable || flight.running} onClick={() => pay(method)}>
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
