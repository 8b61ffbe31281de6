/**
 * 自动续费: the setting (POST /device/autoRenew and what the phone list shows of it) and the job's
 * work (services/auto-renew/auto-renew-run.ts): due and not due, beans and the company balance, a short
 * balance (told once per cycle), an open plan order, an expired or frozen owner's phone, the video
 * edition priced in, a run that stalls halfway, and two runs at once.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { and, eq, sql } from 'drizzle-orm'
import pg from 'pg'
import { DeviceStatus } from '#domain/device-lifecycle'
import { OrderStatus, PayMethod } from '#domain/order-status'
import { ResultCode } from '#domain/result-codes'
import type { SetAutoRenewResult } from '../../src/contract/auto-renew'
import type { Device } from '../../src/contract/device'
import type { PagedData } from '../../src/contract/common'
import type { OrderInfo } from '../../src/contract/order'
import { wrapPool } from '../../src/db/client'
import { createServices } from '../../src/services'
import { deviceAutoRenew, devices, messages, orders, users } from '../../src/db/schema'
import { expireDevicesJob } from '../../src/jobs/expire-devices'
import { CLAIM_MS, RETRY_MS } from '../../src/services/auto-renew'
import { COMPANY_ACCOUNT, credit } from '../../src/services/wallet/ledger'
import { GOODS, ZONES, commerceApp, newBuyer, newKey, priceOf } from '../helpers/commerce'
import { get, post, type Session, type TestApp } from '../helpers/test-app'

const DAY = 86_400_000

async function phone(
  ta: TestApp,
  userId: number,
  options: { expiresInMs: number; goodId?: number; status?: number; videoEdition?: boolean },
) {
  const now = ta.clock.now()
  const goodId = options.goodId ?? GOODS.enjoyB
  const [row] = await ta.database.db
    .insert(devices)
    .values({
      userId,
      name: `云手机-${Math.floor(Math.random() * 1e6)}`,
      goodId,
      level: Math.floor(goodId / 100),
      zoneId: ZONES.shanghai,
      androidVersion: 'B',
      imageType: 1,
      status: options.status ?? DeviceStatus.running,
      videoEdition: options.videoEdition ?? false,
      expireAt: new Date(now.getTime() + options.expiresInMs),
      createdAt: new Date(now.getTime() - 30 * DAY),
    })
    .returning({ id: devices.id })
  return row.id
}

const giveBeans = (ta: TestApp, userId: number, beans: number) =>
  ta.database.db.transaction((tx) =>
    ta.app.services.beans.credit(tx, userId, beans, { reason: 'grant' }),
  )

const giveBalance = (ta: TestApp, userId: number, fen: number) =>
  ta.database.db.transaction((tx) =>
    credit(tx, COMPANY_ACCOUNT, userId, fen, { reason: 'recharge' }, ta.clock.now()),
  )

const beans = (ta: TestApp, userId: number) => ta.app.services.beans.balance(userId, ta.database.db)

const setAutoRenew = (ta: TestApp, session: Session, body: Record<string, unknown>) =>
  post<SetAutoRenewResult>(ta.app, '/device/autoRenew', body, session)

async function turnOn(
  ta: TestApp,
  session: Session,
  deviceIds: number[],
  payMethod = 3,
  days = 30,
) {
  const reply = await setAutoRenew(ta, session, { deviceIds, enabled: true, days, payMethod })
  assert.equal(reply.code, 200, reply.msg)
}

const expiry = async (ta: TestApp, id: number) =>
  (await ta.database.db.select().from(devices).where(eq(devices.id, id)))[0].expireAt.getTime()

const row = (ta: TestApp, id: number) => ta.app.services.autoRenew.row(id)

const renewalMessages = (ta: TestApp, userId: number, title: string) =>
  ta.database.db
    .select()
    .from(messages)
    .where(and(eq(messages.userId, userId), eq(messages.title, title)))

const autoOrders = (ta: TestApp, userId: number) =>
  ta.database.db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), sql`${orders.detail}->>'autoRenew' = 'true'`))

const run = (ta: TestApp) => ta.app.services.autoRenewRun.runBatch()

test('POST /device/autoRenew: on, off, and every refusal with nothing changed', async (t) => {
  const ta = await commerceApp(t)
  const owner = await newBuyer(ta)
  const other = await newBuyer(ta)
  const a = await phone(ta, owner.userId, { expiresInMs: 20 * DAY })
  const b = await phone(ta, owner.userId, { expiresInMs: 20 * DAY, goodId: GOODS.flagshipB })
  const theirs = await phone(ta, other.userId, { expiresInMs: 20 * DAY })
  const released = await phone(ta, owner.userId, {
    expiresInMs: -DAY,
    status: DeviceStatus.released,
  })

  // read once before, so the list below is served after a change of the setting alone (fleet version)
  const unset = await get<PagedData<Device>>(ta.app, '/device/list', owner)
  assert.ok(unset.data.records.every((d) => d.autoRenew === null))
  const on = await setAutoRenew(ta, owner, {
    deviceIds: [a, b],
    enabled: true,
    days: 30,
    payMethod: 3,
  })
  assert.equal(on.code, 200, on.msg)
  assert.deepEqual(on.data, {
    updated: 2,
    autoRenew: { days: 30, payMethod: 3, failure: null },
    daysBefore: 3,
  })
  const list = await get<PagedData<Device>>(ta.app, '/device/list', owner)
  const shown = new Map(list.data.records.map((d) => [d.deviceId, d.autoRenew]))
  assert.deepEqual(shown.get(a), { days: 30, payMethod: 3, failure: null })
  const detail = await get<Device>(ta.app, '/device/detail', owner, { deviceId: String(b) })
  assert.deepEqual(detail.data.autoRenew, { days: 30, payMethod: 3, failure: null })

  const refusals: [Record<string, unknown>, number, string | RegExp][] = [
    [
      { deviceIds: [a, theirs], enabled: true, days: 30, payMethod: 3 },
      ResultCode.GET_DEVICE_FAILED,
      /./,
    ],
    [
      { deviceIds: [a], enabled: true },
      ResultCode.SHOW_ERROR_TIPS,
      '请选择自动续费的续费时长和支付方式',
    ],
    [
      { deviceIds: [a], enabled: true, days: 30, payMethod: 4 },
      ResultCode.SHOW_ERROR_TIPS,
      '账户余额支付仅对企业用户开放',
    ],
    [
      { deviceIds: [a], enabled: true, days: 45, payMethod: 3 },
      ResultCode.SHOW_ERROR_TIPS,
      '所选续费时长不适用于所选云手机',
    ],
    [
      { deviceIds: [released], enabled: true, days: 30, payMethod: 3 },
      ResultCode.SHOW_ERROR_TIPS,
      `云手机 ${released} 已释放，不能设置自动续费`,
    ],
    [{ deviceIds: [theirs], enabled: false }, ResultCode.GET_DEVICE_FAILED, /./],
  ]
  for (const [body, code, msg] of refusals) {
    const reply = await setAutoRenew(ta, owner, body)
    assert.equal(reply.code, code, JSON.stringify(body))
    if (typeof msg === 'string') assert.equal(reply.msg, msg)
    else assert.match(reply.msg, msg)
  }
  assert.equal((await row(ta, a))?.payMethod, 3, 'a refusal changes nothing')
  assert.equal(await row(ta, theirs), null)

  // a bad pay method is the schema's refusal (400), not a code
  const bad = await setAutoRenew(ta, owner, {
    deviceIds: [a],
    enabled: true,
    days: 30,
    payMethod: 1,
  })
  assert.equal(bad.code, 400)

  const off = await setAutoRenew(ta, owner, { deviceIds: [a], enabled: false })
  assert.deepEqual(off.data, { updated: 1, autoRenew: null, daysBefore: 3 })
  assert.equal(await row(ta, a), null)
  assert.ok(await row(ta, b), 'the other phone keeps it')

  // someone a phone is authorised to never sees what pays for it
  const company = await newBuyer(ta, { company: true })
  const c = await phone(ta, company.userId, { expiresInMs: 20 * DAY })
  await turnOn(ta, company, [c], 4)
  assert.equal((await row(ta, c))?.payMethod, 4)
})

test('the job renews due phones from beans, leaves the rest, and tells of a short balance once', async (t) => {
  const ta = await commerceApp(t)
  const owner = await newBuyer(ta)
  const due = await phone(ta, owner.userId, { expiresInMs: 2 * DAY })
  const later = await phone(ta, owner.userId, { expiresInMs: 10 * DAY })
  const off = await phone(ta, owner.userId, { expiresInMs: 2 * DAY })
  const expired = await phone(ta, owner.userId, {
    expiresInMs: -3600_000,
    status: DeviceStatus.expired,
  })
  await turnOn(ta, owner, [due, later, expired])
  const before = {
    due: await expiry(ta, due),
    later: await expiry(ta, later),
    off: await expiry(ta, off),
  }

  // nothing to pay with: the phone is due, the balance short
  let batch = await run(ta)
  assert.deepEqual(batch, { claimed: 1, renewed: 0, failed: 1, orders: 0 })
  assert.equal((await row(ta, due))?.failure, '云豆余额不足')
  assert.equal((await autoOrders(ta, owner.userId)).length, 0, 'no order left behind')
  const told = await renewalMessages(ta, owner.userId, '自动续费未成功')
  assert.equal(told.length, 1)
  assert.match(told[0].content, /云豆余额不足，还需¥/)
  const list = await get<PagedData<Device>>(ta.app, '/device/list', owner)
  assert.equal(
    list.data.records.find((d) => d.deviceId === due)?.autoRenew?.failure,
    '云豆余额不足',
    'the card shows the failure',
  )

  // tried again an hour later, still short: not told twice for the same expiry
  ta.clock.advance(RETRY_MS)
  batch = await run(ta)
  assert.equal(batch.failed, 1)
  assert.equal((await renewalMessages(ta, owner.userId, '自动续费未成功')).length, 1)

  // beans arrive: the next try renews it by the chosen 30 days, paid exactly what the order says
  await giveBeans(ta, owner.userId, 100_000)
  ta.clock.advance(RETRY_MS)
  batch = await run(ta)
  assert.deepEqual(batch, { claimed: 1, renewed: 1, failed: 0, orders: 1 })
  const [order] = await autoOrders(ta, owner.userId)
  assert.equal(order.status, OrderStatus.completed)
  assert.equal(order.payMethod, PayMethod.beans)
  assert.equal(order.kind, 'renew')
  assert.equal(await beans(ta, owner.userId), 100_000 - order.amount)
  assert.equal(await expiry(ta, due), before.due + 30 * DAY)
  assert.equal(await expiry(ta, later), before.later, 'not due yet')
  assert.equal(await expiry(ta, off), before.off, 'not switched on')
  assert.equal(
    (await expiry(ta, expired)) < ta.clock.now().getTime(),
    true,
    'an expired phone is renewed by hand',
  )
  const done = await row(ta, due)
  assert.equal(done?.failure, null)
  assert.equal(done?.lastOrderId, order.id)
  assert.equal((await renewalMessages(ta, owner.userId, '云手机已自动续费')).length, 1)

  // renewed out of the window: the next runs do nothing
  ta.clock.advance(RETRY_MS)
  assert.deepEqual(await run(ta), { claimed: 0, renewed: 0, failed: 0, orders: 0 })
})

test('the balance pays for the earliest expiries first; the rest fail as short', async (t) => {
  const ta = await commerceApp(t)
  const owner = await newBuyer(ta)
  const first = await phone(ta, owner.userId, { expiresInMs: 1 * DAY })
  const second = await phone(ta, owner.userId, { expiresInMs: 2 * DAY })
  await turnOn(ta, owner, [first, second])
  const draft = await ta.app.services.orders.draft(owner.userId, {
    kind: 'renew',
    priceId: priceOf(GOODS.enjoyB, 30),
    deviceIds: [first],
  })
  await giveBeans(ta, owner.userId, draft.amount + 1)
  const batch = await run(ta)
  assert.deepEqual(batch, { claimed: 2, renewed: 1, failed: 1, orders: 1 })
  assert.equal(await beans(ta, owner.userId), 1, 'never below zero, nothing half paid')
  assert.equal((await row(ta, first))?.failure, null)
  assert.equal((await row(ta, second))?.failure, '云豆余额不足')
})

test('the company balance pays, the video edition is priced in, and a frozen owner is refused', async (t) => {
  const ta = await commerceApp(t)
  const company = await newBuyer(ta, { company: true })
  const plain = await phone(ta, company.userId, { expiresInMs: DAY, goodId: GOODS.flagshipB })
  const video = await phone(ta, company.userId, {
    expiresInMs: DAY,
    goodId: GOODS.flagshipB,
    videoEdition: true,
  })
  await turnOn(ta, company, [plain, video], 4)
  await giveBalance(ta, company.userId, 10_000_000)
  const batch = await run(ta)
  assert.deepEqual(batch, { claimed: 2, renewed: 2, failed: 0, orders: 1 })
  const [order] = await autoOrders(ta, company.userId)
  assert.equal(order.payMethod, PayMethod.accountBalance)
  const lines = (order.detail as { renewals: { deviceId: number; amount: number }[] }).renewals
  const amount = new Map(lines.map((line) => [line.deviceId, line.amount]))
  assert.ok(amount.get(video)! > amount.get(plain)!, 'the video edition pays its daily fee')
  const [account] = await ta.database.db
    .execute<{ balance: number }>(
      sql`select balance from account_balances where user_id = ${company.userId}`,
    )
    .then((r) => (r as unknown as { rows: { balance: number }[] }).rows)
  assert.equal(account.balance, 10_000_000 - order.amount)

  const frozen = await newBuyer(ta)
  const theirs = await phone(ta, frozen.userId, { expiresInMs: DAY })
  await turnOn(ta, frozen, [theirs])
  await giveBeans(ta, frozen.userId, 100_000)
  await ta.database.db.update(users).set({ frozen: true }).where(eq(users.id, frozen.userId))
  assert.deepEqual(await run(ta), { claimed: 1, renewed: 0, failed: 1, orders: 0 })
  assert.equal((await row(ta, theirs))?.failure, '账号已冻结')
  assert.equal(await beans(ta, frozen.userId), 100_000)

  // a personal user's company-balance setting (their company status withdrawn) is refused too
  await ta.database.db.update(users).set({ userType: 1 }).where(eq(users.id, company.userId))
  const more = await phone(ta, company.userId, { expiresInMs: DAY, goodId: GOODS.flagshipB })
  await ta.database.db.insert(deviceAutoRenew).values({
    deviceId: more,
    userId: company.userId,
    days: 30,
    payMethod: 4,
    createdAt: ta.clock.now(),
    updatedAt: ta.clock.now(),
  })
  await run(ta)
  assert.equal((await row(ta, more))?.failure, '账户余额支付仅对企业用户开放')
})

test('an open plan order is left to its owner, named as the failure; a transferred phone is not paid for', async (t) => {
  const ta = await commerceApp(t)
  const owner = await newBuyer(ta)
  const id = await phone(ta, owner.userId, { expiresInMs: DAY })
  await turnOn(ta, owner, [id])
  await giveBeans(ta, owner.userId, 100_000)
  const priceId = priceOf(GOODS.enjoyB, 30)
  const draft = await ta.app.services.orders.draft(owner.userId, {
    kind: 'renew',
    priceId,
    deviceIds: [id],
  })
  const manual = await post<OrderInfo>(
    ta.app,
    '/order/createRenewOrder',
    { deviceIds: [id], priceId, expectedAmount: draft.amount, idempotencyKey: newKey() },
    owner,
  )
  assert.equal(manual.code, 200, manual.msg)
  const before = await expiry(ta, id)
  assert.deepEqual(await run(ta), { claimed: 1, renewed: 0, failed: 1, orders: 0 })
  assert.equal(
    (await row(ta, id))?.failure,
    `该云手机有待支付的订单（${manual.data.orderNo}），请先完成支付或取消该订单`,
  )
  assert.equal(await expiry(ta, id), before)
  assert.equal(await beans(ta, owner.userId), 100_000)

  // the phone changes owner: the old owner's setting no longer renews it
  const next = await newBuyer(ta)
  await ta.database.db
    .update(orders)
    .set({ status: OrderStatus.cancelled })
    .where(eq(orders.orderNo, manual.data.orderNo))
  await ta.database.db.update(devices).set({ userId: next.userId }).where(eq(devices.id, id))
  ta.clock.advance(RETRY_MS)
  assert.equal((await run(ta)).claimed, 0)
  const list = await get<PagedData<Device>>(ta.app, '/device/list', next)
  assert.equal(list.data.records.find((d) => d.deviceId === id)?.autoRenew, null)
})

test('a run that stalls after ordering: the next claim closes its order, pays its own, renews once', async (t) => {
  const ta = await commerceApp(t)
  const owner = await newBuyer(ta)
  const ids = [
    await phone(ta, owner.userId, { expiresInMs: DAY }),
    await phone(ta, owner.userId, { expiresInMs: DAY }),
  ]
  await turnOn(ta, owner, ids)
  await giveBeans(ta, owner.userId, 100_000)
  const before = await Promise.all(ids.map((id) => expiry(ta, id)))
  // the process dies between writing the order and paying it
  const payments = ta.app.services.payments
  const pay = payments.createPayment.bind(payments)
  payments.createPayment = async () => {
    throw new Error('process died')
  }
  await assert.rejects(run(ta), /process died/)
  payments.createPayment = pay
  const [stalled] = await autoOrders(ta, owner.userId)
  assert.equal(stalled.status, OrderStatus.unpaid, 'the order written, nothing paid')
  assert.equal(await beans(ta, owner.userId), 100_000)

  // claimed: nobody else takes the phones until the claim runs out
  assert.equal((await run(ta)).claimed, 0)
  ta.clock.advance(CLAIM_MS)
  const batch = await run(ta)
  assert.deepEqual(batch, { claimed: 2, renewed: 2, failed: 0, orders: 1 })
  const all = new Map((await autoOrders(ta, owner.userId)).map((o) => [o.id, o]))
  assert.equal(all.size, 2)
  assert.equal(
    all.get(stalled.id)?.status,
    OrderStatus.cancelled,
    'the stalled order holds nothing',
  )
  const [paid] = [...all.values()].filter((o) => o.status === OrderStatus.completed)
  assert.equal(await beans(ta, owner.userId), 100_000 - paid.amount)
  for (const [i, id] of ids.entries()) assert.equal(await expiry(ta, id), before[i] + 30 * DAY)
})

test('two runs at once renew each phone once', async (t) => {
  const ta = await commerceApp(t)
  const owner = await newBuyer(ta)
  const ids: number[] = []
  for (let i = 0; i < 6; i++)
    ids.push(await phone(ta, owner.userId, { expiresInMs: DAY + i * 1000 }))
  await turnOn(ta, owner, ids)
  await giveBeans(ta, owner.userId, 1_000_000)
  const before = await Promise.all(ids.map((id) => expiry(ta, id)))
  const batches = await Promise.all([run(ta), run(ta), run(ta)])
  assert.equal(
    batches.reduce((n, b) => n + b.renewed, 0),
    ids.length,
  )
  for (const [i, id] of ids.entries()) assert.equal(await expiry(ta, id), before[i] + 30 * DAY)
  const paid = (await autoOrders(ta, owner.userId)).reduce((sum, o) => sum + o.amount, 0)
  assert.equal(await beans(ta, owner.userId), 1_000_000 - paid)
})

test(
  'two instances on one PostgreSQL renew a studio once: each phone claimed by one of them',
  { skip: process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (PostgreSQL)' },
  async (t) => {
    const ta = await commerceApp(t)
    const url = (ta.database as unknown as { pool: pg.Pool }).pool.options
      .connectionString as string
    const second = wrapPool(new pg.Pool({ connectionString: url, max: 5 }))
    t.after(() => second.close())
    const other = createServices({ ...ta.app.services.ctx, db: second.db })
    const owner = await newBuyer(ta)
    const ids: number[] = []
    for (let i = 0; i < 40; i++)
      ids.push(await phone(ta, owner.userId, { expiresInMs: DAY + i * 1000 }))
    await turnOn(ta, owner, ids)
    await giveBeans(ta, owner.userId, 10_000_000)
    const before = await Promise.all(ids.map((id) => expiry(ta, id)))
    const runs = [ta.app.services.autoRenewRun, other.autoRenewRun]
    const batches = await Promise.all(
      runs.flatMap((r) => [r.runBatch(undefined, 10), r.runBatch(undefined, 10)]),
    )
    const more = await Promise.all(
      runs.flatMap((r) => [r.runBatch(undefined, 10), r.runBatch(undefined, 10)]),
    )
    const renewed = [...batches, ...more].reduce((n, b) => n + b.renewed, 0)
    const byFirst = batches[0].renewed + batches[1].renewed
    const bySecond = batches[2].renewed + batches[3].renewed
    assert.ok(byFirst > 0 && bySecond > 0, `both instances renewed (${byFirst}, ${bySecond})`)
    assert.equal(renewed, ids.length)
    for (const [i, id] of ids.entries()) assert.equal(await expiry(ta, id), before[i] + 30 * DAY)
    const paid = (await autoOrders(ta, owner.userId)).reduce((sum, o) => sum + o.amount, 0)
    assert.equal(await beans(ta, owner.userId), 10_000_000 - paid)
  },
)

test('a short balance leaves the SPEC reminder in place: the expiry job still reminds 24 h before', async (t) => {
  const ta = await commerceApp(t)
  const owner = await newBuyer(ta)
  const id = await phone(ta, owner.userId, { expiresInMs: 12 * 3600_000 })
  await turnOn(ta, owner, [id])
  assert.equal((await run(ta)).failed, 1)
  await expireDevicesJob(ta.database.db, ta.app.services, Infinity).run({}, ta.clock.now())
  assert.equal((await renewalMessages(ta, owner.userId, '自动续费未成功')).length, 1)
  const reminded = await renewalMessages(ta, owner.userId, '云手机即将到期')
  assert.equal(reminded.length, 1, 'the reminder goes out as for any phone')
})
