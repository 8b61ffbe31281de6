/**
 * Cloud beans in the H5 build against the real server: recharge on 我的云豆 through the sandbox
 * checkout → 云豆明细 shows the credit → 云豆转包月 for a phone chosen on user/device → its expiry moves
 * by 30 days and the ledger shows the debit.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, apiLogin, screenshot, seedSession, setupE2E, sleep, type Session } from './harness'
import { button } from './journeys'

const e2e = setupE2E({
  env: { RATE_LIMIT_PER_MINUTE: '0', JOB_POLL_MS: '500', SANDBOX_SUPPLIER_DELAY_MS: '500' },
})

interface DeviceDetail {
  status: number
  expireAt: number
  name: string
}

/** A running 7-day phone, bought and paid (sandbox, JSON action) through the API. */
async function runningPhone(session: Session): Promise<number> {
  const levels = await api<
    { goods: { goodId: number; prices: { priceId: number; goodTime: number }[] }[] }[]
  >('/CommodityGroup/getGoodsList')
  const goods = levels.data[0].goods[0]
  const priceId = goods.prices.find((p) => p.goodTime === 7)!.priceId
  const quote = await api<{ total: number }>('/CommodityGroup/getGoodPrice', {
    session,
    json: { kind: 'new', goodId: goods.goodId, priceId, quantity: 1 },
  })
  const order = await api<{ orderNo: string }>('/order/createCloudOrder', {
    session,
    json: {
      goodId: goods.goodId,
      priceId,
      zoneId: 1,
      quantity: 1,
      expectedAmount: quote.data.total,
      idempotencyKey: `e2e-wallet-${session.userId}`,
    },
  })
  assert.equal(order.code, 200, order.msg)
  const payment = await api<{ tradeNo: string }>('/pay/createPayment', {
    session,
    json: { orderNo: order.data.orderNo, payMethod: 1 },
  })
  assert.equal(payment.code, 200, payment.msg)
  const acted = await api('/sandbox/pay/act', {
    json: { tradeNo: payment.data.tradeNo, action: 'pay' },
  })
  assert.equal(acted.code, 200, acted.msg)
  for (let i = 0; i < 60; i += 1) {
    const info = await api<{ deviceIds: number[] }>(
      `/order/getOrderInfo?orderNo=${order.data.orderNo}`,
      { session },
    )
    const [deviceId] = info.data.deviceIds
    if (deviceId) {
      const detail = await api<DeviceDetail>(`/device/detail?deviceId=${deviceId}`, { session })
      if (detail.data.status === 1) return deviceId
    }
    await sleep(500)
  }
  throw new Error('e2e: the bought phone never became running')
}

test('recharge beans, see them in the ledger, and turn them into a month for a phone', async () => {
  const session = await apiLogin('13912360001')
  const { context, page, errors } = await e2e.newPage()
  await seedSession(context, session)
  const deviceId = await runningPhone(session)
  const before = await api<DeviceDetail>(`/device/detail?deviceId=${deviceId}`, { session })

  await e2e.open(page, '/pages/user/recharge')
  await page.getByText('选择充值套餐').waitFor()
  await page.getByRole('radio', { name: /¥98\.00/ }).click()
  await screenshot(page, 'beans-recharge')
  await button(page, '立即充值').click()
  await page.waitForURL(/pages\/pay\/pay\?orderNo=/)
  await page.getByText('云豆充值').first().waitFor()
  assert.equal(await page.getByRole('radio', { name: /云豆/ }).count(), 0, 'no beans method')
  await button(page, '立即支付').click()
  await page.waitForURL(/sandbox\/pay\/checkout/)
  await page.getByRole('button', { name: '确认支付' }).click()
  await page.waitForURL(/pages\/pay\/pay/)
  await page.getByText('充值成功，云豆已到账').waitFor({ timeout: 20_000 })
  const balance = await api<{ balance: number }>('/pay/beanBalance', { session })
  assert.equal(balance.data.balance, 9800 + 1500)

  await e2e.open(page, '/pages/user/cloudBeansList')
  await page.getByText('+11300').waitFor()
  await page.getByText('充值9800云豆，赠送1500云豆').waitFor()
  await screenshot(page, 'beans-ledger')
  await page.getByLabel('日期选择').click()
  await page.getByText('日期选择').last().waitFor()
  await screenshot(page, 'beans-ledger-calendar')
  await page.keyboard.press('Escape')

  await e2e.open(page, '/pages/CloudBeanToMonthly/index')
  await page.getByLabel('选择云手机').click()
  await page.waitForURL(/pages\/user\/device/)
  await page.getByText(before.data.name).first().click()
  await page.waitForURL(/pages\/CloudBeanToMonthly/)
  await page.getByText('所需云豆').waitFor()
  await screenshot(page, 'beans-to-month')
  await button(page, '确认转包月').click()
  await page.getByText(/转包月成功，云手机到期时间延长至/).waitFor({ timeout: 10_000 })
  await screenshot(page, 'beans-to-month-done')
  const after = await api<DeviceDetail>(`/device/detail?deviceId=${deviceId}`, { session })
  assert.equal(after.data.expireAt - before.data.expireAt, 30 * 86_400_000)
  const ledger = await api<{ records: { reasonText: string; change: number }[] }>(
    '/wallet/beanLedger',
    { session },
  )
  assert.equal(ledger.data.records[0].reasonText, '云豆转包月')
  assert.ok(ledger.data.records[0].change < 0)
  assert.deepEqual(errors, [])
})
