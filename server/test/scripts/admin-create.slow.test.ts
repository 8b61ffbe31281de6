/**
 * `npm run admin:create -- <name> <role>` end to end (scripts/admin-create.ts), spawned as an operator
 * runs it, on a fresh PGlite data directory: the password from ADMIN_PASSWORD or stdin, weak passwords
 * and taken names refused, the printed TOTP secret signs the operator in, and the audit log says 'cli'.
 */
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { asc } from 'drizzle-orm'
import { openPglite } from '../../src/db/client'
import { operatorAudit, operators } from '../../src/db/schema'
import { adminCall, totpAt } from '../console/helpers'
import { buildTestApp } from '../helpers/test-app'
import type { AdminSession } from '../../src/console/contract'

const ROOT = path.resolve(__dirname, '../../..')

function adminCreate(dataDir: string, args: string[], env: Record<string, string>, stdin = '') {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/admin-create.ts', ...args], {
      cwd: ROOT,
      env: { PATH: process.env.PATH ?? '', NODE_ENV: 'development', DATA_DIR: dataDir, ...env },
      stdio: ['pipe', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
    child.stdin.end(stdin)
    child.on('close', (code) => resolve({ code, stdout, stderr }))
  })
}

test('admin:create makes an operator who can sign in with the printed TOTP secret', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-create-'))
  t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }))

  const weak = await adminCreate(dataDir, ['root', 'admin'], { ADMIN_PASSWORD: 'short-11ch' })
  assert.equal(weak.code, 2)
  assert.match(weak.stderr, /密码至少12位/)
  const badRole = await adminCreate(dataDir, ['root', 'owner'], { ADMIN_PASSWORD: 'x'.repeat(12) })
  assert.equal(badRole.code, 2)
  assert.match(badRole.stderr, /Unknown role owner/)

  const made = await adminCreate(dataDir, ['Root', 'admin'], {
    ADMIN_PASSWORD: 'root-long-password',
  })
  assert.equal(made.code, 0, made.stderr)
  const secret = /TOTP secret: ([A-Z2-7]+)/.exec(made.stdout)?.[1]
  assert.ok(secret, made.stdout)
  assert.match(made.stdout, new RegExp(`otpauth://totp/.+secret=${secret}`))
  assert.match(made.stdout, /[▄▀█]{20,}/, 'a QR code in the terminal')

  // from stdin (a pipe), and a taken name in another case
  const piped = await adminCreate(dataDir, ['ops', 'operations'], {}, 'ops-long-password\n')
  assert.equal(piped.code, 0, piped.stderr)
  const taken = await adminCreate(dataDir, ['ROOT', 'support'], {
    ADMIN_PASSWORD: 'another-long-password',
  })
  assert.equal(taken.code, 1)
  assert.match(taken.stderr, /该账号名已存在: root/)

  const database = await openPglite(dataDir)
  const rows = await database.db.select().from(operators).orderBy(asc(operators.id))
  assert.deepEqual(
    rows.map((r) => [r.name, r.role]),
    [
      ['root', 'admin'],
      ['ops', 'operations'],
    ],
  )
  const audit = await database.db.select().from(operatorAudit).orderBy(asc(operatorAudit.id))
  assert.deepEqual(
    audit.map((r) => [r.actor, r.operatorId, r.action, r.targetId]),
    [
      ['cli', null, 'operator.create', '1'],
      ['cli', null, 'operator.create', '2'],
    ],
  )

  const ta = await buildTestApp(t, { database })
  ta.clock.advance(Date.now() - ta.clock.now().getTime())
  for (const [name, password, totpSecret] of [
    ['root', 'root-long-password', secret],
    ['ops', 'ops-long-password', rows[1].totpSecret],
  ]) {
    const signedIn = await adminCall<AdminSession>(ta, 'POST', '/session', {
      body: { name, password, totp: totpAt(ta, totpSecret) },
    })
    assert.equal(signedIn.code, 200, `${name}: ${signedIn.msg}`)
    assert.equal(signedIn.data.operator.name, name)
  }
})

test('beside a running server on the embedded database, admin:create says to stop the server, and writes nothing', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'admin-create-locked-'))
  // a process that owns the directory as `npm start` does (helpers/lock-child.ts, held until killed)
  const owner = spawn(
    process.execPath,
    ['--import', 'tsx', path.join(__dirname, '../helpers/lock-child.ts'), dataDir, '0', '0'],
    { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] },
  )
  t.after(() => {
    owner.kill('SIGKILL')
    fs.rmSync(dataDir, { recursive: true, force: true })
  })
  await new Promise<void>((resolve, reject) => {
    owner.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('owned')) resolve()
    })
    owner.on('exit', () => reject(new Error('the lock owner ended')))
  })

  const beside = await adminCreate(dataDir, ['root', 'admin'], {
    ADMIN_PASSWORD: 'root-long-password',
  })
  assert.equal(beside.code, 1)
  assert.match(beside.stderr, /open in a running server \(npm start\)/)
  assert.match(
    beside.stderr,
    /Stop the server \(Ctrl\+C\), run this command, then start the server again/,
  )
  assert.equal(beside.stdout, '', 'no operator, no secret printed')
})
