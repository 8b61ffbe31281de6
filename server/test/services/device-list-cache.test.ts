/**
 * The device list keeps the pages it served while nothing they show has changed (DeviceListCache):
 * every way a list can change must show on the next call, whoever made the change.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import pg from 'pg'
import { wrapPool } from '../../src/db/client'
import { devices, users, zones } from '../../src/db/schema'
import type { DeviceListQueries } from '../../src/services/devices/device-list-query'
import { REFERENCE_TTL_MS } from '../../src/services/catalogue/reference-data'
import { DAY_MS, runningPhones } from '../helpers/fleet'
import {
  buildTestApp,
  get,
  loginWithSms,
  post,
  type Session,
  type TestApp,
} from '../helpers/test-app'
import type { PagedData } from '../../src/contract/common'
import type { Device } from '../../src/contract/device'
import type { CreateGrantResult } from '../../src/contract/grant'
import type { DeviceGroup, MoveDevicesResult } from '../../src/contract/group'

interface Listed {
  deviceId: number
  name: string
  status: number
  zoneName: string
  groupName: string | null
  grant: { ownerMobile: string } | null
}

async function listed(ta: TestApp, who: Session, query: Record<string, string> = {}) {
  const reply = await get<PagedData<Device>>(ta.app, '/device/list', who, { rows: '50', ...query })
  assert.equal(reply.code, 200, reply.msg)
  return reply.data.records as Listed[]
}

/** Authorises one phone for viewing to `mobilePhone` for `days` days. */
async function grant(
  ta: TestApp,
  owner: Session,
  deviceId: number,
  mobilePhone: string,
  days: number,
) {
  const body = { deviceIds: [deviceId], mobilePhone, permission: 1, days }
  const granted = await post<CreateGrantResult>(ta.app, '/device/empower', body, owner)
  assert.equal(granted.code, 200, granted.msg)
}

/** Counts the list's reads of the database (each call that was not served a kept page). */
function countReads(ta: TestApp) {
  const queries = (ta.app.services.devices as unknown as { listQueries: DeviceListQueries })
    .listQueries
  const read = queries.page.bind(queries)
  const counter = { reads: 0 }
  queries.page = (...args) => {
    counter.reads++
    return read(...args)
  }
  return counter
}

test('an unchanged list is served again without reading the phones; a rename shows at once', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13700000001')
  const [phone] = await runningPhones(ta, me.userId, 2)
  const counter = countReads(ta)

  const first = await listed(ta, me)
  assert.deepEqual(await listed(ta, me), first)
  assert.equal(counter.reads, 1, 'the second call is the kept page')
  await listed(ta, me, { rows: '1' })
  assert.equal(counter.reads, 2, 'another query is another page')

  const renamed = await post<Device>(
    ta.app,
    '/device/rename',
    { deviceId: phone, name: '主号' },
    me,
  )
  assert.equal(renamed.code, 200, renamed.msg)
  assert.equal((await listed(ta, me)).find((d) => d.deviceId === phone)?.name, '主号')
  assert.equal(counter.reads, 3)
})

test('a change written in SQL by hand or by a job shows on the next list', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13700000002')
  const other = await loginWithSms(ta, '13700000003')
  const [phone] = await runningPhones(ta, me.userId, 1)
  assert.equal((await listed(ta, me))[0].status, 1)

  await ta.database.db.update(devices).set({ status: 2 }).where(eq(devices.id, phone))
  assert.equal((await listed(ta, me))[0].status, 2)

  await ta.database.db.update(devices).set({ userId: other.userId }).where(eq(devices.id, phone))
  assert.deepEqual(await listed(ta, me), [], 'gone from the old owner')
  assert.deepEqual(
    (await listed(ta, other)).map((d) => d.deviceId),
    [phone],
    'listed to the new one',
  )

  await ta.database.db.delete(devices).where(eq(devices.id, phone))
  assert.deepEqual(await listed(ta, other), [])
})

test('a phone leaves a grantee’s list when the grant runs out, with nothing written', async (t) => {
  const ta = await buildTestApp(t)
  const owner = await loginWithSms(ta, '13700000004')
  const grantee = await loginWithSms(ta, '13700000005')
  const [phone] = await runningPhones(ta, owner.userId, 1)
  await grant(ta, owner, phone, '13700000005', 1)
  assert.deepEqual(
    (await listed(ta, grantee)).map((d) => d.deviceId),
    [phone],
  )

  ta.clock.advance(DAY_MS - 1)
  assert.equal((await listed(ta, grantee)).length, 1, 'still within the grant')
  ta.clock.advance(1)
  assert.deepEqual(await listed(ta, grantee), [], 'gone the moment it runs out')
})

test('a group’s new name and an owner’s new number show in the lists that show them', async (t) => {
  const ta = await buildTestApp(t)
  const owner = await loginWithSms(ta, '13700000006')
  const grantee = await loginWithSms(ta, '13700000007')
  const [grouped, shared] = await runningPhones(ta, owner.userId, 2)
  const group = await post<DeviceGroup>(ta.app, '/group/create', { name: '工作室' }, owner)
  assert.equal(group.code, 200, group.msg)
  const moved = await post<MoveDevicesResult>(
    ta.app,
    '/group/moveDevices',
    { groupId: group.data.groupId, deviceIds: [grouped] },
    owner,
  )
  assert.equal(moved.code, 200, moved.msg)
  await grant(ta, owner, shared, '13700000007', 7)
  const groupOf = async () =>
    (await listed(ta, owner)).find((d) => d.deviceId === grouped)?.groupName
  assert.equal(await groupOf(), '工作室')
  assert.equal((await listed(ta, grantee))[0].grant?.ownerMobile, '137****0006')

  await post<DeviceGroup>(
    ta.app,
    '/group/rename',
    { groupId: group.data.groupId, name: '二组' },
    owner,
  )
  assert.equal(await groupOf(), '二组')
  await ta.database.db
    .update(users)
    .set({ mobilePhone: '13811110006' })
    .where(eq(users.id, owner.userId))
  assert.equal((await listed(ta, grantee))[0].grant?.ownerMobile, '138****0006')
})

test('an operator’s zone name edit shows in the list with the next catalogue read', async (t) => {
  const ta = await buildTestApp(t)
  const me = await loginWithSms(ta, '13700000008')
  await runningPhones(ta, me.userId, 1)
  const [{ zoneName }] = await listed(ta, me)
  const [zone] = await ta.database.db.select().from(zones).where(eq(zones.name, zoneName))
  await ta.database.db.update(zones).set({ name: '华东-杭州' }).where(eq(zones.id, zone.id))
  assert.equal((await listed(ta, me))[0].zoneName, zoneName, 'the catalogue is read every 30 s')
  ta.clock.advance(REFERENCE_TTL_MS)
  assert.equal((await listed(ta, me))[0].zoneName, '华东-杭州')
})

test(
  'two instances on one PostgreSQL: a change made through one shows in the other’s kept list',
  { skip: process.env.TEST_DATABASE_URL ? false : 'needs TEST_DATABASE_URL (PostgreSQL)' },
  async (t) => {
    const a = await buildTestApp(t)
    const url = (a.database as { pool: pg.Pool }).pool.options.connectionString as string
    const b = await buildTestApp(t, {
      database: wrapPool(new pg.Pool({ connectionString: url, max: 5 })),
    })
    const me = await loginWithSms(a, '13700000009')
    const [phone] = await runningPhones(a, me.userId, 1)
    assert.equal((await listed(b, me))[0].name, `云手机-${phone}`)

    const renamed = await post<Device>(a.app, '/device/rename', { deviceId: phone, name: '甲' }, me)
    assert.equal(renamed.code, 200, renamed.msg)
    assert.equal((await listed(b, me))[0].name, '甲')
  },
)
