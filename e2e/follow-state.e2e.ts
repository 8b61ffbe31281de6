/**
 * Screens follow the server (docs/cloud-phones.md): each journey taps on from the pay page right after
 * 支付成功 — while the order is paid but not yet delivered (delivery is a job a few seconds later) —
 * and the next screen catches up without a reload: the new phone as 创建中 then 运行中, the renewed
 * phone's new expiry, the recharged beans on 我的云豆. A fresh load of 我的云机 in that gap (no phone
 * exists yet) waits for 1 and for 32 phones and shows them running; 备份与恢复记录 opened while a
 * restore runs, from 数据中心 or loaded afresh, shows how it ended.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { remainingText } from '#domain/device-lifecycle'
import { api, apiLogin, screenshot, seedSession, setupE2E, sleep, type Session } from './harness'
import {
  button,
  buyPhones,
  confirmModal,
  goodsFor,
  ok,
  payInSandbox,
  waitForOrder,
} from './journeys'

const e2e = setupE2E({
  env: { RATE_LIMIT_PER_MINUTE: '0', SANDBOX_SUPPLIER_DELAY_MS: '3000' },
})

/** The pay page's text while the order is paid and not yet delivered, per kind. */
const PAID = {
  new: '支付成功，云手机创建中…',
  renew: '支付成功，正在续费…',
  beanRecharge: '支付成功，云豆到账中…',
}

async function loggedInPage(mobile: string) {
  const session = await apiLogin(mobile)
  const { context, page, errors } = await e2e.newPage()
  await seedSession(context, session)
  return { page, session, errors }
}

/**
 * Pays at the sandbox checkout, and taps `next` on the pay page as soon as the payment is confirmed.
 * true when the order was still being delivered at that moment (the case this file is about).
 */
async function payAndTapOn(page: Page, paidText: string, next: string): Promise<boolean> {
  await button(page, '立即支付').click()
  await page.waitForURL(/sandbox\/pay\/checkout/)
  await page.getByRole('button', { name: '确认支付' }).click()
  await page.waitForURL(/pages\/pay\/pay/)
  await page.getByText('支付成功', { exact: true }).waitFor({ timeout: 20_000 })
  const stillPaid = await page.getByText(paidText).isVisible()
  await button(page, next).click()
  return stillPaid
}

async function newOrder(session: Session, key: string, quantity = 1) {
  const choice = await goodsFor(7)
  const quote = ok(
    'quote',
    await api<{ total: number }>('/CommodityGroup/getGoodPrice', {
      session,
      json: { kind: 'new', goodId: choice.goodId, priceId: choice.priceId, quantity },
    }),
  )
  return ok(
    'createCloudOrder',
    await api<{ orderNo: string }>('/order/createCloudOrder', {
      session,
      json: { ...choice, quantity, expectedAmount: quote.total, idempotencyKey: key },
    }),
  )
}

test('after paying for a phone, 我的云机 shows it 创建中 at once and follows it to 运行中', async () => {
  const { page, session, errors } = await loggedInPage('13912380001')
  // Delivery is a job run every few seconds: buy again until 我的云机 is read before it (the case
  // here). The pay page saying 创建中 at the tap is not enough: the delivery can land while 我的云机
  // loads, and then there is rightly no notice to show.
  const notice = page.getByRole('status').filter({ hasText: '支付成功，1台云手机创建中…' })
  let early = false
  for (let attempt = 1; attempt <= 6 && !early; attempt += 1) {
    const order = await newOrder(session, `e2e-follow-new-${attempt}`)
    await e2e.open(page, `/pages/pay/pay?orderNo=${order.orderNo}`)
    const paidAtTap = await payAndTapOn(page, PAID.new, '查看我的云机')
    await page.waitForURL(/pages\/Home\/index/)
    early = await notice.waitFor({ timeout: 5_000 }).then(
      () => true,
      () => false,
    )
    console.log(
      `follow-state: attempt ${attempt} tapped on ${paidAtTap ? 'before' : 'after'} delivery, ` +
        `我的云机 ${early ? 'read it paid' : 'read it delivered'}`,
    )
  }
  assert.ok(early, 'one of six payments was still being delivered when 我的云机 read it')
  await screenshot(page, 'follow-new-paid')
  assert.equal(await page.getByText('您还没有云手机').count(), 0, 'never 您还没有云手机')
  // the phone's status line (its picture says 云手机创建中… meanwhile)
  await page
    .getByText(/^●\s*创建中$/)
    .first()
    .waitFor({ timeout: 15_000 })
  await screenshot(page, 'follow-new-creating')
  await page
    .getByText(/^●\s*运行中$/)
    .first()
    .waitFor({ timeout: 20_000 })
  assert.equal(await page.getByRole('status').filter({ hasText: '创建中' }).count(), 0)
  assert.deepEqual(errors, [])
})

/** The order's status now, as its buyer reads it. */
const orderStatus = async (session: Session, orderNo: string) =>
  ok('order', await api<{ status: number }>(`/order/getOrderInfo?orderNo=${orderNo}`, { session }))
    .status

for (const quantity of [1, 32]) {
  test(`我的云机 loaded afresh right after 支付成功, before the phones exist, shows ${quantity} phone(s) running without a reload`, async () => {
    // Delivery is a job run every 5 s: a new buyer each try until the page is read before it. The
    // page is opened once before paying, so that the load in the gap (a reload) finds the app's files
    // in the browser's cache, as a returning user's does, and fits the gap on a busy machine too.
    let caught: { page: Page; errors: string[]; session: Session; orderNo: string } | null = null
    for (let attempt = 1; attempt <= 8 && !caught; attempt += 1) {
      const mobile = `1391238${quantity === 1 ? 1 : 2}${String(attempt).padStart(3, '0')}`
      const { page, session, errors } = await loggedInPage(mobile)
      await e2e.open(page, '/pages/Home/index')
      await page.getByText('您还没有云手机').waitFor()
      const order = await newOrder(session, `e2e-follow-fresh-${quantity}-${attempt}`, quantity)
      await payInSandbox(session, order.orderNo)
      let status = 0
      for (let i = 0; i < 80 && status === 0; i += 1) {
        await sleep(50)
        status = await orderStatus(session, order.orderNo)
      }
      if (status !== 1) continue
      await page.reload()
      // the fleet has read its list: a notice, an empty fleet or a phone's status
      await page
        .getByRole('status')
        .or(page.getByText('您还没有云手机'))
        .or(page.getByText(/^●\s*\S+$/))
        .first()
        .waitFor()
      // read while paid: it says so, or the order is still paid now (then it must say so below)
      const noticed = await page
        .getByRole('status')
        .filter({ hasText: `支付成功，${quantity}台云手机创建中…` })
        .isVisible()
      const stillPaid = noticed || (await orderStatus(session, order.orderNo)) === 1
      console.log(
        `follow-state: ${quantity} phone(s), try ${attempt}: loaded while ${stillPaid ? 'paid' : 'delivered'}`,
      )
      if (stillPaid) caught = { page, errors, session, orderNo: order.orderNo }
    }
    assert.ok(caught, 'one of eight pages loaded before the delivery')
    const { page, errors, session, orderNo } = caught
    await page
      .getByRole('status')
      .filter({ hasText: `支付成功，${quantity}台云手机创建中…` })
      .waitFor()
    await screenshot(page, `follow-fresh-${quantity}-paid`)
    assert.equal(await page.getByText('您还没有云手机').count(), 0, 'never 您还没有云手机')
    await waitForOrder(session, orderNo)
    // every phone is there and, once provisioned, running — on the page as it was loaded
    await page.getByText(`1 / ${quantity}`).waitFor({ timeout: 15_000 })
    await page
      .getByText(/^●\s*运行中$/)
      .first()
      .waitFor({ timeout: 30_000 })
    const list = ok(
      'device list',
      await api<{ records: { status: number }[] }>('/device/list?rows=100', { session }),
    )
    assert.equal(list.records.length, quantity)
    await page.getByText(/^●\s*创建中$/).waitFor({ state: 'detached', timeout: 30_000 })
    assert.equal(await page.getByRole('status').filter({ hasText: '创建中' }).count(), 0)
    await screenshot(page, `follow-fresh-${quantity}-running`)
    assert.deepEqual(errors, [])
  })
}

test('after paying a renewal, the renewed phone shows its new expiry without a reload', async () => {
  const { page, session, errors } = await loggedInPage('13912380002')
  const [phone] = await buyPhones(session, 1, 7, 'e2e-follow-renew-phone')
  await e2e.open(page, `/pages/Renew/index?deviceIds=${phone.deviceId}`)
  await page.getByText(/续费后：/).waitFor()
  await button(page, '确认续费').click()
  await page.waitForURL(/pages\/pay\/pay\?orderNo=/)
  const orderNo = new URL(page.url()).searchParams.get('orderNo')!
  const early = await payAndTapOn(page, PAID.renew, '查看续费的云机')
  await page.waitForURL(/pages\/Home\/index/)
  if (early) await page.getByText('续费已支付，到期时间更新中…').waitFor()

  await waitForOrder(session, orderNo)
  const renewed = ok(
    'detail',
    await api<{ expireAt: number }>(`/device/detail?deviceId=${phone.deviceId}`, { session }),
  )
  // the remaining days of the new expiry (hours tick on; the days do not within this test)
  const days = remainingText(renewed.expireAt, Date.now()).match(/^剩余\d+天/)![0]
  assert.notEqual(days, '剩余6天', 'the renewal moved the expiry')
  await page.getByText(new RegExp(`^${days}`)).waitFor({ timeout: 10_000 })
  await screenshot(page, 'follow-renewed')
  console.log(`follow-state: tapped on while the order was ${early ? 'paid' : 'already delivered'}`)
  assert.deepEqual(errors, [])
})

test('after paying a bean recharge, 我的云豆 shows the new balance without a reload', async () => {
  const { page, session, errors } = await loggedInPage('13912380003')
  await e2e.open(page, '/pages/user/recharge')
  await page.getByText('选择充值套餐').waitFor()
  const shown = page.getByLabel('云豆余额').filter({ hasText: /^\d+$/ })
  await shown.waitFor()
  const before = Number(await shown.textContent())
  await page.getByRole('radio', { name: /¥98\.00/ }).click()
  await button(page, '立即充值').click()
  await page.waitForURL(/pages\/pay\/pay\?orderNo=/)
  const orderNo = new URL(page.url()).searchParams.get('orderNo')!
  const early = await payAndTapOn(page, PAID.beanRecharge, '查看我的云豆')
  await page.waitForURL(/pages\/user\/recharge/)
  if (early) await page.getByText('充值已支付，到账中…').waitFor()

  await waitForOrder(session, orderNo)
  const { balance } = ok('balance', await api<{ balance: number }>('/pay/beanBalance', { session }))
  assert.ok(balance > before, 'the recharge credited beans')
  await page
    .getByLabel('云豆余额')
    .filter({ hasText: String(balance) })
    .waitFor({ timeout: 10_000 })
  await screenshot(page, 'follow-beans')
  console.log(`follow-state: tapped on while the order was ${early ? 'paid' : 'already delivered'}`)
  assert.deepEqual(errors, [])
})

test('备份与恢复记录 opened while a restore runs shows how it ended', async () => {
  const session = await apiLogin('13912380004')
  const claimed = ok(
    'trial phone',
    await api<{ deviceId: number }>('/newUserGuide/getNewUserReceiveEquipment', { session }),
  )
  const { deviceId } = claimed
  const backup = ok(
    'backup',
    await waitThen(
      () => api<{ status: number }>(`/device/detail?deviceId=${deviceId}`, { session }),
      (r) => r.data.status === 1,
      () => api<{ id: number }>('/space/backup', { session, json: { deviceId } }),
    ),
  )
  await waitThen(
    () => api<{ running: unknown }>(`/space/device?deviceId=${deviceId}`, { session }),
    (r) => r.data.running === null,
    async () => undefined,
  )

  const { page, context, errors } = await e2e.newPage()
  await seedSession(context, session)
  await e2e.open(page, `/pages/Space/DataCenter?deviceId=${deviceId}`)
  await button(page, '恢复').click()
  await confirmModal(page)
  await page.getByText(/正在恢复数据/).waitFor()
  await button(page, '备份与恢复记录').click()
  await page.waitForURL(/pages\/Space\/HistoryData/)
  const restore = page.getByLabel('恢复记录')
  await restore.getByText('恢复中', { exact: true }).waitFor()
  await screenshot(page, 'follow-restore-running')
  await restore.getByText('恢复成功', { exact: true }).waitFor({ timeout: 20_000 })
  await screenshot(page, 'follow-restore-done')
  assert.ok(backup.id > 0)
  assert.deepEqual(errors, [])
})

test('备份与恢复记录 loaded afresh while a restore runs shows how it ended without a reload', async () => {
  const session = await apiLogin('13912380005')
  const claimed = ok(
    'trial phone',
    await api<{ deviceId: number }>('/newUserGuide/getNewUserReceiveEquipment', { session }),
  )
  const { deviceId } = claimed
  const backup = ok(
    'backup',
    await waitThen(
      () => api<{ status: number }>(`/device/detail?deviceId=${deviceId}`, { session }),
      (r) => r.data.status === 1,
      () => api<{ id: number }>('/space/backup', { session, json: { deviceId } }),
    ),
  )
  await waitThen(
    () => api<{ running: unknown }>(`/space/device?deviceId=${deviceId}`, { session }),
    (r) => r.data.running === null,
    async () => undefined,
  )
  ok('restore', await api('/space/restore', { session, json: { backupId: backup.id, deviceId } }))
  const { page, context, errors } = await e2e.newPage()
  await seedSession(context, session)
  await e2e.open(page, '/pages/Space/HistoryData')
  const restore = page.getByLabel('恢复记录')
  await restore.getByText('恢复中', { exact: true }).waitFor()
  await restore.getByText('恢复成功', { exact: true }).waitFor({ timeout: 20_000 })
  assert.deepEqual(errors, [])
})

/** Polls `check` until `until` holds (at most 30 s), then answers `then()`. */
async function waitThen<T, R>(
  check: () => Promise<T>,
  until: (value: T) => boolean,
  then: () => Promise<R>,
): Promise<R> {
  for (let i = 0; i < 120; i += 1) {
    if (until(await check())) return then()
    await sleep(250)
  }
  throw new Error('e2e: waited 30 s in vain')
}
