import assert from 'node:assert/strict'
import { test } from 'node:test'
import { getTableName, lt, sql } from 'drizzle-orm'
import type { Db } from '../../src/db/client'
import { PURGE_BATCH, purgeStatement, type PurgeTarget } from '../../src/db/purge-batches'
import { usageLogs } from '../../src/db/schema'
import { retentionTargets } from '../../src/jobs/purge-expired'
import { deviceAuthTokenPurge } from '../../src/services/sharing/device-auth-service'
import { scanLoginPurge } from '../../src/services/accounts/scan-login-service'
import { authTokenPurges } from '../../src/services/accounts/session-service'
import { smsCodePurge } from '../../src/services/accounts/sms-service'
import { createTestDatabase } from '../helpers/test-database'

/**
 * The plan of a batch's statement with sequential scans priced out (enable_seqscan off): PostgreSQL
 * still plans a Seq Scan when no index can serve the predicate, so a plan without one shows an index
 * serves both the choice of the batch and the delete by primary key.
 */
async function plan(db: Db, target: PurgeTarget, from: Date | null = null): Promise<string> {
  return db.transaction(async (tx) => {
    await tx.execute(sql`set local enable_seqscan = off`)
    const result = (await tx.execute(
      sql`explain ${purgeStatement(tx, target, PURGE_BATCH, from).getSQL()}`,
    )) as unknown as { rows: Record<string, string>[] }
    return result.rows.map((row) => Object.values(row)[0]).join('\n')
  })
}

test('every purge batch is served by indexes, never a scan of its table', async (t) => {
  const database = await createTestDatabase()
  t.after(() => database.close())
  const now = new Date('2026-11-27T00:00:00Z')
  const targets = [
    smsCodePurge(now),
    ...authTokenPurges(now),
    scanLoginPurge(now),
    deviceAuthTokenPurge(now),
    ...retentionTargets(now),
  ]
  assert.deepEqual([...new Set(targets.map((target) => getTableName(target.table)))].sort(), [
    'auth_tokens',
    'device_auth_tokens',
    'jobs',
    'login_failures',
    'messages',
    'mobile_change_tickets',
    'scan_login_sessions',
    'sms_codes',
    'usage_logs',
    'wechat_bind_tickets',
  ])
  for (const target of targets) {
    // the first batch, and a later one (from where the one before stopped)
    for (const from of [null, new Date(now.getTime() - 30 * 86_400_000)]) {
      const text = await plan(database.db, target, from)
      assert.doesNotMatch(text, /Seq Scan/, `${getTableName(target.table)}:\n${text}`)
      assert.match(text, /LockRows/, `${getTableName(target.table)} skips locked rows:\n${text}`)
      assert.match(
        text,
        /Index (Only )?Scan|Bitmap Index Scan/,
        `${getTableName(target.table)}:\n${text}`,
      )
    }
  }

  // the check sees a predicate no index serves: last_at is not indexed (see usage_logs_first_at_idx)
  const unserved = await plan(database.db, {
    table: usageLogs,
    due: lt(usageLogs.lastAt, now),
    key: usageLogs.lastAt,
  })
  assert.match(unserved, /Seq Scan on usage_logs/)
})
