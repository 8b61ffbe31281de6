import assert from 'node:assert/strict'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { test } from 'node:test'
import { buildApp } from '../../src/app'
import { DataDirLockedError, openPglite } from '../../src/db/client'
import { migrateDatabase } from '../../src/db/migrate'
import { seedDatabase } from '../../src/db/seed'
import { get, lastSmsCode, post } from '../helpers/test-app'
import { testConfig } from '../helpers/test-config'
import type { LoginResult, SendSmsCodeResult } from '../../src/contract/auth'
import type { UserInfo } from '../../src/contract/user'

test('PGlite data survives a restart and the directory lock keeps a second process out', async (t) => {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cloud-phone-data-'))
  t.after(() => fs.rmSync(dataDir, { recursive: true, force: true }))
  const start = async () => {
    const database = await openPglite(dataDir)
    await migrateDatabase(database)
    await seedDatabase(database.db)
    const app = await buildApp({
      config: testConfig({ filesDir: path.join(dataDir, 'files') }),
      database,
    })
    return { database, app }
  }

  const first = await start()
  await assert.rejects(openPglite(dataDir), (error: Error) => {
    assert.ok(error instanceof DataDirLockedError)
    assert.match(error.message, /already open in another server process/)
    return true
  })
  await post<SendSmsCodeResult>(first.app, '/sms/sendSmsCode', {
    mobilePhone: '13100000001',
    type: 'login',
  })
  const code = await lastSmsCode(first.app, '13100000001')
  const login = await post<LoginResult>(first.app, '/common/userLogin/confirm', {
    mobilePhone: '13100000001',
    code,
  })
  assert.equal(login.code, 200)
  await post<UserInfo>(first.app, '/user/updateUserInfo', { name: '持久用户' }, login.data)
  await first.app.close()
  await first.database.close()

  const second = await start()
  t.after(async () => {
    await second.app.close()
    await second.database.close()
  })
  const info = await get<UserInfo>(second.app, '/user/getUserInfo', login.data)
  assert.equal(info.code, 200, 'the token and the user survived the restart')
  assert.equal(info.data.name, '持久用户')
  assert.equal(info.data.mobilePhone, '13100000001')
})
