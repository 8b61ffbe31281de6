import { useState } from 'react'
import { useDidShow } from '@tarojs/taro'
import { View, Text } from '@tarojs/components'
import { observer } from 'mobx-react'
import { Button, Input } from '@nutui/nutui-react-taro'
import type { AccountBalance, RechargePackages } from '@/types/api'
import CheckoutBar from '@/components/CheckoutBar'
import CouponPicker from '@/components/CouponPicker'
import { toast, toastError } from '@/runtime/feedback'
import { useFollow } from '@/hooks/use-follow'
import PackageGrid from '@/components/PackageGrid'
import { usePackageCheckout } from '@/components/PackageGrid/use-package-checkout'
import { fenToYuan } from '@/domain/formatters'
import {
  agentBalanceRecharge,
  createRechargeOrder,
  getAccountBalance,
  getRechargePackages,
} from '@/api/wallet'
import { navigate } from '@/runtime/navigation'
import styles from './recharge.module.scss'

/** A top-up in 元 as typed → fen, or the reason it cannot be (1 元 … 10 万元, at most 2 decimals). */
export function topUpFen(text: string): { fen: number } | { error: string } {
  const value = text.trim()
  if (!value) return { error: '请输入充值金额' }
  if (!/^\d+(\.\d{1,2})?$/.test(value)) return { error: '请输入正确的金额，最多两位小数' }
  const fen = Math.round(Number(value) * 100)
  if (fen < 100) return { error: '充值金额不能少于1元' }
  if (fen > 10_000_000) return { error: '单次充值金额不能超过100000元' }
  return { fen }
}

/**
 * 我的云豆: the balance, the recharge packages, and paying for one on pay/pay. A recharge just paid is
 * followed until its credit lands, and the balances load again then.
 */
function Recharge() {
  const [data, setData] = useState<RechargePackages | null>(null)
  const [account, setAccount] = useState<AccountBalance | null>(null)
  const [topUp, setTopUp] = useState('')
  // The package as a quote, so the 首充券 (first recharge only) comes off it as on every order.
  const checkout = usePackageCheckout('recharge', data?.packages)
  const { pack, quote, coupons, openOrder } = checkout

  const load = () => {
    getRechargePackages().then(setData).catch(toastError)
    getAccountBalance()
      .then(setAccount)
      .catch(() => setAccount(null)) // the beans part works without it
  }
  useDidShow(load)
  const crediting = useFollow('wallet', load).length > 0

  const payTopUp = async () => {
    const parsed = topUpFen(topUp)
    if ('error' in parsed) return toast(parsed.error)
    const opened = await openOrder((idempotencyKey) =>
      agentBalanceRecharge({ amount: parsed.fen, idempotencyKey }),
    )
    if (opened) setTopUp('')
  }

  const pay = () => {
    if (!pack || !quote) return toast('请选择充值套餐')
    return openOrder((idempotencyKey) =>
      createRechargeOrder({ packageId: pack.id, ...coupons.orderFields(quote), idempotencyKey }),
    )
  }

  return (
    <View className={styles.page}>
      <View className={styles.balanceCard}>
        <Text className={styles.balanceLabel}>云豆余额</Text>
        <Text className={styles.balance} aria-label="云豆余额">
          {data ? data.balance : '--'}
        </Text>
        {crediting && (
          <View className={styles.rate} role="status">
            充值已支付，到账中…
          </View>
        )}
        <Text className={styles.rate}>1云豆抵1分，可用于支付订单和转包月</Text>
        <View className={styles.links}>
          <Text className={styles.link} onClick={() => void navigate('cloudBeansList')}>
            云豆明细 ›
          </Text>
          <Text className={styles.link} onClick={() => void navigate('cloudBeanToMonthly')}>
            云豆转包月 ›
          </Text>
        </View>
      </View>
      <Text className={styles.sectionTitle}>选择充值套餐</Text>
      <PackageGrid
        label="充值套餐"
        packages={data?.packages}
        chosenId={checkout.chosenId}
        onChoose={checkout.choose}
      >
        {(p) => (
          <>
            <Text className={styles.beans}>{p.beans}云豆</Text>
            {p.bonus > 0 && <Text className={styles.bonus}>赠送{p.bonus}云豆</Text>}
            <Text className={styles.price}>¥{fenToYuan(p.price)}</Text>
          </>
        )}
      </PackageGrid>
      <CouponPicker result={coupons.result} selected={coupons.selected} onSelect={coupons.select} />
      {account?.enabled && (
        <View className={styles.account}>
          <View className={styles.accountHead}>
            <Text>企业账户余额</Text>
            <Text className={styles.accountBalance} aria-label="企业账户余额">
              ¥{fenToYuan(account.balance)}
            </Text>
          </View>
          <View className={styles.accountForm}>
            <Input
              className={styles.amountInput}
              type="digit"
              value={topUp}
              onChange={setTopUp}
              placeholder="充值金额（元）"
              aria-label="充值金额"
            />
            <Button size="small" type="primary" fill="outline" onClick={payTopUp}>
              充值余额
            </Button>
          </View>
        </View>
      )}
      <CheckoutBar
        quote={checkout.charged}
        buttonText="立即充值"
        disabled={checkout.submitting}
        onSubmit={pay}
      />
    </View>
  )
}

export default observer(Recharge)
