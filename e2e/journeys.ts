/**
 * Steps many e2e files share: NutUI buttons and Taro's modal by their text, and buying running phones
 * through the API with the sandbox checkout.
 */
import assert from 'node:assert/strict'
import type { Page } from 'playwright-core'
import { api, sleep, type Session } from './harness'

/** A NutUI button by its exact text (its inner text node does not take clicks in Chromium). */
export const button = (page: Page, text: string) =>
  page.locator('taro-button-core').filter({ hasText: new RegExp(`^\\s*${text}\\s*$`) })

/**
 * The same button once it can be tapped. NutUI's Button shows disabled (e.g. while a quote is 计算中…) by
 * its class `nut-button-disabled` and ignores the tap, and Playwright's click does not wait for that, so a
 * click then is lost.
 */
export const enabledButton = (page: Page, text: string) =>
  page
    .locator('taro-button-core:not([disabled]):not(.nut-button-disabled)')
    .filter({ hasText: new RegExp(`^\\s*${text}\\s*$`) })

/** The confirm button of Taro's H5 modal (showModal). */
export const confirmModal = (page: Page) =>
  page.locator('.taro-modal__foot').getByText('确定').click()

interface Price {
  priceId: number
  goodTime: number
}
interface CatalogueLevel {
  goods: {
    goodId: number
    name: string
    prices: Price[]
    zones: { zoneId: number; inventoryStatus: number }[]
  }[]
}
export interface DeviceRow {
  deviceId: number
  name: string
  status: number
  groupId: number | null
}

export function ok<T>(what: string, envelope: { code: number; msg: string; data: T }): T {
  assert.equal(envelope.code, 200, `${what}: ${envelope.msg}`)
  return envelope.data
}

/** The first goods of the first level with a price of `days` and a zone in stock. */
export async function goodsFor(days: number) {
  const levels = ok('goods list', await api<CatalogueLevel[]>('/CommodityGroup/getGoodsList'))
  const goods = levels[0].goods[0]
  const price = goods.prices.find((p) => p.goodTime === days)
  assert.ok(price, `a ${days}-day price`)
  const zone = goods.zones.find((z) => z.inventoryStatus === 1) ?? goods.zones[0]
  return { goodId: goods.goodId, priceId: price.priceId, zoneId: zone.zoneId }
}

/** Pays an order the way the sandbox checkout's 确认支付 does. */
export async function payInSandbox(session: Session, orderNo: string) {
  const payment = ok(
    'createPayment',
    await api<{ tradeNo: string }>('/pay/createPayment', {
      session,
      json: { orderNo, payMethod: 1, returnUrl: '/pages/Home/index' },
    }),
  )
  ok(
    'sandbox pay',
    await api('/sandbox/pay/act', { json: { tradeNo: payment.tradeNo, action: 'pay' } }),
  )
}

export async function waitForOrder<T extends { status: number }>(
  session: Session,
  orderNo: string,
) {
  for (let i = 0; i < 80; i += 1) {
    const info = ok('order', await api<T>(`/order/getOrderInfo?orderNo=${orderNo}`, { session }))
    if (info.status === 2) return info
    await sleep(250)
  }
  throw new Error(`e2e: order ${orderNo} was never completed`)
}

/** Buys `quantity` phones for `days` days and waits until all of them run. */
export async function buyPhones(session: Session, quantity: number, days: number, key: string) {
  const choice = await goodsFor(days)
  const quote = ok(
    'quote',
    await api<{ total: number }>('/CommodityGroup/getGoodPrice', {
      session,
      json: { kind: 'new', goodId: choice.goodId, priceId: choice.priceId, quantity },
    }),
  )
  const order = ok(
    'createCloudOrder',
    await api<{ orderNo: string }>('/order/createCloudOrder', {
      session,
      json: { ...choice, quantity, expectedAmount: quote.total, idempotencyKey: key },
    }),
  )
  await payInSandbox(session, order.orderNo)
  const info = await waitForOrder<{ status: number; deviceIds: number[] }>(session, order.orderNo)
  for (let i = 0; i < 80; i += 1) {
    const list = ok(
      'device list',
      await api<{ records: DeviceRow[] }>('/device/list?rows=100', { session }),
    )
    const mine = list.records.filter((d) => info.deviceIds.includes(d.deviceId))
    if (mine.length === quantity && mine.every((d) => d.status === 1)) return mine
    await sleep(250)
  }
  throw new Error('e2e: the bought phones never became running')
}
