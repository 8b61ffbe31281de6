/**
 * The console's 自动续费: every role reads a phone's setting and the list of failures (names and
 * numbers, never only ids); without a session it is refused; a failure of an earlier cycle (the phone
 * renewed by hand since) leaves the list.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { DeviceStatus } from '#domain/device-lifecycle'
import { OPERATOR_ROLES } from '#domain/console/operator-roles'
import type {
  AdminAutoRenewPage,
  AdminDeviceAutoRenew,
} from '../../src/console/contract/auto-renew'
import { devices } from '../../src/db/schema'
import { commerceApp, GOODS, newBuyer, ZONES } from '../helpers/commerce'
import { post } from '../helpers/test-app'
import { adminCall, createOperator, signIn } from './helpers'

const DAY = 86_400_000

test('operators read each phone’s 自动续费 and the failures of the current cycle', async (t) => {
  const ta = await commerceApp(t)
  const owner = await newBuyer(ta)
  const now = ta.clock.now().getTime()
  const [due, calm] = await ta.database.db
    .insert(devices)
    .values(
      [1, 20].map((days, i) => ({
        userId: owner.userId,
        name: `工作室-${i + 1}`,
        goodId: GOODS.enjoyB,
        level: 1,
        zoneId: ZONES.shanghai,
        androidVersion: 'B',
        imageType: 1,
        status: DeviceStatus.running,
        expireAt: new Date(now + days * DAY),
        createdAt: new Date(now - 30 * DAY),
      })),
    )
    .returning({ id: devices.id })
  const on = await post(
    ta.app,
    '/device/autoRenew',
    { deviceIds: [due.id, calm.id], enabled: true, days: 30, payMethod: 3 },
    owner,
  )
  assert.equal(on.code, 200, on.msg)
  // no beans: the due phone fails as short
  await ta.app.services.autoRenewRun.runBatch()

  for (const role of OPERATOR_ROLES) {
    const as = await signIn(ta, await createOperator(ta, `ar-${role}`, role))
    const list = await adminCall<AdminAutoRenewPage>(ta, 'GET', '/auto-renew/failures', { as })
    assert.equal(list.code, 200, `${role}: ${list.msg}`)
    assert.equal(list.data.total, 1)
    const [row] = list.data.records
    assert.equal(row.deviceId, due.id)
    assert.equal(row.deviceName, '工作室-1')
    assert.equal(row.failure, '云豆余额不足')
    assert.equal(row.mobile?.length, 11)
    assert.equal(row.payMethod, 3)
    assert.equal(row.stale, false)
    const one = await adminCall<AdminDeviceAutoRenew>(ta, 'GET', `/devices/${calm.id}/auto-renew`, {
      as,
    })
    assert.equal(one.code, 200)
    assert.equal(one.data?.days, 30)
    assert.equal(one.data?.failure, null)
  }

  const anonymous = await adminCall(ta, 'GET', '/auto-renew/failures')
  assert.notEqual(anonymous.code, 200)
  const as = await signIn(ta, await createOperator(ta, 'ar-later', 'admin'))
  const none = await adminCall<AdminDeviceAutoRenew>(ta, 'GET', '/devices/999999/auto-renew', {
    as,
  })
  assert.equal(none.code, 200)
  assert.equal(none.data, null, 'a phone without it reads as off')

  // renewed by hand: the failure was for the old expiry and leaves the list
  await ta.database.db
    .update(devices)
    .set({ expireAt: new Date(now + 31 * DAY) })
    .where(eq(devices.id, due.id))
  const after = await adminCall<AdminAutoRenewPage>(ta, 'GET', '/auto-renew/failures', { as })
  assert.equal(after.data.total, 0)
})
