import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildTestApp, get, loginWithSms, post } from '../helpers/test-app'
import { deviceRow, givePhones } from '../helpers/fleet'
import type {
  DeleteGroupResult,
  DeviceGroup,
  GroupList,
  MoveDevicesResult,
} from '../../src/contract/group'

test('groups: create with unique 1–20 character names, list with counts and 未分组', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13200000001')
  const other = await loginWithSms(ctx, '13200000002')
  const phones = await givePhones(ctx, me.userId, 3)

  const create = (name: string, session = me) =>
    post<DeviceGroup>(ctx.app, '/group/create', { name }, session)
  assert.equal((await create('  ')).msg, '请输入分组名称')
  assert.equal((await create('组'.repeat(21))).msg, '分组名称不能超过20个字')
  const a = await create(' 工作室A ')
  assert.equal(a.code, 200)
  assert.deepEqual(a.data, { groupId: a.data.groupId, name: '工作室A', sort: 1, deviceCount: 0 })
  const dup = await create('工作室A')
  assert.equal(dup.code, 1080)
  assert.equal(dup.msg, '分组名称已存在')
  assert.equal((await create('工作室A', other)).code, 200, 'names are unique per user only')
  const b = (await create('组'.repeat(20))).data
  assert.equal(b.sort, 2)

  await post<MoveDevicesResult>(
    ctx.app,
    '/group/moveDevices',
    { deviceIds: phones.slice(0, 2), groupId: a.data.groupId },
    me,
  )
  const list = (await get<GroupList>(ctx.app, '/group/list', me)).data
  assert.deepEqual(list, {
    groups: [
      { groupId: a.data.groupId, name: '工作室A', sort: 1, deviceCount: 2 },
      { groupId: b.groupId, name: '组'.repeat(20), sort: 2, deviceCount: 0 },
    ],
    ungroupedCount: 1,
    totalCount: 3,
  })
  const theirs = (await get<GroupList>(ctx.app, '/group/list', other)).data
  assert.equal(theirs.groups.length, 1)
  assert.equal(theirs.totalCount, 0)
})

test('groups: rename, sort, delete (phones become 未分组) and only my own', async (t) => {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, '13200000003')
  const other = await loginWithSms(ctx, '13200000004')
  const [phone] = await givePhones(ctx, me.userId, 1)
  const a = (await post<DeviceGroup>(ctx.app, '/group/create', { name: '甲' }, me)).data
  const b = (await post<DeviceGroup>(ctx.app, '/group/create', { name: '乙' }, me)).data
  const c = (await post<DeviceGroup>(ctx.app, '/group/create', { name: '丙' }, me)).data

  assert.equal(
    (await post<DeviceGroup>(ctx.app, '/group/rename', { groupId: a.groupId, name: '乙' }, me)).msg,
    '分组名称已存在',
  )
  assert.equal(
    (await post<DeviceGroup>(ctx.app, '/group/rename', { groupId: a.groupId, name: '' }, me)).msg,
    '请输入分组名称',
  )
  const renamed = await post<DeviceGroup>(
    ctx.app,
    '/group/rename',
    { groupId: a.groupId, name: '甲一' },
    me,
  )
  assert.equal(renamed.data.name, '甲一')
  assert.equal(
    (await post<DeviceGroup>(ctx.app, '/group/rename', { groupId: a.groupId, name: '抢' }, other))
      .msg,
    '分组不存在',
  )

  const sorted = await post<GroupList>(
    ctx.app,
    '/group/sort',
    { groupIds: [c.groupId, a.groupId, b.groupId] },
    me,
  )
  assert.deepEqual(
    sorted.data.groups.map((g) => g.name),
    ['丙', '甲一', '乙'],
  )
  const partial = await post<GroupList>(
    ctx.app,
    '/group/sort',
    { groupIds: [c.groupId, a.groupId] },
    me,
  )
  assert.equal(partial.msg, '分组列表已变化，请刷新后重试')
  const repeated = await post<GroupList>(
    ctx.app,
    '/group/sort',
    { groupIds: [c.groupId, c.groupId, a.groupId] },
    me,
  )
  assert.equal(repeated.msg, '分组列表已变化，请刷新后重试')

  await post<MoveDevicesResult>(
    ctx.app,
    '/group/moveDevices',
    { deviceIds: [phone], groupId: b.groupId },
    me,
  )
  assert.equal(
    (await post<DeleteGroupResult>(ctx.app, '/group/delete', { groupId: b.groupId }, other)).msg,
    '分组不存在',
  )
  const deleted = await post<DeleteGroupResult>(
    ctx.app,
    '/group/delete',
    { groupId: b.groupId },
    me,
  )
  assert.deepEqual(deleted.data, { movedDevices: 1 })
  assert.equal((await deviceRow(ctx, phone)).groupId, null)
  const list = (await get<GroupList>(ctx.app, '/group/list', me)).data
  assert.equal(list.groups.length, 2)
  assert.equal(list.ungroupedCount, 1)
})

/** Two users signed in, `mine` phones for the first and one for the other. */
async function meAndOther(
  t: Parameters<typeof buildTestApp>[0],
  [myMobile, theirMobile]: [string, string],
  mine: number,
) {
  const ctx = await buildTestApp(t)
  const me = await loginWithSms(ctx, myMobile)
  const other = await loginWithSms(ctx, theirMobile)
  const phones = await givePhones(ctx, me.userId, mine)
  const [theirPhone] = await givePhones(ctx, other.userId, 1)
  return { ctx, me, other, phones, theirPhone }
}

test('moveDevices: my phones into my group or 未分组 (0), with clear refusals', async (t) => {
  const { ctx, me, other, phones, theirPhone } = await meAndOther(
    t,
    ['13200000005', '13200000006'],
    2,
  )
  const mine = (await post<DeviceGroup>(ctx.app, '/group/create', { name: '我的' }, me)).data
  const theirs = (await post<DeviceGroup>(ctx.app, '/group/create', { name: '他的' }, other)).data
  const move = (deviceIds: number[], groupId: number) =>
    post<MoveDevicesResult>(ctx.app, '/group/moveDevices', { deviceIds, groupId }, me)

  assert.deepEqual((await move(phones, mine.groupId)).data, { moved: 2 })
  assert.equal((await deviceRow(ctx, phones[1])).groupId, mine.groupId)
  assert.equal((await move(phones, theirs.groupId)).msg, '分组不存在')
  const mixed = await move([phones[0], theirPhone], 0)
  assert.equal(mixed.code, 1031)
  assert.equal((await deviceRow(ctx, phones[0])).groupId, mine.groupId, 'all or nothing')
  assert.equal((await deviceRow(ctx, theirPhone)).groupId, null)
  assert.equal((await move([], 0)).msg, '请选择云手机')
  assert.deepEqual((await move([phones[0]], 0)).data, { moved: 1 })
  assert.equal((await deviceRow(ctx, phones[0])).groupId, null)
  const negative = await post<MoveDevicesResult>(
    ctx.app,
    '/group/moveDevices',
    { deviceIds: phones, groupId: -1 },
    me,
  )
  assert.equal(negative.status, 400)
})

test('create with deviceIds: the new group takes my phones in one step, or nothing is made', async (t) => {
  const { ctx, me, phones, theirPhone } = await meAndOther(t, ['13200000007', '13200000008'], 3)
  const create = (name: string, deviceIds: number[]) =>
    post<DeviceGroup>(ctx.app, '/group/create', { name, deviceIds }, me)

  const made = await create('新组', phones.slice(0, 2))
  assert.equal(made.code, 200)
  assert.equal(made.data.deviceCount, 2, 'the answer counts the phones it took')
  assert.equal((await deviceRow(ctx, phones[1])).groupId, made.data.groupId)
  assert.equal((await deviceRow(ctx, phones[2])).groupId, null)

  // someone else's phone, an empty choice, a taken name: refused, and no group is left behind
  assert.equal((await create('混合', [phones[2], theirPhone])).code, 1031)
  assert.equal((await create('空的', [])).msg, '请选择云手机')
  assert.equal((await create('新组', [phones[2]])).msg, '分组名称已存在')
  const list = (await get<GroupList>(ctx.app, '/group/list', me)).data
  assert.deepEqual(
    list.groups.map((g) => [g.name, g.deviceCount]),
    [['新组', 2]],
  )
  assert.equal((await deviceRow(ctx, phones[2])).groupId, null)
  assert.equal((await deviceRow(ctx, theirPhone)).groupId, null)
})
