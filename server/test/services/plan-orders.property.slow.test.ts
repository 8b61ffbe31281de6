import assert from 'node:assert/strict'
import { test, type TestContext } from 'node:test'
import fc from 'fast-check'
import { and, eq, sql } from 'drizzle-orm'
import { OrderStatus, PayMethod } from '#domain/order-status'
import { dailyPrice, unitPrice, upgradeQuote, videoUpgradeQuote } from '#domain/pricing'
import { devices, goodsInventory, orders, users } from '../../src/db/schema'
import { GOODS, ZONES, newKey, priceOf } from '../helpers/commerce'
import { givePhones, settle } from '../helpers/fleet'
import {
  buildTestApp,
  loginWithSms,
  post,
  sendCode,
  type Session,
  type TestApp,
} from '../helpers/test-app'
import { INSTANT_SUPPLIER } from '../helpers/test-config'
import type { Quote } from '../../src/contract/goods'
import type { Device } from '../../src/contract/device'
import type { OrderInfo } from '../../src/contract/order'
import type { CreatePaymentResult } from '../../src/contract/payment'
import type { TransferResult } from '../../src/contract/transfer'

/**
 * Random sequences of everything that changes a phone's plan, time, zone or owner, interleaved with
 * payments, cancellations, timeouts and delivery, over a few phones of two users. After every step:
 * - stock is conserved: for every goods × zone, the stock on sale, the units unpaid orders hold, the
 *   units paid orders are delivering and the phones holding one add up to what there was at the start;
 * - money paid = value delivered: the beans each user spent equal the amounts of their orders that are
 *   paid or delivered (a refunded order gives its beans back);
 * - no phone is on goods nobody paid for: each phone's goods is the one its last delivered up/downgrade
 *   chose (or its own), and the video edition only where a video order was delivered;
 * - what a renewal, upgrade or video order delivers is worth no more than it was paid: its value is
 *   worked out from the phone as it was just before delivery (its goods, expiry and video edition).
 * 自动续费 is among the steps (switched on or off, and runs of its job, which order, pay from beans and
 * deliver at once), so its orders are held to the same sums as the ones a user places.
 */

const SHOP = [GOODS.enjoyB, GOODS.enjoyBigB, GOODS.flagshipB]
const SHOP_ZONES = [ZONES.shanghai, ZONES.guangzhou]
const BEANS = 10_000_000
/** Past the 30 days the phones are given: every phone with 自动续费 is due until renewed twice. */
const AUTO_DAYS_BEFORE = 40

const step = fc.oneof(
  fc.record({
    kind: fc.constant('buy' as const),
    who: fc.nat(1),
    goods: fc.constantFrom(...SHOP),
    zone: fc.constantFrom(...SHOP_ZONES),
  }),
  fc.record({ kind: fc.constant('renew' as const), phone: fc.nat(2) }),
  fc.record({
    kind: fc.constant('change' as const),
    phone: fc.nat(2),
    to: fc.constantFrom(GOODS.enjoyB, GOODS.enjoyBigB, GOODS.exclusiveB, GOODS.flagshipB),
  }),
  fc.record({ kind: fc.constant('video' as const), phone: fc.nat(2) }),
  fc.record({
    kind: fc.constant('zone' as const),
    phone: fc.nat(2),
    zone: fc.constantFrom(...SHOP_ZONES),
  }),
  fc.record({ kind: fc.constant('replace' as const), phone: fc.nat(2) }),
  fc.record({ kind: fc.constant('transfer' as const), phone: fc.nat(2) }),
  fc.record({ kind: fc.constant('pay' as const), order: fc.nat(9) }),
  fc.record({ kind: fc.constant('pay' as const), order: fc.nat(9) }),
  fc.record({ kind: fc.constant('cancel' as const), order: fc.nat(9) }),
  fc.constant({ kind: 'timeout' as const }),
  fc.constant({ kind: 'deliver' as const }),
  // 自动续费 (7 days, beans) on or off, and a run of its job: every phone is due (AUTO_DAYS_BEFORE)
  fc.record({ kind: fc.constant('auto' as const), phone: fc.nat(2), on: fc.boolean() }),
  fc.record({ kind: fc.constant('auto' as const), phone: fc.nat(2), on: fc.constant(true) }),
  fc.constant({ kind: 'autoRun' as const }),
  fc.constant({ kind: 'autoRun' as const }),
)
type Step = typeof step extends fc.Arbitrary<infer S> ? S : never

type PhoneState = { goodId: number; expireAt: number; videoEdition: boolean }

/**
 * The price, at delivery time `now`, of what a plan order delivered onto a phone that was in `before`
 * just before: the shared pricing rules, the catalogue's rates.
 */
async function deliveredValue(
  ta: TestApp,
  order: typeof orders.$inferSelect,
  before: Map<number, PhoneState>,
  now: number,
): Promise<number> {
  const goods = ta.app.services.goods
  const videoFee = async (goodId: number) =>
    (await goods.getGoods(goodId, ta.database.db))?.videoDailyFee ?? 0
  if (order.kind === 'renew') {
    let value = 0
    const { renewals } = order.detail as { renewals: { deviceId: number; addMs: number }[] }
    for (const line of renewals) {
      const phone = before.get(line.deviceId)!
      const price = (await goods.priceFor(phone.goodId, order.goodTime!, ta.database.db))!
      value += unitPrice(price, { firstPurchaseEligible: false, now })
      if (phone.videoEdition) value += videoUpgradeQuote(await videoFee(phone.goodId), line.addMs)
    }
    return value
  }
  const phone = before.get(order.deviceIds[0])!
  const remaining = phone.expireAt - now
  if (order.kind === 'video') return videoUpgradeQuote(await videoFee(phone.goodId), remaining)
  const daily = async (goodId: number) =>
    dailyPrice(await goods.referencePrice(goodId, ta.database.db)) +
    (phone.videoEdition ? await videoFee(goodId) : 0)
  return upgradeQuote(await daily(phone.goodId), await daily(order.goodId!), remaining).amount
}

async function checkDeliveries(
  ta: TestApp,
  before: Map<number, PhoneState>,
  delivered: Set<number>,
  label: string,
) {
  const done = await ta.database.db
    .select()
    .from(orders)
    .where(
      and(
        eq(orders.status, OrderStatus.completed),
        sql`${orders.kind} in ('renew', 'upgrade', 'video')`,
      ),
    )
  for (const order of done) {
    if (delivered.has(order.id)) continue
    delivered.add(order.id)
    const value = await deliveredValue(ta, order, before, ta.clock.now().getTime())
    assert.ok(
      order.amount >= value,
      `${label}: ${order.kind} order ${order.orderNo} paid ${order.amount} for ${value} delivered`,
    )
  }
}

async function phoneStates(ta: TestApp): Promise<Map<number, PhoneState>> {
  return new Map(
    (await phones(ta)).map((p) => [
      p.id,
      { goodId: p.goodId, expireAt: p.expireAt.getTime(), videoEdition: p.videoEdition },
    ]),
  )
}

interface World {
  ta: TestApp
  /** Plan orders already checked against the phone they were delivered onto. */
  delivered: Set<number>
  people: { session: Session; mobile: string }[]
  orders: { orderNo: string; by: number }[]
  start: Map<string, number>
}

async function units(ta: TestApp): Promise<Map<string, number>> {
  const held = new Map<string, number>()
  const add = (goodId: number | null, zoneId: number | null, n: number) => {
    if (!goodId || !zoneId || n === 0) return
    const key = `${goodId}@${zoneId}`
    held.set(key, (held.get(key) ?? 0) + n)
  }
  const db = ta.database.db
  for (const row of await db.select().from(goodsInventory)) add(row.goodId, row.zoneId, row.stock)
  for (const row of await db.select().from(orders)) {
    if (row.status === OrderStatus.unpaid) {
      add(row.reservedGoodId, row.reservedZoneId, row.reservedQuantity)
    } else if (row.status === OrderStatus.paid && row.reservedGoodId) {
      add(row.reservedGoodId, row.reservedZoneId, row.kind === 'new' ? row.quantity : 1)
    }
  }
  for (const row of await db
    .select()
    .from(devices)
    .where(sql`${devices.status} <> 3`)) {
    add(row.goodId, row.zoneId, 1)
  }
  return held
}

async function phones(ta: TestApp) {
  return ta.database.db
    .select()
    .from(devices)
    .where(sql`${devices.status} <> 3`)
    .orderBy(devices.id)
}

async function checkInvariants(world: World, label: string) {
  const { ta } = world
  const now = await units(ta)
  for (const [key, was] of world.start) {
    assert.equal(now.get(key) ?? 0, was, `${label}: units of ${key} conserved`)
  }
  const db = ta.database.db
  for (const { session } of world.people) {
    const balance = await ta.app.services.beans.balance(session.userId, ta.app.services.ctx.db)
    const [{ paid }] = await db
      .select({ paid: sql<number>`coalesce(sum(${orders.amount}), 0)::integer` })
      .from(orders)
      .where(
        and(
          sql`coalesce(${orders.buyerId}, ${orders.userId}) = ${session.userId}`,
          eq(orders.payMethod, PayMethod.beans),
          sql`${orders.status} in (${OrderStatus.paid}, ${OrderStatus.completed})`,
        ),
      )
    assert.equal(BEANS - balance, paid, `${label}: beans spent = orders paid or delivered`)
  }
  for (const phone of await phones(ta)) {
    const [change] = await db
      .select({ goodId: orders.goodId })
      .from(orders)
      .where(
        and(
          eq(orders.kind, 'upgrade'),
          eq(orders.status, OrderStatus.completed),
          sql`${orders.deviceIds} @> ${JSON.stringify([phone.id])}::jsonb`,
        ),
      )
      .orderBy(sql`${orders.completedAt} desc, ${orders.id} desc`)
      .limit(1)
    if (change) assert.equal(phone.goodId, change.goodId, `${label}: phone ${phone.id} goods paid`)
    if (phone.videoEdition) {
      const [video] = await db
        .select({ id: orders.id })
        .from(orders)
        .where(
          and(
            eq(orders.kind, 'video'),
            eq(orders.status, OrderStatus.completed),
            sql`${orders.deviceIds} @> ${JSON.stringify([phone.id])}::jsonb`,
          ),
        )
      assert.ok(video, `${label}: phone ${phone.id} video edition paid`)
    }
  }
}

async function quoted(ta: TestApp, who: Session, body: Record<string, unknown>) {
  const reply = await post<Quote>(ta.app, '/CommodityGroup/getGoodPrice', body, who)
  return reply.code === 200 ? (reply.data.total as number) : null
}

async function run(world: World, s: Step) {
  const { ta, people } = world
  const all = await phones(ta)
  const phone = 'phone' in s ? all[s.phone % Math.max(all.length, 1)] : undefined
  const owner = phone && people.find((p) => p.session.userId === phone.userId)?.session
  const keep = (reply: { code: number; data?: { orderNo?: string } }, by: number) => {
    if (reply.code === 200 && reply.data?.orderNo)
      world.orders.push({ orderNo: reply.data.orderNo, by })
  }
  switch (s.kind) {
    case 'buy': {
      const who = people[s.who].session
      const body = { goodId: s.goods, priceId: priceOf(s.goods, 7), quantity: 1 }
      const total = await quoted(ta, who, { kind: 'new', ...body })
      if (total === null) return
      const reply = await post<OrderInfo>(
        ta.app,
        '/order/createCloudOrder',
        { ...body, zoneId: s.zone, expectedAmount: total, idempotencyKey: newKey() },
        who,
      )
      return keep(reply, who.userId)
    }
    case 'renew': {
      if (!phone || !owner) return
      const body = { deviceIds: [phone.id], priceId: priceOf(phone.goodId, 7) }
      const total = await quoted(ta, owner, { kind: 'renew', ...body })
      if (total === null) return
      const reply = await post<OrderInfo>(
        ta.app,
        '/order/createRenewOrder',
        { ...body, expectedAmount: total, idempotencyKey: newKey() },
        owner,
      )
      return keep(reply, owner.userId)
    }
    case 'change':
    case 'video': {
      if (!phone || !owner) return
      const quoteBody =
        s.kind === 'change'
          ? { kind: 'upgrade', deviceIds: [phone.id], toGoodId: s.to }
          : { kind: 'video', deviceIds: [phone.id] }
      const total = await quoted(ta, owner, quoteBody)
      if (total === null) return
      const reply = await post<OrderInfo>(
        ta.app,
        s.kind === 'change' ? '/order/createUpOrDownOrder' : '/order/createVideoOrder',
        {
          deviceId: phone.id,
          ...(s.kind === 'change' ? { toGoodId: s.to } : {}),
          expectedAmount: total,
          idempotencyKey: newKey(),
        },
        owner,
      )
      return keep(reply, owner.userId)
    }
    case 'zone':
      if (!phone || !owner) return
      await post<Device>(
        ta.app,
        '/device/changeZone',
        { deviceId: phone.id, zoneId: s.zone },
        owner,
      )
      return
    case 'replace':
      if (!phone || !owner) return
      await post<Device>(ta.app, '/device/replace', { deviceId: phone.id }, owner)
      return
    case 'transfer': {
      if (!phone || !owner) return
      const from = people.find((p) => p.session === owner)!
      const to = people.find((p) => p.session !== owner)!
      ta.clock.advance(61_000) // one code a minute per number
      const smsCode = await sendCode(ta.app, from.mobile, 'transfer', owner)
      await post<TransferResult>(
        ta.app,
        '/device/transfer',
        { deviceIds: [phone.id], mobilePhone: to.mobile, smsCode },
        owner,
      )
      return
    }
    case 'pay':
    case 'cancel': {
      const order = world.orders[s.order % Math.max(world.orders.length, 1)]
      if (!order) return
      const who = people.find((p) => p.session.userId === order.by)!.session
      if (s.kind === 'cancel') {
        await post<OrderInfo>(ta.app, '/order/cancel', { orderNo: order.orderNo }, who)
      } else {
        await post<CreatePaymentResult>(
          ta.app,
          '/pay/createPayment',
          { orderNo: order.orderNo, payMethod: 3 },
          who,
        )
      }
      return
    }
    case 'auto':
      if (!phone || !owner) return
      await post(
        ta.app,
        '/device/autoRenew',
        s.on
          ? { deviceIds: [phone.id], enabled: true, days: 7, payMethod: PayMethod.beans }
          : { deviceIds: [phone.id], enabled: false },
        owner,
      )
      return
    case 'autoRun':
      // orders, pays and delivers in the run (checked against the phones as they were before it)
      await ta.app.services.autoRenewRun.runBatch()
      return
    case 'timeout':
      ta.clock.advance(16 * 60_000)
      await drainJobs(world, 'timeout')
      return
    case 'deliver':
      await drainJobs(world, 'deliver')
      ta.clock.advance(3_000) // the sandbox supplier's work
      await drainJobs(world, 'deliver')
  }
}

/**
 * Runs due jobs one at a time, checking each plan order delivered against the phone as it was just
 * before that job ran.
 */
async function drainJobs(world: World, label: string) {
  for (let ran = 0; ran < 500; ran++) {
    const before = await phoneStates(world.ta)
    if ((await world.ta.app.jobs.runDue(1)) === 0) return
    await checkDeliveries(world.ta, before, world.delivered, `${label}, job ${ran + 1}`)
  }
  assert.fail('jobs never drained')
}

test('random interleavings of plan, time, zone and owner changes keep money, value and stock whole', async (t) => {
  let runs = 0
  const seen = new Map<string, number>()
  await fc.assert(
    fc.asyncProperty(fc.array(step, { minLength: 6, maxLength: 16 }), async (steps) => {
      runs++
      const cleanups: (() => Promise<void>)[] = []
      const scope = { after: (fn: () => Promise<void>) => cleanups.push(fn) }
      try {
        const ta = await buildTestApp(scope as unknown as TestContext, {
          config: { ...INSTANT_SUPPLIER, autoRenewDaysBefore: AUTO_DAYS_BEFORE },
        })
        await ta.app.jobs.ensureRecurring()
        const people = []
        for (const mobile of ['13800000001', '13800000002']) {
          const session = await loginWithSms(ta, mobile)
          await ta.database.db
            .update(users)
            .set({ passwordHash: 'set' })
            .where(eq(users.id, session.userId))
          await ta.database.db.transaction((tx) =>
            ta.app.services.beans.credit(tx, session.userId, BEANS, { reason: 'grant' }),
          )
          people.push({ session, mobile })
        }
        await givePhones(ta, people[0].session.userId, 1, { goodId: GOODS.enjoyB })
        await givePhones(ta, people[0].session.userId, 1, { goodId: GOODS.flagshipB })
        await givePhones(ta, people[1].session.userId, 1, { goodId: GOODS.enjoyBigB, zoneId: 2 })
        await settle(ta)
        const world: World = {
          ta,
          people,
          orders: [],
          start: await units(ta),
          delivered: new Set(),
        }
        for (const [i, s] of steps.entries()) {
          const before = await phoneStates(ta)
          await run(world, s)
          const label = `step ${i + 1} ${JSON.stringify(s)}`
          await checkInvariants(world, label)
          await checkDeliveries(ta, before, world.delivered, label)
        }
        // Everything paid is delivered or refunded once the jobs have run.
        await drainJobs(world, 'the end')
        ta.clock.advance(3_000)
        await drainJobs(world, 'the end')
        const [{ stuck }] = await ta.database.db
          .select({ stuck: sql<number>`count(*)::integer` })
          .from(orders)
          .where(eq(orders.status, OrderStatus.paid))
        assert.equal(stuck, 0, 'no order stays paid without delivery or refund')
        await checkInvariants(world, 'after delivery')
        for (const row of await ta.database.db
          .select({ kind: orders.kind, status: orders.status, detail: orders.detail })
          .from(orders)) {
          const auto = (row.detail as { autoRenew?: boolean }).autoRenew ? '(auto)' : ''
          const key = `${row.kind}${auto}:${row.status}`
          seen.set(key, (seen.get(key) ?? 0) + 1)
        }
      } finally {
        for (const cleanup of cleanups) await cleanup()
      }
    }),
    {
      numRuns: Number(process.env.PLAN_PROPERTY_RUNS ?? 12),
      endOnFailure: true,
      includeErrorInReport: true,
    },
  )
  // what the runs did (kind:status), so a change that makes every step a refusal is seen
  t.diagnostic(`${runs} random sequences; orders ${JSON.stringify(Object.fromEntries(seen))}`)
})
