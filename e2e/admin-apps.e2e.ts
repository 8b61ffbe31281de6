/**
 * The console's 应用库 in a 1440×900 window: an operations operator uploads a file that is no APK (the
 * server's words for it show), then a small APK built here; it is listed with its name, package,
 * version, the uploader and 显示中, and a user's 应用管理 list (/app/list) offers it. 隐藏 after the
 * confirm marks it 已隐藏 and takes it off the user's list. A support operator (who may read, not keep,
 * the catalogue) sees it without 上传安装包 or 显示. axe finds nothing critical or serious on the page
 * and its confirm.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { APK_REFUSALS } from '#domain/apps'
import { buildApk } from '../server/test/helpers/apk'
import { api, apiLogin, consoleAxeReport, screenshot, setupE2E } from './harness'
import { createOperator, signInToConsole } from './console'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0' } })

const OPERATOR = { name: 'e2e-apps', password: 'e2e-apps-password-123' }
const SUPPORT = { name: 'e2e-apps-support', password: 'e2e-apps-support-pass-1' }
const PACKAGE = 'com.catalogue.e2e'

test('an operator uploads an APK into 应用库, users are offered it, and 隐藏 takes it off their list', async () => {
  const operator = await createOperator(e2e, { ...OPERATOR, role: 'operations' })
  const session = await apiLogin('13812340071')
  const offered = async () =>
    (
      await api<{ catalogue: { packageName: string }[] }>('/app/list', { session })
    ).data.catalogue.map((app) => app.packageName)

  const { page, errors } = await e2e.newDesktopPage()
  const report: string[] = []
  await signInToConsole(page, operator)
  await page.getByRole('menu').first().getByText('应用库', { exact: true }).click()
  await page.waitForURL('**/admin/apps')
  await page.getByText('应用库', { exact: true }).last().waitFor()

  const choose = async (name: string, buffer: Buffer) => {
    const chooser = page.waitForEvent('filechooser')
    await page.getByRole('button', { name: '上传安装包' }).click()
    await (
      await chooser
    ).setFiles({ name, mimeType: 'application/vnd.android.package-archive', buffer })
  }
  // not an APK: the server's refusal in its own words
  await choose('notes.apk', Buffer.from('these are notes, not an APK'))
  await page.getByText(APK_REFUSALS.notZip).waitFor()

  await choose(
    'maps.apk',
    buildApk({ packageName: PACKAGE, versionName: '3.1.0', chineseLabel: '运营地图' }),
  )
  const row = page.getByRole('row').filter({ hasText: PACKAGE })
  await row.waitFor()
  for (const text of ['运营地图', '3.1.0（3）', OPERATOR.name, '显示中']) {
    await row.getByText(text, { exact: true }).waitFor()
  }
  await row.getByRole('img', { name: '运营地图的图标' }).waitFor()
  assert.deepEqual(await offered(), [PACKAGE])
  // the upload's messages (3 s) gone first: a fade-out begun during axe's run reads as faint text
  await page.waitForFunction(() => !document.querySelector('.ant-message-notice'), undefined, {
    timeout: 10_000,
  })
  report.push(...(await consoleAxeReport(page, '应用库')))
  await screenshot(page, 'admin-apps')

  await row.getByRole('button', { name: '隐藏 运营地图' }).click()
  const confirm = page.locator('.ant-popconfirm').filter({ hasText: '隐藏「运营地图」？' })
  await confirm.waitFor()
  report.push(...(await consoleAxeReport(page, '隐藏 confirm')))
  await confirm.getByRole('button', { name: /隐\s*藏/ }).click()
  await row.getByText('已隐藏', { exact: true }).waitFor()
  await row.getByRole('button', { name: '显示 运营地图' }).waitFor()
  assert.deepEqual(await offered(), [])
  await screenshot(page, 'admin-apps-hidden')

  // support reads the catalogue only (the API refuses its changes: editCatalogue)
  const support = await createOperator(e2e, { ...SUPPORT, role: 'support' })
  const reader = await e2e.newDesktopPage()
  await signInToConsole(reader.page, support)
  await reader.page.goto('/admin/apps')
  const readRow = reader.page.getByRole('row').filter({ hasText: PACKAGE })
  await readRow.getByText('已隐藏', { exact: true }).waitFor()
  assert.equal(await reader.page.getByRole('button', { name: '上传安装包' }).count(), 0)
  assert.equal(await readRow.getByRole('button', { name: '显示 运营地图' }).count(), 0)
  assert.deepEqual(reader.errors, [])

  assert.deepEqual(report, [], `axe violations:\n${report.join('\n')}`)
  assert.deepEqual(errors, [])
})
