import assert from 'node:assert/strict'
import { test } from 'node:test'
import { asc, eq, getTableName, sql } from 'drizzle-orm'
import type { UnreadCount } from '../../src/contract/message'
import type { Db } from '../../src/db/client'
import { jobs, messages, paymentNotifications, usageLogs } from '../../src/db/schema'
import {
  DONE_JOB_KEEP_MS,
  MESSAGE_KEEP_MS,
  USAGE_LOG_KEEP_MS,
  purgeExpiredJob,
  retentionTargets,
} from '../../src/jobs/purge-expired'
import { purgeInBatches, type PurgeBudget } from '../../src/db/purge-batches'
import { buildTestApp, get, loginWithSms, type TestApp } from '../helpers/test-app'

const DAY_MS = 86_400_000

const usageLog = (logId: string, firstAt: Date) => ({
  logId,
  client: 'h5',
  version: 1,
  terminalType: 'test',
  accessingPages: '/pages/home/index',
  exitMark: 0,
  firstAt,
  lastAt: firstAt,
})

const rows = async (db: Db, query: string): Promise<Record<string, unknown>[]> =>
  ((await db.execute(sql.raw(query))) as unknown as { rows: Record<string, unknown>[] }).rows

/**
 * Every DELETE statement on `table` writes how many rows it deleted to purge_probe (a statement
 * trigger with a transition table), so a test sees each statement's size from the database's side.
 * A row in purge_fail makes the statement after that many aborts (the process dying mid-purge).
 */
async function probeDeletes(db: Db, table: string) {
  await db.execute(sql.raw('create table purge_probe (seq serial primary key, n integer not null)'))
  await db.execute(sql.raw('create table purge_fail (after integer not null)'))
  await db.execute(
    sql.raw(`create function purge_probe_count() returns trigger language plpgsql as $$
      begin
        if exists (select 1 from purge_fail where after <= (select count(*) from purge_probe)) then
          raise exception 'the purging process died';
        end if;
        insert into purge_probe (n) select count(*) from gone;
        return null;
      end $$`),
  )
  await db.execute(
    sql.raw(`create trigger purge_probe after delete on ${table}
      referencing old table as gone for each statement execute function purge_probe_count()`),
  )
  return {
    /** Rows deleted by each statement that deleted any, in order. */
    statements: async () =>
      (await rows(db, 'select n from purge_probe order by seq'))
        .map((row) => Number(row.n))
        .filter((n) => n > 0),
    failAfter: (statements: number) =>
      db.execute(sql.raw(`insert into purge_fail (after) values (${statements})`)),
    heal: () => db.execute(sql.raw('delete from purge_fail')),
  }
}

/** A budget spent after `statements` checks: a run cut short exactly there. */
const budgetOf = (statements: number): (() => PurgeBudget) => {
  return () => {
    let left = statements
    return { spent: () => left-- <= 0 }
  }
}

async function userId(ta: TestApp, mobilePhone: string) {
  const login = await loginWithSms(ta, mobilePhone)
  return { session: login, id: login.userId }
}

test('exactly what is past its retention goes: usage logs, messages (read or not), finished jobs', async (t) => {
  const ta = await buildTestApp(t)
  const { app, clock, database } = ta
  const { db } = database
  const user = await userId(ta, '13000000041')
  const now = clock.now()
  const ago = (ms: number) => new Date(now.getTime() - ms)

  await db
    .insert(usageLogs)
    .values([
      usageLog('log-due', ago(USAGE_LOG_KEEP_MS + 1)),
      usageLog('log-edge', ago(USAGE_LOG_KEEP_MS)),
      usageLog('log-recent', ago(DAY_MS)),
    ])
  // a session that began before the edge and still reported recently goes by when it began
  await db
    .insert(usageLogs)
    .values({ ...usageLog('log-long', ago(USAGE_LOG_KEEP_MS + DAY_MS)), lastAt: ago(DAY_MS) })

  const message = (title: string, createdAt: Date, read: boolean) => ({
    userId: user.id,
    type: 5,
    title,
    content: title,
    createdAt,
    readAt: read ? createdAt : null,
  })
  await db
    .insert(messages)
    .values([
      message('old-read', ago(MESSAGE_KEEP_MS + 1), true),
      message('old-unread', ago(MESSAGE_KEEP_MS + 1), false),
      message('edge-unread', ago(MESSAGE_KEEP_MS), false),
      message('edge-read', ago(MESSAGE_KEEP_MS), true),
      message('new-unread', ago(DAY_MS), false),
    ])

  const job = (status: string, runAt: Date) => ({
    kind: 'sync-device',
    status,
    runAt,
    createdAt: runAt,
  })
  await db
    .insert(jobs)
    .values([
      job('done', ago(DONE_JOB_KEEP_MS + 1)),
      job('done', ago(DONE_JOB_KEEP_MS)),
      job('failed', ago(DONE_JOB_KEEP_MS + 30 * DAY_MS)),
      job('pending', ago(DONE_JOB_KEEP_MS + 30 * DAY_MS)),
    ])
  // A provider's word on a trade stays (the guard against a replay, and the record of the trade).
  await db.insert(paymentNotifications).values({
    provider: 'sandbox',
    tradeNo: 'T-OLD',
    event: 'paid',
    outcome: 'paid',
    payload: {},
    receivedAt: ago(400 * DAY_MS),
  })

  await purgeExpiredJob(db, app.services).run({}, now)

  const logs = await db.select({ logId: usageLogs.logId }).from(usageLogs)
  assert.deepEqual(logs.map((row) => row.logId).sort(), ['log-edge', 'log-recent'])

  const mine = ['old-read', 'old-unread', 'edge-unread', 'edge-read', 'new-unread']
  const left = await db
    .select({ title: messages.title })
    .from(messages)
    .where(eq(messages.userId, user.id))
  assert.deepEqual(
    left
      .map((row) => row.title)
      .filter((title) => mine.includes(title))
      .sort(),
    ['edge-read', 'edge-unread', 'new-unread'],
  )
  // The badge and the list count the rows there are: the purged unread message left both.
  const kept = await db
    .select({ type: messages.type, readAt: messages.readAt })
    .from(messages)
    .where(eq(messages.userId, user.id))
  const unread = await get<UnreadCount>(app, '/message/getUnreadCount', user.session)
  assert.equal(unread.data.unreadCount, kept.filter((row) => row.readAt === null).length)
  assert.equal(
    unread.data.longSystem,
    kept.filter((row) => row.type === 5 && row.readAt === null).length,
  )
  const list = await get<{ total: number }>(app, '/message/list', user.session, { type: '5' })
  assert.equal(list.data.total, kept.filter((row) => row.type === 5).length)

  const syncJobs = await db
    .select({ status: jobs.status, runAt: jobs.runAt })
    .from(jobs)
    .where(eq(jobs.kind, 'sync-device'))
  assert.deepEqual(syncJobs.map((row) => row.status).sort(), ['done', 'failed', 'pending'])
  assert.equal(
    syncJobs.find((row) => row.status === 'done')!.runAt.getTime(),
    ago(DONE_JOB_KEEP_MS).getTime(),
  )
  assert.equal((await db.select().from(paymentNotifications)).length, 1)
})

test('a purge deletes at most a batch per statement, oldest first, until nothing is due', async (t) => {
  const { app, clock, database } = await buildTestApp(t)
  const { db } = database
  const now = clock.now()
  const due = 23
  const batch = 5
  // due rows in a shuffled order of age, and 4 that stay
  const ages = Array.from({ length: due }, (_, i) => ((i * 7) % due) + 1)
  await db
    .insert(usageLogs)
    .values([
      ...ages.map((age) =>
        usageLog(`due-${age}`, new Date(now.getTime() - USAGE_LOG_KEEP_MS - age * 1000)),
      ),
      ...[0, 1, 2, 3].map((i) => usageLog(`kept-${i}`, new Date(now.getTime() - i * DAY_MS))),
    ])
  const probe = await probeDeletes(db, 'usage_logs')

  await purgeExpiredJob(db, app.services, { batch }).run({}, now)

  assert.deepEqual(await probe.statements(), [5, 5, 5, 5, 3])
  const left = await db.select({ logId: usageLogs.logId }).from(usageLogs)
  assert.deepEqual(left.map((row) => row.logId).sort(), ['kept-0', 'kept-1', 'kept-2', 'kept-3'])
})

test('a purge cut short by its budget or by the process dying leaves whole batches gone, and the next run finishes', async (t) => {
  const { app, clock, database } = await buildTestApp(t)
  const { db } = database
  const now = clock.now()
  const batch = 4
  const due = 18
  // ages 1..18 s past the edge: the oldest is due-18
  await db
    .insert(usageLogs)
    .values([
      ...Array.from({ length: due }, (_, i) =>
        usageLog(
          `due-${String(i + 1).padStart(2, '0')}`,
          new Date(now.getTime() - USAGE_LOG_KEEP_MS - (i + 1) * 1000),
        ),
      ),
      usageLog('kept', new Date(now.getTime() - DAY_MS)),
    ])
  const probe = await probeDeletes(db, 'usage_logs')
  const remaining = async () =>
    (await db.select({ logId: usageLogs.logId }).from(usageLogs).orderBy(asc(usageLogs.logId))).map(
      (row) => row.logId,
    )
  const dueNames = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, i) => `due-${String(from + i).padStart(2, '0')}`)

  // The run's budget is spent after two statements: the oldest two batches are gone, nothing else.
  const target = retentionTargets(now).find((one) => getTableName(one.table) === 'usage_logs')!
  const cut = await purgeInBatches(db, target, { batch, budget: budgetOf(2)() })
  assert.deepEqual(cut, { deleted: 8, statements: 2, finished: false })
  assert.deepEqual(await probe.statements(), [4, 4])
  assert.deepEqual(await remaining(), [...dueNames(1, 10), 'kept'])

  // The process dies during the next run's second statement: that statement's rows all stay.
  await probe.failAfter(3)
  await assert.rejects(purgeExpiredJob(db, app.services, { batch }).run({}, now), (error) =>
    /the purging process died/.test(`${error} ${(error as Error).cause}`),
  )
  assert.deepEqual(await probe.statements(), [4, 4, 4])
  assert.deepEqual(await remaining(), [...dueNames(1, 6), 'kept'])

  // The next run finishes it.
  await probe.heal()
  await purgeExpiredJob(db, app.services, { batch }).run({}, now)
  assert.deepEqual(await probe.statements(), [4, 4, 4, 4, 2])
  assert.deepEqual(await remaining(), ['kept'])
})

test('on PostgreSQL the purge never waits on a row a writer holds: it skips it, and the next run takes it', async (t) => {
  const ta = await buildTestApp(t)
  const { app, clock, database } = ta
  if (database.kind !== 'postgres') {
    t.skip('one PGlite connection: no concurrent writer')
    return
  }
  const { db } = database
  const now = clock.now()
  await db
    .insert(usageLogs)
    .values(
      Array.from({ length: 12 }, (_, i) =>
        usageLog(`due-${i}`, new Date(now.getTime() - USAGE_LOG_KEEP_MS - (i + 1) * 1000)),
      ),
    )
  const writer = await database.pool.connect()
  try {
    await writer.query('begin')
    // a report still updating the oldest session holds its row
    await writer.query(
      `update usage_logs set report_count = report_count + 1 where log_id = 'due-11'`,
    )
    await purgeExpiredJob(db, app.services, { batch: 5 }).run({}, now)
    const left = await db.select({ logId: usageLogs.logId }).from(usageLogs)
    assert.deepEqual(
      left.map((row) => row.logId),
      ['due-11'],
    )
    await writer.query('commit')
  } finally {
    writer.release()
  }
  await purgeExpiredJob(db, app.services, { batch: 5 }).run({}, now)
  assert.equal((await db.select().from(usageLogs)).length, 0)
})
