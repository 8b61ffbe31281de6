/**
 * New-user benefits are once per person (services/accounts/benefits.ts): deleting the account and registering the
 * same number, or binding the same WeChat to a new number, brings back no trial phone, no 新人券, no
 * first-purchase price and no first recharge.
 */
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { test } from 'node:test'
import { eq, sql } from 'drizzle-orm'
import {
  benefitClaims,
  devices,
  goodsPrices,
  orders,
  userCoupons,
  users,
} from '../../src/db/schema'
import {
  assertProductionSafe,
  loadConfig,
  SANDBOX_SWITCHES,
  SERVER_DEFAULTS,
} from '../../src/config'
import { PersonBenefitService } from '../../src/services/accounts/benefits'
import { TRIAL_TAKEN, TRIAL_TAKEN_BEFORE } from '../../src/services/engagement/engagement-service'
import { RECHARGE_PACKAGES } from '../../src/services/wallet/wallet-service'
import {
  GOODS,
  cancelOrder,
  commerceApp,
  createCloudOrder,
  newKey,
  payWithSandbox,
  priceOf,
  quote,
} from '../helpers/commerce'
import { get, loginWithSms, post, sendCode, type Session, type TestApp } from '../helpers/test-app'
import type { LoginResult, WxLoginResult } from '../../src/contract/auth'
import type { PagedData } from '../../src/contract/common'
import type { ApplicableCoupons, UserCoupon } from '../../src/contract/coupon'
import type { NewUserGuideConfig, TrialPhone } from '../../src/contract/engagement'
import type { OrderInfo } from '../../src/contract/order'
import type { MobileTicket } from '../../src/contract/user'

const MONTH = priceOf(GOODS.enjoyB, 30)
const MONTH_QUOTE = { kind: 'new', goodId: GOODS.enjoyB, priceId: MONTH, quantity: 1 }

async function monthPrices(ta: TestApp) {
  const [row] = await ta.database.db.select().from(goodsPrices).where(eq(goodsPrices.id, MONTH))
  assert.ok(row.firstPurchasePrice && row.firstPurchasePrice < row.goodPrice)
  return { first: row.firstPurchasePrice, normal: row.goodPrice }
}

async function couponNames(ta: TestApp, session: Session) {
  const reply = await get<PagedData<UserCoupon>>(ta.app, '/coupon/list', session, {
    status: '1',
    rows: '50',
  })
  assert.equal(reply.code, 200, reply.msg)
  return (reply.data.records as { name: string }[]).map((c) => c.name).sort()
}

const claimTrial = (ta: TestApp, session: Session) =>
  get<TrialPhone>(ta.app, '/newUserGuide/getNewUserReceiveEquipment', session)

async function trialOffer(ta: TestApp, session: Session) {
  const reply = await get<NewUserGuideConfig>(
    ta.app,
    '/newUserGuide/getNewUserGuideConfig_V2',
    session,
  )
  assert.equal(reply.code, 200, reply.msg)
  return reply.data.trialOffer as { enabled: boolean; claimed: boolean }
}

async function deleteAccount(ta: TestApp, session: Session, mobilePhone: string) {
  ta.clock.advance(61_000)
  const code = await sendCode(ta.app, mobilePhone, 'deleteAccount', session)
  const reply = await post(ta.app, '/user/logoutUser', { code }, session)
  assert.equal(reply.code, 200, reply.msg)
}

/** Whether a bean recharge of this account would be a first recharge (as the 首充券 rule sees it). */
async function firstRecharge(ta: TestApp, session: Session) {
  const reply = await post<ApplicableCoupons>(
    ta.app,
    '/coupon/applicable',
    { kind: 'recharge', packageId: 2 },
    session,
  )
  assert.equal(reply.code, 200, reply.msg)
  return reply.data.goods.firstRecharge as boolean
}

async function rechargeAndPay(ta: TestApp, session: Session) {
  const pack = RECHARGE_PACKAGES.find((p) => p.id === 2)!
  const created = await post<OrderInfo>(
    ta.app,
    '/order/createRechargeOrder',
    { packageId: 2, expectedAmount: pack.price, idempotencyKey: newKey() },
    session,
  )
  assert.equal(created.code, 200, created.msg)
  await payWithSandbox(ta, session, created.data.orderNo)
}

/**
 * Binds a WeChat (sandbox code `sandbox:<name>`) to a number proven by SMS, registering the number if
 * new: the only place this file knows how WeChat binding is called.
 */
async function bindWechat(
  ta: TestApp,
  name: string,
  mobilePhone: string,
): Promise<Session & { firstLogin: 0 | 1 }> {
  const login = await post<WxLoginResult>(ta.app, '/user/wxAppletsLogin', {
    jsCode: `sandbox:${name}`,
  })
  assert.equal(login.code, 200, login.msg)
  assert.equal(login.data.bound, false)
  ta.clock.advance(61_000)
  const code = await sendCode(ta.app, mobilePhone)
  const reply = await post<LoginResult>(ta.app, '/user/wxAppletsLoginPro', {
    bindTicket: login.data.bindTicket,
    mobilePhone,
    code,
  })
  assert.equal(reply.code, 200, reply.msg)
  return reply.data
}

test('after deleting the account, the same number gets no trial phone, no 新人券, the normal price and no first recharge', async (t) => {
  const ta = await commerceApp(t)
  const NUMBER = '13700000001'
  const prices = await monthPrices(ta)

  const first = await loginWithSms(ta, NUMBER)
  const welcome = await couponNames(ta, first)
  assert.ok(welcome.includes('新人无门槛券') && welcome.includes('首充立减3元'), welcome.join())
  assert.equal((await claimTrial(ta, first)).code, 200)
  assert.equal((await quote(ta, first, MONTH_QUOTE)).total, prices.first)
  const order = await createCloudOrder(ta, first)
  assert.equal(order.code, 200, order.msg)
  assert.equal(order.data.amount, prices.first)
  await payWithSandbox(ta, first, order.data.orderNo)
  assert.equal(await firstRecharge(ta, first), true)
  await rechargeAndPay(ta, first)
  assert.equal(await firstRecharge(ta, first), false)
  await deleteAccount(ta, first, NUMBER)

  const again = await loginWithSms(ta, NUMBER)
  assert.notEqual(again.userId, first.userId)
  assert.equal(again.firstLogin, 1, 'a new account all the same')
  assert.deepEqual(await couponNames(ta, again), [], 'no 新人券 a second time')
  const offer = await trialOffer(ta, again)
  assert.deepEqual([offer.claimed, offer.enabled], [true, false], 'the guide offers no trial')
  const refused = await claimTrial(ta, again)
  assert.equal(refused.code, 1080)
  assert.equal(refused.msg, TRIAL_TAKEN_BEFORE)
  const phones = await ta.database.db.select().from(devices).where(eq(devices.userId, again.userId))
  assert.equal(phones.length, 0)

  assert.equal((await quote(ta, again, MONTH_QUOTE)).total, prices.normal, 'the normal price')
  const normal = await createCloudOrder(ta, again)
  assert.equal(normal.code, 200, normal.msg)
  assert.equal(normal.data.amount, prices.normal)
  const [row] = await ta.database.db
    .select()
    .from(orders)
    .where(eq(orders.orderNo, normal.data.orderNo))
  assert.equal(row.firstOrder, false)
  // An order with a coupon (a campaign's, handed out by an operator) takes the transaction path: the
  // same normal price. Cancel the open order first, so the account has no live new-phone order.
  await post<OrderInfo>(ta.app, '/order/cancel', { orderNo: normal.data.orderNo }, again)
  const [coupon] = await ta.database.db
    .insert(userCoupons)
    .values({
      userId: again.userId,
      templateId: 1, // 新人无门槛券: 5 元 off
      validFrom: ta.clock.now(),
      validUntil: new Date(ta.clock.now().getTime() + 86_400_000),
      issuedAt: ta.clock.now(),
    })
    .returning()
  const body = { goodId: GOODS.enjoyB, priceId: MONTH, zoneId: 1, quantity: 1, couponId: coupon.id }
  const atFirstPrice = await post<OrderInfo>(
    ta.app,
    '/order/createCloudOrder',
    { ...body, expectedAmount: prices.first - 500, idempotencyKey: newKey() },
    again,
  )
  assert.equal(atFirstPrice.code, 1023, atFirstPrice.msg)
  const withCoupon = await post<OrderInfo>(
    ta.app,
    '/order/createCloudOrder',
    { ...body, expectedAmount: prices.normal - 500, idempotencyKey: newKey() },
    again,
  )
  assert.equal(withCoupon.code, 200, withCoupon.msg)
  assert.equal(withCoupon.data.amount, prices.normal - 500)
  assert.equal(await firstRecharge(ta, again), false, 'the first recharge was taken too')
})

test('a first order that was cancelled, or never made, leaves the first-purchase price to the next account', async (t) => {
  const ta = await commerceApp(t)
  const NUMBER = '13700000002'
  const prices = await monthPrices(ta)
  const first = await loginWithSms(ta, NUMBER)
  const order = await createCloudOrder(ta, first)
  assert.equal(order.data.amount, prices.first)
  await cancelOrder(ta, first, order.data.orderNo)
  await deleteAccount(ta, first, NUMBER)

  const again = await loginWithSms(ta, NUMBER)
  assert.equal((await quote(ta, again, MONTH_QUOTE)).total, prices.first)
  const placed = await createCloudOrder(ta, again)
  assert.equal(placed.code, 200, placed.msg)
  assert.equal(placed.data.amount, prices.first)
  assert.equal(await firstRecharge(ta, again), true)
  assert.deepEqual(await couponNames(ta, again), [], 'the 新人券 were taken on registration')
  assert.equal((await claimTrial(ta, again)).code, 200, 'the trial was never claimed')
})

test('a WeChat bound to a new number after the account was deleted brings nothing back', async (t) => {
  const ta = await commerceApp(t)
  const prices = await monthPrices(ta)
  const first = await bindWechat(ta, 'carol', '13700000003')
  assert.ok((await couponNames(ta, first)).length > 0)
  assert.equal((await claimTrial(ta, first)).code, 200)
  const order = await createCloudOrder(ta, first)
  await payWithSandbox(ta, first, order.data.orderNo)
  await deleteAccount(ta, first, '13700000003')

  const again = await bindWechat(ta, 'carol', '13700000004')
  assert.equal(again.firstLogin, 1)
  assert.deepEqual(await couponNames(ta, again), [])
  assert.equal((await claimTrial(ta, again)).msg, TRIAL_TAKEN_BEFORE)
  assert.equal((await quote(ta, again, MONTH_QUOTE)).total, prices.normal)

  // binding that WeChat to an account that already exists carries the record over too
  const existing = await loginWithSms(ta, '13700000005')
  await deleteAccount(ta, again, '13700000004')
  const bound = await bindWechat(ta, 'carol', '13700000005')
  assert.equal(bound.userId, existing.userId)
  assert.equal((await claimTrial(ta, existing)).msg, TRIAL_TAKEN_BEFORE)
  assert.equal((await quote(ta, existing, MONTH_QUOTE)).total, prices.normal)
})

test('a number moved away from keeps what its account took', async (t) => {
  const ta = await commerceApp(t)
  const OLD = '13700000006'
  const NEW = '13700000007'
  const me = await loginWithSms(ta, OLD)
  assert.equal((await claimTrial(ta, me)).code, 200)
  ta.clock.advance(61_000)
  const oldCode = await sendCode(ta.app, OLD, 'changeOld', me)
  const ticket = await post<MobileTicket>(ta.app, '/user/checkOldMobile', { code: oldCode }, me)
  assert.equal(ticket.code, 200, ticket.msg)
  const newCode = await sendCode(ta.app, NEW, 'changeNew')
  const moved = await post(
    ta.app,
    '/user/changeBindingMobile',
    { ticket: ticket.data.ticket, mobilePhone: NEW, code: newCode },
    me,
  )
  assert.equal(moved.code, 200, moved.msg)

  const onOld = await loginWithSms(ta, OLD)
  assert.notEqual(onOld.userId, me.userId)
  assert.deepEqual(await couponNames(ta, onOld), [])
  assert.equal((await claimTrial(ta, onOld)).msg, TRIAL_TAKEN_BEFORE)
})

test('two live accounts of one WeChat (one unionid, two openids) claiming the trial at once get one phone', async (t) => {
  const ta = await commerceApp(t)
  const a = await loginWithSms(ta, '13700000008')
  const b = await loginWithSms(ta, '13700000009')
  // The mini-program and the official account give one person two openids under one unionid.
  for (const [session, openId] of [
    [a, 'o_applet_dave'],
    [b, 'o_official_dave'],
  ] as const) {
    await ta.database.db
      .update(users)
      .set({ openId, unionId: 'u_dave' })
      .where(eq(users.id, session.userId))
  }
  const replies = await Promise.all([a, b, a, b].map((session) => claimTrial(ta, session)))
  assert.deepEqual(
    replies.map((r) => r.code).sort((x, y) => x - y),
    [200, 1080, 1080, 1080],
    replies.map((r) => r.msg).join(' / '),
  )
  for (const reply of replies.filter((r) => r.code !== 200)) {
    assert.ok([TRIAL_TAKEN, TRIAL_TAKEN_BEFORE].includes(reply.msg), reply.msg)
  }
  const [{ phones }] = await ta.database.db
    .select({ phones: sql<number>`count(*)::int` })
    .from(devices)
    .where(sql`${devices.userId} in (${a.userId}, ${b.userId})`)
  assert.equal(phones, 1)
})

test('the record names nobody without the pepper, and outlives the account', async (t) => {
  const ta = await commerceApp(t)
  const NUMBER = '13700000010'
  const me = await loginWithSms(ta, NUMBER)
  await claimTrial(ta, me)
  await deleteAccount(ta, me, NUMBER)
  const rows = await ta.database.db.select().from(benefitClaims)
  assert.deepEqual([...new Set(rows.map((r) => r.benefit))].sort(), ['trial', 'welcome'])
  const plain = createHash('sha256').update(`mobile:${NUMBER}`).digest('hex')
  for (const row of rows) {
    assert.ok(!row.subject.includes(NUMBER))
    assert.notEqual(row.subject, plain)
  }
  const identity = { mobilePhone: NUMBER, openId: null, unionId: null }
  const ours = new PersonBenefitService(ta.app.services.ctx.settings.benefitPepper).subjects(
    identity,
  )
  assert.deepEqual(
    rows.map((r) => r.subject),
    [ours[0], ours[0]],
  )
  assert.notDeepEqual(new PersonBenefitService('another pepper').subjects(identity), ours)
})

test('production refuses to start with the development pepper', () => {
  const production = {
    NODE_ENV: 'production',
    ...Object.fromEntries(Object.values(SANDBOX_SWITCHES).map((name) => [name, '1'])),
    SANDBOX_PAY_SECRET: 'a-long-secret-of-our-own',
    DATABASE_URL: 'postgres://cloudphone@db.internal/cloudphone',
  }
  assert.throws(() => assertProductionSafe(loadConfig(production)), /BENEFIT_PEPPER/)
  const own = loadConfig({ ...production, BENEFIT_PEPPER: 'a-pepper-of-our-own' })
  assert.doesNotThrow(() => assertProductionSafe(own))
  assert.equal(own.benefitPepper, 'a-pepper-of-our-own')
  assert.equal(
    loadConfig({}).benefitPepper,
    SERVER_DEFAULTS.benefitPepper,
    'development runs on the default',
  )
})
