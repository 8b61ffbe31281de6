/**
 * GET /user/flux, "what of mine is in flux": a paid order until it is delivered, the phones it makes
 * until they run, a phone busy with an operation, a backup or restore until it ends — the caller's
 * own, nobody else's — and the fleet and wallet versions moving with each change of the phone list
 * and of the balances. The pages
 * that follow the server poll it (src/stores/flux-store.ts).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import type { UserFlux } from '../../src/contract/flux'
import type { SpaceTask } from '../../src/contract/space'
import { sql } from 'drizzle-orm'
import {
  createCloudOrder,
  newBuyer,
  sandboxProvider,
  startPayment,
  GOODS,
  priceOf,
} from '../helpers/commerce'
import { settle, SUPPLIER_DELAY_MS } from '../helpers/fleet'
import { buildTestApp, get, post, type Session, type TestApp } from '../helpers/test-app'
import { BEANS, COMPANY_ACCOUNT, credit, debit } from '../../src/services/wallet/ledger'

async function flux(t: TestApp, session: Session): Promise<UserFlux> {
  const reply = await get<UserFlux>(t.app, '/user/flux', session)
  assert.equal(reply.code, 200, reply.msg)
  return reply.data
}

/** Pays through the sandbox and waits for its notification, without running the delivery job. */
async function paidNotDelivered(t: TestApp, session: Session, quantity: number) {
  const created = await createCloudOrder(t, session, {
    goodId: GOODS.enjoyB,
    priceId: priceOf(GOODS.enjoyB, 7),
    quantity,
  })
  assert.equal(created.code, 200, created.msg)
  const { tradeNo } = await startPayment(t, session, created.data.orderNo)
  const acted = await post(t.app, '/sandbox/pay/act', { tradeNo, action: 'pay' })
  assert.equal(acted.code, 200, acted.msg)
  await sandboxProvider(t).outbox.settled()
  return created.data.orderNo
}

test('a paid order is in flux until delivered, then its phones until they run, each change a new fleet version', async (t) => {
  const ta = await buildTestApp(t)
  const buyer = await newBuyer(ta)
  const other = await newBuyer(ta)

  const before = await flux(ta, buyer)
  assert.deepEqual(before, {
    fleetVersion: 0,
    walletVersion: 0,
    paidOrders: [],
    busyPhones: 0,
    runningTasks: [],
  })

  const orderNo = await paidNotDelivered(ta, buyer, 3)
  const paid = await flux(ta, buyer)
  assert.deepEqual(paid.paidOrders, [{ orderNo, kind: 'new', quantity: 3 }])
  assert.equal(paid.busyPhones, 0, 'no phone yet: the order is what says they are coming')
  assert.equal(paid.fleetVersion, 0)
  assert.deepEqual(await flux(ta, other), before, "another buyer's order is not theirs")

  await ta.app.jobs.runDue(10_000) // delivery: the phones are made, creating
  const delivered = await flux(ta, buyer)
  assert.deepEqual(delivered.paidOrders, [])
  assert.equal(delivered.busyPhones, 3)
  assert.ok(delivered.fleetVersion > paid.fleetVersion)

  ta.clock.advance(SUPPLIER_DELAY_MS)
  await ta.app.jobs.runDue(10_000) // provisioning: running
  const running = await flux(ta, buyer)
  assert.equal(running.busyPhones, 0)
  assert.ok(running.fleetVersion > delivered.fleetVersion)
  assert.deepEqual(await flux(ta, buyer), running, 'settled: the answer stays the same')
})

test('a reboot and an operation keep a phone in flux; a backup and a restore until they end', async (t) => {
  const ta = await buildTestApp(t, { sandboxSupplierRandom: () => 0.5 })
  const owner = await newBuyer(ta)
  const ids = await ta.app.services.ctx.db.transaction((tx) =>
    ta.app.services.lifecycle.createDevicesForOrder(tx, {
      userId: owner.userId,
      orderId: 0,
      goodId: GOODS.enjoyB,
      zoneId: 1,
      quantity: 2,
      days: 30,
    }),
  )
  await settle(ta)
  assert.equal((await flux(ta, owner)).busyPhones, 0)

  const rebooted = await post(
    ta.app,
    '/device/command',
    { deviceId: ids[0], command: 'Reboot' },
    owner,
  )
  assert.equal(rebooted.code, 200, rebooted.msg)
  assert.equal((await flux(ta, owner)).busyPhones, 1, 'rebooting')
  await ta.database.db.execute(sql`update devices set busy_op = 'changeZone' where id = ${ids[1]}`)
  assert.equal((await flux(ta, owner)).busyPhones, 2, 'busy with a zone change')
  await ta.database.db.execute(sql`update devices set busy_op = null where id = ${ids[1]}`)
  await settle(ta)
  assert.equal((await flux(ta, owner)).busyPhones, 0)

  const backup = await post<SpaceTask>(ta.app, '/space/backup', { deviceId: ids[0] }, owner)
  assert.equal(backup.code, 200, backup.msg)
  assert.deepEqual((await flux(ta, owner)).runningTasks, [backup.data.id])
  await settle(ta, 2 * SUPPLIER_DELAY_MS)
  assert.deepEqual((await flux(ta, owner)).runningTasks, [])

  const restore = await post<SpaceTask>(
    ta.app,
    '/space/restore',
    { backupId: backup.data.id, deviceId: ids[1] },
    owner,
  )
  assert.equal(restore.code, 200, restore.msg)
  assert.deepEqual((await flux(ta, owner)).runningTasks, [restore.data.id])
  await settle(ta, 3 * SUPPLIER_DELAY_MS)
  assert.deepEqual((await flux(ta, owner)).runningTasks, [])
})

test('the wallet version moves with every change of either balance, never back to an earlier one', async (t) => {
  const ta = await buildTestApp(t)
  const buyer = await newBuyer(ta)
  const other = await newBuyer(ta)
  const { db } = ta.database
  const now = ta.clock.now()
  const seen = [(await flux(ta, buyer)).walletVersion]
  const step = async (change: () => Promise<unknown>) => {
    await change()
    seen.push((await flux(ta, buyer)).walletVersion)
  }
  await step(() => credit(db, BEANS, buyer.userId, 100, { reason: 'recharge' }, now))
  // back to the balance of before, in the same millisecond: the version still moves on
  await step(() => debit(db, BEANS, buyer.userId, 100, { reason: 'order' }, now))
  await step(() => credit(db, COMPANY_ACCOUNT, buyer.userId, 500, { reason: 'recharge' }, now))
  await step(() => debit(db, COMPANY_ACCOUNT, buyer.userId, 500, { reason: 'order' }, now))
  assert.deepEqual(seen, [0, 1, 2, 3, 4])
  assert.equal((await flux(ta, other)).walletVersion, 0, "another user's balances are not theirs")
})
