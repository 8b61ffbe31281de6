/**
 * 应用管理 in the H5 build against the real server and the sandbox supplier: a studio of three running
 * phones uploads an APK built here (the browser's file picker), sees it read (name, version, package),
 * installs it on every phone as one batch (安装中 n/N, shown again after a reload, then 安装完成：成功 3),
 * and the phones list it;
 * 安装到… again on one group of two (按分组) and on two phones ticked after a search (选择云机);
 * on 云手机上的应用 one phone opens it and uninstalls it (the SPEC's command), which takes it off that
 * phone only. Screens at 390×844 and 320×568.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { buildApk } from '../server/test/helpers/apk'
import { api, apiLogin, screenshot, seedSession, setupE2E } from './harness'
import { button } from './journeys'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0', SANDBOX_SUPPLIER_DELAY_MS: '800' } })

const PACKAGE = 'com.studio.e2e'

test('upload an APK, install it on every phone with 安装中 n/N, see it on the phones, uninstall it from one', async () => {
  const session = await apiLogin('13912390461')
  const written = await e2e.operator(['e2e/fixtures/studio-phones.ts', String(session.userId), '3'])
  assert.match(written, /studio 3 phones/)
  const phones = await api<{ records: { deviceId: number }[] }>('/device/list?rows=20', { session })
  assert.equal(phones.code, 200, phones.msg)
  const ids = phones.data.records.map((phone) => phone.deviceId)
  assert.equal(ids.length, 3)

  const { context, page, errors } = await e2e.newPage()
  await seedSession(context, session)
  await e2e.open(page, '/pages/Apps/index')
  await page.getByText('还没有上传应用').waitFor()
  await screenshot(page, 'apps-empty-390')

  const chooser = page.waitForEvent('filechooser')
  await button(page, '上传安装包').click()
  await (
    await chooser
  ).setFiles({
    name: 'studio.apk',
    mimeType: 'application/vnd.android.package-archive',
    buffer: buildApk({ packageName: PACKAGE, versionName: '2.0.1', chineseLabel: '工作室助手' }),
  })
  await page.getByText('工作室助手').waitFor()
  await page.getByText(`2.0.1 · ${PACKAGE}`).waitFor()
  await screenshot(page, 'apps-uploaded-390')

  await button(page, '安装到…').first().click()
  await page.getByRole('dialog').getByText('全部云机', { exact: true }).click()
  await page.locator('.taro-modal__foot').getByText('安装').click()
  await page.getByText(/安装中 \d\/3/).waitFor()
  await screenshot(page, 'apps-installing-390')
  // reloaded during the batch: the page shows it again and follows it to its end
  await page.reload()
  await page.getByLabel('安装进度').waitFor()
  await screenshot(page, 'apps-reloaded-390')
  const reloadedDuring = await page.getByText(/安装中 \d\/3/).isVisible()
  console.log(`apps: reloaded while the batch was ${reloadedDuring ? 'running' : 'already done'}`)
  await page.getByText('安装完成：成功 3').waitFor({ timeout: 30_000 })
  await screenshot(page, 'apps-installed-390')
  await page.setViewportSize({ width: 320, height: 568 })
  await screenshot(page, 'apps-installed-320')
  const width = await page.evaluate(() => document.documentElement.scrollWidth)
  assert.ok(width <= 320, `应用管理 fits 320 px (${width})`)

  // 按分组: a group of two phones, picked by its name and count
  const group = await api<{ groupId: number }>('/group/create', {
    session,
    json: { name: '直播组', deviceIds: ids.slice(0, 2) },
  })
  assert.equal(group.code, 200, group.msg)
  await button(page, '安装到…').first().click()
  await screenshot(page, 'apps-install-to-320')
  await page.getByRole('dialog').getByText('按分组', { exact: true }).click()
  await page.getByRole('dialog').getByText('直播组（2台）').click()
  await page.locator('.taro-modal__foot').getByText('安装').click()
  await page.getByText('安装完成：成功 2').waitFor({ timeout: 30_000 })

  // 选择云机: tick one phone, search for another, tick it too (the first stays ticked), install on both
  await button(page, '安装到…').first().click()
  await page.getByRole('dialog').getByText('选择云机', { exact: true }).click()
  const phonePicker = page.getByRole('dialog', { name: '选择云机' })
  await phonePicker.getByRole('checkbox', { name: '云手机-1', exact: true }).click()
  await phonePicker.getByLabel('搜索云手机').locator('input').fill('云手机-3')
  await phonePicker
    .getByRole('checkbox', { name: '云手机-1', exact: true })
    .waitFor({ state: 'detached' })
  await phonePicker.getByRole('checkbox', { name: '云手机-3', exact: true }).click()
  await phonePicker.getByText('已选2台').waitFor()
  await screenshot(page, 'apps-choose-phones-320')
  const chooserWidth = await page.evaluate(() => document.documentElement.scrollWidth)
  assert.ok(chooserWidth <= 320, `选择云机 fits 320 px (${chooserWidth})`)
  await page.setViewportSize({ width: 390, height: 844 })
  await screenshot(page, 'apps-choose-phones-390')
  const started = page.waitForRequest(
    (r) => r.method() === 'POST' && new URL(r.url()).pathname.endsWith('/app/install'),
  )
  await phonePicker
    .locator('taro-button-core')
    .filter({ hasText: /^\s*安装\s*$/ })
    .click()
  const sent = JSON.parse((await started).postData() ?? '{}') as { deviceIds: number[] }
  assert.equal(sent.deviceIds.length, 2)
  await page.getByText('安装完成：成功 2').waitFor({ timeout: 30_000 })
  await screenshot(page, 'apps-installed-chosen-390')

  const installed = async (deviceId: number) => {
    const reply = await api<{ packageName: string; name: string }[]>(
      `/app/installed?deviceId=${deviceId}`,
      { session },
    )
    assert.equal(reply.code, 200, reply.msg)
    return reply.data
  }
  for (const id of ids) {
    const app = (await installed(id)).find((a) => a.packageName === PACKAGE)
    assert.equal(app?.name, '工作室助手', `phone ${id} has it`)
  }
  // 云手机上的应用: pick the first phone, open the app there, then uninstall it from that phone only
  await page.setViewportSize({ width: 390, height: 844 })
  await button(page, '云手机上的应用').click()
  await page.waitForURL(/pages\/Apps\/installed/)
  await page
    .locator('.taro_page')
    .last()
    .getByRole('button', { name: '云手机-1', exact: true })
    .click()
  await page.waitForURL(/pages\/Apps\/installed\?deviceId=/)
  // Taro keeps the pages it came from in the document, hidden: this one is the last
  const helper = page.locator('.taro_page').last().getByLabel('工作室助手')
  await helper.waitFor()
  await screenshot(page, 'apps-on-phone-390')
  const helperButton = (text: string) =>
    helper.locator('taro-button-core').filter({ hasText: new RegExp(`^\\s*${text}\\s*$`) })
  await helperButton('打开').click()
  await page.getByText('已打开工作室助手').waitFor()
  await helperButton('卸载').click()
  await page.locator('.taro-modal__foot').getByText('卸载').click()
  await helper.waitFor({ state: 'detached' })
  await page.setViewportSize({ width: 320, height: 568 })
  await screenshot(page, 'apps-on-phone-320')
  const phoneWidth = await page.evaluate(() => document.documentElement.scrollWidth)
  assert.ok(phoneWidth <= 320, `云手机上的应用 fits 320 px (${phoneWidth})`)
  const first = Number(new URL(page.url()).searchParams.get('deviceId'))
  assert.ok(!(await installed(first)).some((a) => a.packageName === PACKAGE))
  for (const id of ids.filter((id) => id !== first)) {
    assert.ok(
      (await installed(id)).some((a) => a.packageName === PACKAGE),
      `phone ${id} keeps it`,
    )
  }
  assert.deepEqual(errors, [])
})
