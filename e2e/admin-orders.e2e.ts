/**
 * The console's 订单与支付 pages in a 1440×900 window, with the user on the H5 site in a
 * 390×844 one: a user buys a phone at the sandbox checkout; a finance operator finds the order by its
 * number, sees the payment and its trade number, refunds it after a dialog naming the consequence (money
 * back the way it came, the phone released); the user's order then reads 订单已退款 on H5. A second phone
 * paid with 云豆 is refunded the same way and 云豆明细 shows the 订单退款 row. axe finds nothing critical
 * or serious on the list, the order and the refund dialog.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  api,
  apiLogin,
  screenshot,
  seedSession,
  consoleAxeReport,
  setupE2E,
  sleep,
} from './harness'
import { createOperator, signInToConsole } from './console'
import { buyPhones, goodsFor, ok, payInSandbox, waitForOrder } from './journeys'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0' } })

const OPERATOR = { name: 'e2e-finance', password: 'e2e-finance-password' }
const AUDITOR = { name: 'e2e-orders-admin', password: 'e2e-orders-admin-password' }
const USER_MOBILE = '13812340028'

test('a finance operator refunds a paid order: the phone is released, the user sees 订单已退款 and the 云豆 ledger row', async () => {
  const operator = await createOperator(e2e, { ...OPERATOR, role: 'finance' })

  // the user buys a phone at the sandbox checkout
  const session = await apiLogin(USER_MOBILE)
  const [bought] = await buyPhones(session, 1, 30, 'e2e-admin-orders-1')
  const sandboxOrder = ok(
    'the phone order',
    await api<{ records: { orderNo: string; deviceIds: number[] }[] }>('/order/list?rows=10', {
      session,
    }),
  ).records.find((order) => order.deviceIds.includes(bought.deviceId))!

  const { page, errors } = await e2e.newDesktopPage()
  const report: string[] = []
  await signInToConsole(page, operator)

  /** Finds the order on 订单与支付, opens it and refunds it; answers the dialog's consequence text. */
  async function refundInConsole(orderNo: string, reason: string, shots: boolean) {
    await page.getByRole('menu').first().getByText('订单与支付', { exact: true }).click()
    await page.waitForURL('**/admin/orders')
    await page.getByRole('link', { name: '导出 CSV' }).waitFor()
    await page.getByPlaceholder('订单号、订单ID、用户ID或完整手机号').fill(orderNo)
    await page.getByRole('button', { name: /搜\s*索/ }).click()
    const row = page.getByRole('row').filter({ hasText: orderNo })
    await row.getByText('已完成').waitFor()
    if (shots) {
      report.push(...(await consoleAxeReport(page, '订单与支付')))
      await screenshot(page, 'admin-orders')
    }
    await row.getByRole('link', { name: '查看' }).click()
    await page.getByText(`订单 ${orderNo}`).waitFor()
    await page.getByText('支付记录').waitFor()
    if (shots) {
      report.push(...(await consoleAxeReport(page, 'order page')))
      await screenshot(page, 'admin-order-detail')
    }
    await page.getByRole('button', { name: /退\s*款/ }).click()
    const dialog = page.getByRole('dialog', { name: `退款订单 ${orderNo}？` })
    const consequence = await dialog.getByText(/将全额退款/).textContent()
    if (shots) report.push(...(await consoleAxeReport(page, 'refund dialog')))
    // as a user does, the form is on screen before 确认退款: a click while the modal still opens
    // reaches a form that is not there yet, and no validation shows
    const reasonField = dialog.getByLabel('退款原因（记入退款单和操作日志）')
    await reasonField.waitFor()
    await dialog.getByRole('button', { name: '确认退款' }).click()
    await dialog.getByText('请填写退款原因').waitFor()
    await reasonField.fill(reason)
    if (shots) await screenshot(page, 'admin-order-refund')
    await dialog.getByRole('button', { name: '确认退款' }).click()
    await dialog.waitFor({ state: 'hidden' })
    await page.getByText('不能退款：').waitFor()
    return consequence ?? ''
  }

  const consequence = await refundInConsole(sandboxOrder.orderNo, '云机无法连接，全额退款', true)
  assert.match(consequence, /通过原支付渠道原路退回/)
  assert.match(consequence, /该订单创建的 1 台云手机将立即释放/)
  // the provider's refund lands (the send-refund job, then its notification) while the page is open:
  // it follows without a reload, and every moment it says one thing — 退款中 on the order, its payment
  // and its refund with the banner's 正在退款中, then 已退款 and 退款成功 everywhere
  const states: string[] = []
  for (let i = 0; ; i++) {
    const text = (await page.locator('main').textContent()) ?? ''
    const refunding = text.includes('不能退款：订单正在退款中')
    const refunded = text.includes('不能退款：订单已退款')
    assert.ok(refunding !== refunded, `the banner says one of the two: ${text.slice(0, 400)}`)
    if (refunding) {
      assert.ok(!text.includes('已退款') && !text.includes('退款成功'), `still refunding: ${text}`)
    } else {
      assert.ok(text.includes('退款成功') && !text.includes('退款中'), `refunded: ${text}`)
    }
    if (states.at(-1) !== (refunding ? 'refunding' : 'refunded')) {
      states.push(refunding ? 'refunding' : 'refunded')
      if (refunding) await screenshot(page, 'admin-order-refunding')
    }
    if (refunded) break
    assert.ok(i < 60, 'the page never showed the provider refund succeeding')
    await sleep(250)
  }
  console.log(`admin-orders: the order page showed ${states.join(' → ')} without a reload`)
  await screenshot(page, 'admin-order-refunded')

  // times are 北京时间 and say so, whatever the browser's zone: the same order in a Los Angeles browser
  // (the session's cookie carried over) shows the same 创建时间
  const createdCell = (on: typeof page) =>
    on
      .locator('th', { hasText: '创建时间（北京时间）' })
      .locator('xpath=following-sibling::td[1]')
      .first()
  const createdHere = (await createdCell(page).innerText()).trim()
  assert.match(createdHere, /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d$/)
  const elsewhere = await page
    .context()
    .browser()!
    .newContext({
      viewport: { width: 1440, height: 900 },
      timezoneId: 'America/Los_Angeles',
      storageState: await page.context().storageState(),
    })
  const laPage = await elsewhere.newPage()
  await laPage.goto(page.url())
  assert.equal((await createdCell(laPage).innerText()).trim(), createdHere)
  await elsewhere.close()

  // the order names its user (masked number) and the link opens the user's page, titled the same way
  const maskedUser = `${USER_MOBILE.slice(0, 3)}****${USER_MOBILE.slice(7)}`
  await page
    .getByRole('link', { name: new RegExp(`^${maskedUser.replace(/\*/g, '\\*')}`) })
    .first()
    .click()
  await page.waitForURL(/\/admin\/users\/\d+$/)
  await page.locator('.ant-descriptions-title', { hasText: maskedUser }).waitFor()
  await page.getByRole('tab', { name: /订单/ }).click()
  await page.getByRole('columnheader', { name: '下单时间（北京时间）' }).waitFor()
  await page.getByRole('link', { name: sandboxOrder.orderNo }).waitFor()
  await screenshot(page, 'admin-user-from-order')

  // the user: the order reads 订单已退款, the phone is gone from 我的云机
  const phone = await e2e.newPage()
  await seedSession(phone.context, session)
  await e2e.open(phone.page, `/pages/pay/pay?orderNo=${sandboxOrder.orderNo}`)
  await phone.page.getByText('订单已退款', { exact: true }).waitFor()
  await screenshot(phone.page, 'h5-order-refunded')
  const devices = ok(
    'device list',
    await api<{ records: { deviceId: number }[] }>('/device/list?rows=100', { session }),
  )
  assert.equal(devices.records.length, 0, 'the released phone is gone')

  // 云豆: recharged at the sandbox checkout, a phone paid with them, refunded to the beans
  const packages = ok(
    'packages',
    await api<{ packages: { id: number; price: number }[] }>('/wallet/rechargePackages', {
      session,
    }),
  ).packages
  const pack = packages.reduce((a, b) => (b.price > a.price ? b : a))
  const recharge = ok(
    'recharge',
    await api<{ orderNo: string }>('/order/createRechargeOrder', {
      session,
      json: { packageId: pack.id, expectedAmount: pack.price, idempotencyKey: 'e2e-ao-recharge' },
    }),
  )
  await payInSandbox(session, recharge.orderNo)
  await waitForOrder(session, recharge.orderNo)
  const choice = await goodsFor(30)
  const quote = ok(
    'quote',
    await api<{ total: number }>('/CommodityGroup/getGoodPrice', {
      session,
      json: { kind: 'new', goodId: choice.goodId, priceId: choice.priceId, quantity: 1 },
    }),
  )
  const beanOrder = ok(
    'bean order',
    await api<{ orderNo: string }>('/order/createCloudOrder', {
      session,
      json: { ...choice, quantity: 1, expectedAmount: quote.total, idempotencyKey: 'e2e-ao-2' },
    }),
  )
  ok(
    'pay with beans',
    await api('/pay/createPayment', {
      session,
      json: { orderNo: beanOrder.orderNo, payMethod: 3 },
    }),
  )
  await waitForOrder(session, beanOrder.orderNo)
  const beanConsequence = await refundInConsole(beanOrder.orderNo, '重复购买', false)
  assert.match(beanConsequence, /退回用户的云豆余额/)

  await e2e.open(phone.page, '/pages/user/cloudBeansList')
  const refundRow = phone.page.getByText('订单退款').first()
  await refundRow.waitFor()
  await phone.page.getByText(`+${quote.total}`).first().waitFor()
  await screenshot(phone.page, 'h5-bean-refund')

  // 操作日志 (admin): the refund as a sentence, the order and the phone it released by name, as links
  const admin = await createOperator(e2e, { ...AUDITOR, role: 'admin' })
  const auditor = await e2e.newDesktopPage()
  await signInToConsole(auditor.page, admin)
  await auditor.page.goto('/admin/audit')
  const refunded = auditor.page
    .getByRole('row')
    .filter({ hasText: '订单退款' })
    .filter({ hasText: sandboxOrder.orderNo })
  await refunded.getByRole('link', { name: sandboxOrder.orderNo }).waitFor()
  await refunded
    .getByText(
      /状态由「已完成」改为「已退款」，金额 ¥\d+\.\d\d，支付方式 支付宝，原因 云机无法连接，全额退款，释放的云手机 /,
    )
    .waitFor()
  await refunded.getByRole('link', { name: bought.name }).waitFor()
  report.push(...(await consoleAxeReport(auditor.page, '操作日志')))
  await screenshot(auditor.page, 'admin-audit-refund')
  await refunded.getByRole('link', { name: sandboxOrder.orderNo }).click()
  await auditor.page.getByText(`订单 ${sandboxOrder.orderNo}`).waitFor()

  assert.deepEqual(report, [], `axe violations:\n${report.join('\n')}`)
  assert.deepEqual(errors, [])
  assert.deepEqual(auditor.errors, [])
})
