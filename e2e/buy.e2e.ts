/**
 * Buying journeys in the H5 build against the real server: catalogue → goods → buy → sandbox checkout
 * (确认支付) → back on pay/pay → 支付成功 → the phone on 我的云机 goes 创建中 → 运行中; the out-of-stock
 * answer for a nearly empty zone; renewing a phone through the same checkout.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { Page } from 'playwright-core'
import { api, apiLogin, screenshot, seedSession, setupE2E, sleep, type Session } from './harness'
import { button, enabledButton } from './journeys'

const e2e = setupE2E({
  env: { RATE_LIMIT_PER_MINUTE: '0', SANDBOX_SUPPLIER_DELAY_MS: '4000' },
})

async function loggedInPage(mobile: string) {
  const session: Session = await apiLogin(mobile)
  const { context, page, errors } = await e2e.newPage()
  await seedSession(context, session)
  return { page, session, errors }
}

/** On the sandbox checkout page: choose 确认支付 and come back to pay/pay. */
async function payAtSandboxCheckout(page: Page) {
  await button(page, '立即支付').click()
  await page.waitForURL(/sandbox\/pay\/checkout/)
  await screenshot(page, 'buy-sandbox-checkout')
  await page.getByRole('button', { name: '确认支付' }).click()
  await page.waitForURL(/pages\/pay\/pay/)
}

test('buy a phone, pay at the sandbox checkout, and see it created then running', async () => {
  const { page, session, errors } = await loggedInPage('13912350001')
  await e2e.open(page, '/pages/Home/create')
  await page.getByRole('tab', { name: '畅享版' }).waitFor()
  const card = page.getByRole('button', { name: /^畅享版/ }).first()
  await card.waitFor()
  await page.getByText('充足').first().waitFor()
  await screenshot(page, 'buy-catalogue')

  await card.click()
  await page.waitForURL(/pages\/create\/goodsDetails/)
  await page.getByText('地区与库存').waitFor()
  await screenshot(page, 'buy-goods-details')
  await button(page, '立即购买').click()

  await page.waitForURL(/pages\/create\/buyGoods/)
  await page.getByLabel('合计金额').filter({ hasText: '¥' }).waitFor()
  await screenshot(page, 'buy-goods')
  await button(page, '提交订单').click()

  await page.waitForURL(/pages\/pay\/pay\?orderNo=/)
  await page.getByText('支付剩余时间').waitFor()
  await screenshot(page, 'buy-pay')
  await payAtSandboxCheckout(page)
  await page.getByText('支付成功', { exact: true }).waitFor({ timeout: 20_000 })
  await page.getByText('云手机已开通，正在创建中，通常几秒后即可使用').waitFor({ timeout: 20_000 })
  await screenshot(page, 'buy-paid')
  const list = await api<{ records: unknown[] }>('/device/list', { session })
  assert.equal(list.data.records.length, 1, 'one phone bought')

  await button(page, '查看我的云机').click()
  await page.waitForURL(/pages\/Home\/index/)
  await page.getByText('创建中').first().waitFor()
  await screenshot(page, 'buy-home-creating')
  await page.getByText('运行中').first().waitFor({ timeout: 30_000 })
  await screenshot(page, 'buy-home-running')
  assert.deepEqual(errors, [])
})

test('a zone with too few phones answers out of stock, and a sold-out zone cannot be chosen', async () => {
  const { page, errors } = await loggedInPage('13912350002')
  const levels = await api<
    { goods: { goodId: number; zones: { name: string; statusText: string }[] }[] }[]
  >('/CommodityGroup/getGoodsList')
  const goods = levels.data.flatMap((l) => l.goods)
  const soldOut = goods.find((g) => g.zones.some((z) => z.statusText === '售罄'))
  assert.ok(soldOut, 'the seed has a sold-out zone')

  await e2e.open(page, `/pages/create/buyGoods?goodId=${soldOut.goodId}`)
  const chip = page.getByRole('radio', { name: /售罄/ })
  await chip.waitFor()
  assert.equal(await chip.getAttribute('aria-disabled'), 'true')

  await page.getByRole('radio', { name: /西南-成都/ }).click()
  await page.locator('.nut-inputnumber input').fill('5')
  await page.locator('.nut-inputnumber input').blur()
  await page.getByText(/× 5$/).waitFor()
  await button(page, '提交订单').click()
  await page.getByText('所选地区库存不足，请更换地区或减少购买数量').waitFor()
  await screenshot(page, 'buy-out-of-stock')
  assert.deepEqual(errors, [])
})

interface CatalogueLevel {
  goods: {
    goodId: number
    androidVersion: string
    prices: { priceId: number; goodTime: number }[]
  }[]
}

/**
 * A running phone of the given level's first goods, bought through the API and paid on the sandbox
 * checkout page (the first journey does the same in the UI).
 */
async function runningPhone(page: Page, session: Session, levelIndex: number): Promise<number> {
  const levels = await api<CatalogueLevel[]>('/CommodityGroup/getGoodsList')
  const goods = levels.data[levelIndex].goods[0]
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
      idempotencyKey: `e2e-phone-${session.userId}-${levelIndex}`,
    },
  })
  assert.equal(order.code, 200, order.msg)
  await e2e.open(page, `/pages/pay/pay?orderNo=${order.data.orderNo}`)
  await payAtSandboxCheckout(page)
  await page.getByText('支付成功', { exact: true }).waitFor({ timeout: 20_000 })
  // the phone appears once the order is fulfilled, and takes commands once it is running
  for (let i = 0; i < 60; i += 1) {
    const info = await api<{ deviceIds: number[] }>(
      `/order/getOrderInfo?orderNo=${order.data.orderNo}`,
      { session },
    )
    const [deviceId] = info.data.deviceIds
    if (deviceId) {
      const detail = await api<{ status: number }>(`/device/detail?deviceId=${deviceId}`, {
        session,
      })
      if (detail.data.status === 1) return deviceId
    }
    await sleep(500)
  }
  throw new Error('e2e: the bought phone never became running')
}

test('renew a running phone through the checkout', async () => {
  const { page, session, errors } = await loggedInPage('13912350003')
  const deviceId = await runningPhone(page, session, 0)
  await e2e.open(page, `/pages/Renew/index?deviceIds=${deviceId}`)
  await page.getByText(/续费后：/).waitFor()
  await screenshot(page, 'renew')
  await button(page, '确认续费').click()
  await page.waitForURL(/pages\/pay\/pay\?orderNo=/)
  await payAtSandboxCheckout(page)
  await page.getByText('续费成功，新的到期时间已生效').waitFor({ timeout: 20_000 })
  await screenshot(page, 'renew-paid')
  assert.deepEqual(errors, [])
})

test('downgrade a phone at once, then upgrade it to the video-custom edition', async () => {
  const { page, session, errors } = await loggedInPage('13912350004')
  const deviceId = await runningPhone(page, session, 1)
  await e2e.open(page, `/pages/Device/upOrDownConfig?deviceId=${deviceId}`)
  await page.getByText('目标配置').waitFor()
  await page
    .getByRole('radio', { name: /^畅享版/ })
    .first()
    .click()
  await page.getByText(/降配无需付费，剩余时长按价值折算延长至/).waitFor()
  await screenshot(page, 'config-downgrade')
  await button(page, '确认变更').click()
  await page.waitForURL(/pages\/Home\/index/)
  const after = await api<{ level: number }>(`/device/detail?deviceId=${deviceId}`, { session })
  assert.equal(after.data.level, 1, 'the downgrade applied at once')

  const phone = await runningPhone(page, session, 2)
  await e2e.open(page, `/pages/Device/videoChangeOpType?deviceId=${phone}`)
  await page.getByLabel('合计金额').filter({ hasText: '¥' }).waitFor()
  await screenshot(page, 'video-edition')
  await button(page, '立即升级').click()
  await page.waitForURL(/pages\/pay\/pay\?orderNo=/)
  await payAtSandboxCheckout(page)
  await page.getByText('已升级为视频定制版').waitFor({ timeout: 20_000 })
  assert.deepEqual(errors, [])
})

test('a company makes a payment link and another account pays it', async () => {
  const company = await loggedInPage('13912350005')
  const made = await api('/user/updateCompanyInfo', {
    session: company.session,
    json: {
      companyName: '云测科技有限公司',
      address: '上海市浦东新区世纪大道100号',
      workTypes: [],
    },
  })
  assert.equal(made.code, 200, made.msg)
  const { page } = company
  // Saving company details asks for verification: 企业采购 waits for the operator.
  await e2e.open(page, '/pages/user/personalData')
  await page.getByText('审核中').waitFor()
  const verified = await e2e.operator(['scripts/verify-company.ts', '13912350005'])
  assert.match(verified, /verified/)
  await e2e.open(page, '/pages/create/bigUserBuyGoods')
  await page.getByLabel('合计金额').filter({ hasText: '¥' }).waitFor()
  // level first, then that level's configurations: the five choices and the total on one 390×844 screen
  await page.getByRole('tab', { name: '旗舰版' }).click()
  const configs = page.getByRole('radiogroup', { name: '选择配置' }).getByRole('radio')
  assert.ok((await configs.count()) <= 4, 'only the 旗舰版 configurations')
  await configs.last().click()
  assert.equal(await configs.last().getAttribute('aria-checked'), 'true')
  await page.getByLabel('合计金额').filter({ hasText: '¥' }).waitFor()
  for (const part of [
    page.getByRole('tablist', { name: '选择等级' }),
    page.getByRole('radiogroup', { name: '选择配置' }),
    page.getByRole('radiogroup', { name: '选择地区' }),
    page.getByRole('radiogroup', { name: '选择时长' }),
    page.getByText('购买数量（台）'),
    page.getByLabel('合计金额'),
  ]) {
    const box = await part.boundingBox()
    assert.ok(box && box.y >= 0 && box.y + box.height <= 844, `on the first screen: ${part}`)
  }
  await screenshot(page, 'big-user-picker')
  await page.locator('textarea').fill('市场部采购')
  // the configuration just picked is quoted again (计算中…): the button waits for it
  await enabledButton(page, '生成付款链接').click()
  await page.getByText('付款链接已生成').waitFor()
  const link = await page.getByText(/\/pages\/pay\/pay\?link=/).textContent()
  await screenshot(page, 'big-user-link')
  const path = new URL(link!.trim()).pathname + new URL(link!.trim()).search

  const payer = await loggedInPage('13912350006')
  await e2e.open(payer.page, path)
  await button(payer.page, '立即支付').waitFor()
  assert.equal(await button(payer.page, '取消订单').count(), 0, 'only the creator may cancel')
  await payAtSandboxCheckout(payer.page)
  await payer.page.getByText('支付成功', { exact: true }).waitFor({ timeout: 20_000 })
  const phones = await api<{ records: unknown[] }>('/device/list', { session: payer.session })
  for (let i = 0; i < 40 && phones.data.records.length === 0; i += 1) {
    await sleep(500)
    Object.assign(phones, await api('/device/list', { session: payer.session }))
  }
  assert.equal(phones.data.records.length, 1, 'the phone goes to whoever paid')
  assert.deepEqual([...company.errors, ...payer.errors], [])
})
