/**
 * `npm run company:verify` (scripts/verify-company.ts), spawned on a PGlite data directory: it decides
 * through the console's rule (console/services/users.ts companyDecision), so the user is told, the audit log
 * has the command line's row, and a second decision or an unknown user is refused.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { asc, eq } from 'drizzle-orm'
import { openPglite } from '../../src/db/client'
import { migrateDatabase } from '../../src/db/migrate'
import { messages, operatorAudit, users } from '../../src/db/schema'

const ROOT = path.resolve(__dirname, '../../..')

function verifyCompany(dataDir: string, args: string[]) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'scripts/verify-company.ts', ...args],
      {
        cwd: ROOT,
        env: { PATH: process.env.PATH ?? '', NODE_ENV: 'development', DATA_DIR: dataDir },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    )
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

test('company:verify lists, verifies and rejects through the console rule, audited as cli', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'verify-company-'))
  t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }))
  let database = await openPglite(dataDir)
  await migrateDatabase(database)
  const now = new Date()
  const [a, b] = await database.db
    .insert(users)
    .values([
      {
        mobilePhone: '13800000031',
        inviteCode: 'INVA',
        companyName: '甲科技',
        companyStatus: 1,
        createdAt: now,
      },
      {
        mobilePhone: '13800000032',
        inviteCode: 'INVB',
        companyName: '乙贸易',
        companyStatus: 1,
        createdAt: now,
      },
    ])
    .returning()
  await database.close()

  const listed = await verifyCompany(dataDir, [])
  assert.equal(listed.code, 0, listed.stderr)
  assert.match(listed.stdout, new RegExp(`${a.id}\\t13800000031\\t甲科技`))
  const verified = await verifyCompany(dataDir, ['13800000031'])
  assert.equal(verified.code, 0, verified.stderr)
  assert.match(verified.stdout, /verified/)
  const rejected = await verifyCompany(dataDir, [String(b.id), '--reject'])
  assert.equal(rejected.code, 0, rejected.stderr)
  const again = await verifyCompany(dataDir, ['13800000031'])
  assert.equal(again.code, 1)
  assert.match(again.stderr, /no company request waiting/)
  const unknown = await verifyCompany(dataDir, ['13899999999'])
  assert.equal(unknown.code, 1)

  database = await openPglite(dataDir)
  t.after(() => database.close())
  const [storedA] = await database.db.select().from(users).where(eq(users.id, a.id))
  const [storedB] = await database.db.select().from(users).where(eq(users.id, b.id))
  assert.deepEqual(
    [storedA.userType, storedA.companyStatus, storedB.userType, storedB.companyStatus],
    [2, 2, 1, 3],
  )
  const told = await database.db.select().from(messages).orderBy(asc(messages.id))
  assert.deepEqual(
    told.map((m) => [m.userId, m.title]),
    [
      [a.id, '企业认证已通过'],
      [b.id, '企业认证未通过'],
    ],
  )
  const audit = await database.db.select().from(operatorAudit).orderBy(asc(operatorAudit.id))
  assert.deepEqual(
    audit.map((r) => [r.actor, r.operatorId, r.action, r.targetId, r.after]),
    [
      [
        'cli',
        null,
        'company.verify',
        String(a.id),
        { companyName: '甲科技', companyStatus: 2, userType: 2 },
      ],
      [
        'cli',
        null,
        'company.reject',
        String(b.id),
        { companyName: '乙贸易', companyStatus: 3, userType: 1 },
      ],
    ],
  )
})
