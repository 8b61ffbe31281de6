/**
 * The console's 应用库 (/vmcloud/admin/api/apps): operators of the catalogue's roles add an APK (read
 * like a user's upload, refusals named the same way) and hide or show it; every role reads the list;
 * users see only what is shown; each change is in the audit log.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { desc } from 'drizzle-orm'
import { APK_REFUSALS } from '#domain/apps'
import { OperatorCode, ResultCode } from '#domain/result-codes'
import { ADMIN_API_PREFIX, ADMIN_SESSION_COOKIE, CSRF_HEADER } from '../../src/console/contract'
import type { AppItem, CatalogueAppList } from '../../src/console/contract/apps'
import type { AppList } from '../../src/contract/app'
import { operatorAudit } from '../../src/db/schema'
import { buildApk } from '../helpers/apk'
import { buildTestApp, get, loginWithSms, type Envelope, type TestApp } from '../helpers/test-app'
import { adminCall, createOperator, signIn, type OperatorSession } from './helpers'

async function addApk(ta: TestApp, as: OperatorSession, content: Buffer) {
  const boundary = '----consoleapk' + Date.now()
  const payload = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="a.apk"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    ),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ])
  const response = await ta.app.inject({
    method: 'POST',
    url: `${ADMIN_API_PREFIX}/apps`,
    payload,
    headers: {
      'content-type': `multipart/form-data; boundary=${boundary}`,
      cookie: `${ADMIN_SESSION_COOKIE}=${as.cookie}`,
      [CSRF_HEADER]: as.csrfToken,
    },
  })
  return response.json() as Envelope<AppItem | { refusal: string } | null>
}

test('the catalogue: added from an APK, hidden and shown, read by every role, kept by the catalogue roles', async (t) => {
  const ta = await buildTestApp(t)
  const ops = await signIn(ta, await createOperator(ta, 'ops', 'operations'))
  const support = await signIn(ta, await createOperator(ta, 'helpdesk', 'support'))
  const user = await loginWithSms(ta, '13500004701')

  const added = await addApk(
    ta,
    ops,
    buildApk({ packageName: 'com.catalogue.maps', chineseLabel: '地图' }),
  )
  assert.equal(added.code, 200, added.msg)
  const app = added.data as AppItem
  assert.deepEqual(
    [app.name, app.packageName, app.source, app.hidden],
    ['地图', 'com.catalogue.maps', 'catalogue', false],
  )

  const refused = await addApk(ta, ops, Buffer.from('not an apk'))
  assert.equal(refused.code, ResultCode.ILLEGAL_FILE)
  assert.equal(refused.msg, APK_REFUSALS.notZip)
  assert.deepEqual(refused.data, { refusal: 'notZip' })

  const notAllowed = await addApk(ta, support, buildApk({ packageName: 'com.support.try' }))
  assert.equal(notAllowed.code, OperatorCode.FORBIDDEN)
  const read = await adminCall<CatalogueAppList>(ta, 'GET', '/apps', { as: support })
  assert.equal(read.code, 200, read.msg)
  assert.deepEqual(
    read.data.apps.map((a) => [a.appId, a.addedBy]),
    [[app.appId, 'ops']],
  )

  const seen = await get<AppList>(ta.app, '/app/list', user)
  assert.deepEqual(
    seen.data.catalogue.map((a) => a.appId),
    [app.appId],
  )
  const hidden = await adminCall<AppItem>(ta, 'POST', '/apps/hidden', {
    as: ops,
    body: { appId: app.appId, hidden: true },
  })
  assert.equal(hidden.code, 200, hidden.msg)
  assert.equal(hidden.data.hidden, true)
  assert.deepEqual((await get<AppList>(ta.app, '/app/list', user)).data.catalogue, [])
  // the console still lists it, marked
  const all = await adminCall<CatalogueAppList>(ta, 'GET', '/apps', { as: ops })
  assert.equal(all.data.apps[0].hidden, true)
  const unknown = await adminCall(ta, 'POST', '/apps/hidden', {
    as: ops,
    body: { appId: 999_999, hidden: false },
  })
  assert.equal(unknown.code, ResultCode.APP_DOES_NOT_EXIST)
  const shown = await adminCall<AppItem>(ta, 'POST', '/apps/hidden', {
    as: ops,
    body: { appId: app.appId, hidden: false },
  })
  assert.equal(shown.data.hidden, false)

  const audit = await ta.database.db
    .select()
    .from(operatorAudit)
    .orderBy(desc(operatorAudit.id))
    .limit(3)
  assert.deepEqual(
    audit.map((row) => [row.action, row.targetType, row.targetId]),
    [
      ['app.show', 'app', String(app.appId)],
      ['app.hide', 'app', String(app.appId)],
      ['app.add', 'app', String(app.appId)],
    ],
  )
})
