/**
 * The fleet in the H5 build against the real server and the sandbox supplier: phones bought and paid
 * through the API (sandbox checkout), then on Home: the single view, the control page, reboot, moving
 * to a group, the multi view's live covers, a batch reboot of three phones, an expiry banner on a phone
 * bought for one day; 移动分组 at 320 and 390 px (both buttons on screen, a new group's name checked
 * inside its dialog, a toast that lets taps through); the activation-code journey (bought codes
 * listed, activated once, refused the second time); and a studio of 300 phones written into the
 * database (e2e/fixtures/studio-phones.ts): 紧凑's phones on a 390×844 screen, 按状态 → 7天内到期.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { api, apiLogin, screenshot, seedSession, setupE2E, sleep, type Session } from './harness'
import {
  button,
  confirmModal,
  ok,
  goodsFor,
  payInSandbox,
  waitForOrder,
  buyPhones,
  type DeviceRow,
} from './journeys'

const e2e = setupE2E({
  env: { RATE_LIMIT_PER_MINUTE: '0', SANDBOX_SUPPLIER_DELAY_MS: '800' },
})

async function loggedInPage(session: Session) {
  const opened = await e2e.newPage()
  await seedSession(opened.context, session)
  return opened
}

test('the fleet: control page, reboot, group, covers, batch reboot, expiry banner', async () => {
  const session = await apiLogin('13912360001')
  const phones = await buyPhones(session, 3, 7, 'fleet-e2e-three')
  const [soon] = await buyPhones(session, 1, 1, 'fleet-e2e-one-day')
  ok(
    'rename',
    await api('/device/rename', {
      session,
      json: { deviceId: soon.deviceId, name: '即将到期的云机' },
    }),
  )
  const group = ok(
    'group',
    await api<{ groupId: number }>('/group/create', { session, json: { name: '工作室' } }),
  )

  const { page, errors } = await loggedInPage(session)
  await e2e.open(page, '/pages/Home/index')
  await page.getByText('1 / 4').waitFor()
  await page.getByText('● 运行中').waitFor()
  await page.getByText('畅享版').first().waitFor()
  await screenshot(page, 'fleet-single')

  // 进入: the supplier's control page in a full-screen iframe, with a one-time token
  await button(page, '进入').click()
  await page.waitForURL(/pages\/webView\/web_instance\?deviceId=\d+/)
  const frame = page.locator('iframe[title="云手机控制台"]')
  await frame.waitFor()
  const src = (await frame.getAttribute('src')) ?? ''
  assert.match(src, /token=[^&]+&userId=\d+&userType=2&isWeb=1/)
  await page.frameLocator('iframe[title="云手机控制台"]').locator('body').waitFor()
  await sleep(500)
  await screenshot(page, 'fleet-control-page')
  await page.getByText('‹ 返回').click()
  await page.waitForURL(/pages\/Home\/index/)

  // 重启 after a confirmation; the phone shows 重启中, then runs again
  const first = await page.locator('[class*="name"]').first().textContent()
  await button(page, '重启').click()
  await confirmModal(page)
  await page.getByText('重启指令已发送').waitFor()
  const rebooted = phones.find((p) => p.name === first) ?? soon
  const afterReboot = ok(
    'detail',
    await api<DeviceRow>(`/device/detail?deviceId=${rebooted.deviceId}`, { session }),
  )
  assert.ok([1, 4].includes(afterReboot.status), 'rebooting or running again')

  // 移动分组 → MoveGroup → 工作室
  await button(page, '移动分组').click()
  await page.waitForURL(/pages\/Group\/pages\/MoveGroup\?deviceIds=\d+/)
  await page.getByRole('radio', { name: '工作室' }).click()
  await button(page, '确定').click()
  await page.waitForURL(/pages\/Home\/index/)
  const moved = ok(
    'moved',
    await api<DeviceRow>(`/device/detail?deviceId=${rebooted.deviceId}`, { session }),
  )
  assert.equal(moved.groupId, group.groupId)

  // the group filter shows only that phone
  await page.getByRole('button', { name: '分组筛选' }).click()
  await page.getByText('工作室（1）').click()
  await page.getByText('1 / 1').waitFor()
  await page.getByRole('button', { name: '分组筛选' }).click()
  await page.getByText('全部分组').last().click()
  await page.getByText('1 / 4').waitFor()

  // multi view: a grid with live covers of the running phones
  await page.getByRole('button', { name: '多机' }).click()
  await page.getByRole('button', { name: phones[0].name }).waitFor()
  // made and chosen
  await page.waitForFunction(
    () => document.querySelectorAll('[aria-label$="的画面"] img[src*="cover"]').length >= 3,
    undefined,
    { timeout: 20_000 },
  )
  await screenshot(page, 'fleet-multi')

  // batch reboot of the three phones bought together
  await page.getByRole('button', { name: '多选' }).click()
  for (const phone of phones) await page.getByRole('button', { name: phone.name }).click()
  await page.getByText('已选3台').waitFor()
  await button(page, '重启').click()
  await confirmModal(page)
  await page.getByText(/^3台成功$|^\d台成功，\d台失败$/).waitFor()
  await screenshot(page, 'fleet-batch-reboot')
  await button(page, '知道了').click()
  await page.getByRole('button', { name: '取消' }).click()

  // a phone bought for one day: no 请及时续费 right after buying; in its second half (the browser's
  // clock 13 h on) the expiry banner in single view
  await page.getByRole('button', { name: '单机' }).click()
  await page.locator('input[placeholder="请输入关键字"]').fill('即将到期')
  await page.locator('input[placeholder="请输入关键字"]').press('Enter')
  await page.getByText('1 / 1').waitFor()
  const banner = page.getByRole('alert').filter({ hasText: /^云手机将于.+到期，请及时续费$/ })
  assert.equal(await banner.count(), 0, 'a phone bought for a day is not told to renew at once')
  await page.clock.setFixedTime(Date.now() + 13 * 3600_000)
  await banner.waitFor()
  await screenshot(page, 'fleet-expiry-banner')
  assert.deepEqual(errors, [])
})

test('activation codes: bought codes listed, one activates a new phone, a reused one is refused', async () => {
  const session = await apiLogin('13912360002')
  const choice = await goodsFor(7)
  const quote = ok(
    'quote',
    await api<{ total: number }>('/CommodityGroup/getGoodPrice', {
      session,
      json: { kind: 'activationCode', goodId: choice.goodId, priceId: choice.priceId, quantity: 2 },
    }),
  )
  const order = ok(
    'purchaseActivationCode',
    await api<{ orderNo: string }>('/order/purchaseActivationCode', {
      session,
      json: {
        goodId: choice.goodId,
        priceId: choice.priceId,
        quantity: 2,
        expectedAmount: quote.total,
        idempotencyKey: 'fleet-e2e-codes',
      },
    }),
  )
  await payInSandbox(session, order.orderNo)
  await waitForOrder(session, order.orderNo)
  const codes = ok(
    'my codes',
    await api<{ records: { code: string }[] }>('/activation/myCodes', { session }),
  )
  assert.equal(codes.records.length, 2)
  const [code] = codes.records.map((c) => c.code)

  const { page, errors } = await loggedInPage(session)
  await e2e.open(page, '/pages/user/activateDevice')
  await page.getByText(code).waitFor()
  await page.getByText('未使用').first().waitFor()
  await screenshot(page, 'activation-codes')

  const input = page.locator('input[placeholder="请输入16位激活码"]')
  await input.fill(code.toLowerCase())
  await button(page, '立即激活').click()
  await page.getByText('激活成功，新云手机正在创建，稍后可在“我的云机”中使用').waitFor()
  await page.getByText('已使用').waitFor()
  await screenshot(page, 'activation-done')
  const list = ok('device list', await api<{ records: DeviceRow[] }>('/device/list', { session }))
  assert.equal(list.records.length, 1, 'the code made one phone')

  await input.fill(code)
  await button(page, '立即激活').click()
  const refusal = await api('/activation/activate', { session, json: { code } })
  assert.notEqual(refusal.code, 200)
  await page.getByText(refusal.msg).waitFor()
  const after = ok('device list', await api<{ records: DeviceRow[] }>('/device/list', { session }))
  assert.equal(after.records.length, 1, 'a reused code changes nothing')
  assert.deepEqual(errors, [])
})

test('移动分组 at 320 and 390 px: 确定 on screen, 新建分组并移入 names a group that takes the phone in one step', async () => {
  const session = await apiLogin('13912360003')
  const [phone] = await buyPhones(session, 1, 7, 'fleet-e2e-move-group')
  const { page, errors } = await loggedInPage(session)
  const movePage = `/pages/Group/pages/MoveGroup?deviceIds=${phone.deviceId}`

  // both buttons of the footer inside the screen (确定 was at x 386–743 on a 390 px screen)
  for (const size of [
    { width: 320, height: 568 },
    { width: 390, height: 844 },
  ]) {
    await page.setViewportSize(size)
    await e2e.open(page, movePage)
    for (const text of ['新建分组并移入', '确定']) {
      const box = await button(page, text).boundingBox()
      assert.ok(box, `${text} is shown`)
      assert.ok(
        box.x >= 0 && box.x + box.width <= size.width && box.width >= 100,
        `${text} at ${size.width} px: x ${box.x}–${box.x + box.width}`,
      )
    }
  }

  // a toast sits in the upper quarter and lets taps through: the point under it is the page's
  await button(page, '确定').tap()
  const toast = page.locator('.taro__toast p').filter({ hasText: '请选择分组' })
  await toast.waitFor()
  const { hit, bottom } = await page.evaluate(() => {
    const box = document.querySelector('.taro__toast p:last-child')!.getBoundingClientRect()
    const under = document.elementFromPoint(box.x + box.width / 2, box.y + box.height / 2)
    return { hit: under?.closest('.taro__toast') ? 'toast' : 'page', bottom: box.bottom }
  })
  assert.equal(hit, 'page')
  assert.ok(bottom < 844 * 0.35, `the toast ends at ${bottom} px`)

  // a dialog opening takes a toast still showing away; an empty name is said inside the dialog, not
  // in a toast over 取消/确定; 取消 answers at once
  await button(page, '新建分组并移入').tap()
  const dialog = page.getByRole('dialog', { name: '新建分组并移入' })
  await toast.waitFor({ state: 'hidden', timeout: 1_000 })
  await dialog.locator('taro-button-core').filter({ hasText: '确定' }).tap()
  await dialog.getByRole('alert').filter({ hasText: '请输入分组名称' }).waitFor()
  assert.equal(await page.locator('.taro__toast p:visible').count(), 0)
  await screenshot(page, 'move-group-dialog-problem')
  await dialog.locator('taro-button-core').filter({ hasText: '取消' }).tap({ timeout: 1_000 })
  await dialog.waitFor({ state: 'detached' })
  await button(page, '新建分组并移入').tap()
  await dialog.locator('input').fill('直播间')
  await screenshot(page, 'move-group')
  await dialog.locator('taro-button-core').filter({ hasText: '确定' }).tap()
  // made with the phone in it, and back on 我的云机
  await page.waitForURL(/pages\/Home\/index/)
  const groups = ok(
    'groups',
    await api<{ groups: { groupId: number; name: string }[] }>('/group/list', { session }),
  )
  const target = groups.groups.find((g) => g.name === '直播间')
  assert.ok(target, 'the group was made')
  const moved = ok(
    'moved',
    await api<DeviceRow>(`/device/detail?deviceId=${phone.deviceId}`, { session }),
  )
  assert.equal(moved.groupId, target.groupId)
  assert.deepEqual(errors, [])
})

test('a studio of 300 phones: 紧凑 shows at least 12 per screen, 按状态 ticks the 7天内到期 ones across pages', async () => {
  const session = await apiLogin('13912360004')
  const seeded = ['e2e/fixtures/studio-phones.ts', `${session.userId}`, '300']
  assert.match(await e2e.operator(seeded), /^studio 300 phones/m)
  const expiring = new Set<number>()
  for (let pageNo = 1; ; pageNo += 1) {
    const list = ok(
      'device list',
      await api<{ records: (DeviceRow & { expireAt: number })[]; totalPage: number }>(
        `/device/list?rows=100&page=${pageNo}`,
        { session },
      ),
    )
    for (const phone of list.records) {
      if (phone.status === 1 && phone.expireAt - Date.now() <= 7 * 86_400_000) {
        expiring.add(phone.deviceId)
      }
    }
    if (pageNo >= list.totalPage) break
  }
  // the fixture's phones expire 1..30 days out, in turn: seven of every thirty
  assert.equal(expiring.size, 70)

  const { context, page, errors } = await e2e.newPage()
  await seedSession(context, session, { homeViewType: 1 })
  await e2e.open(page, '/pages/Home/index')
  await page.locator('[aria-label$="的画面"]').first().waitFor()
  const started = Date.now()
  await page.getByRole('button', { name: '紧凑' }).click()
  await page.getByRole('button', { name: '云手机-300', exact: true }).waitFor()
  assert.equal(await page.locator('[aria-label$="的画面"]').count(), 0, 'no screenshots in 紧凑')

  /** Tiles wholly inside the scrolling list's visible part, and tiles in the DOM. */
  const tiles = () =>
    page.evaluate(() => {
      const all = [...document.querySelectorAll('[role="button"][aria-label^="云手机-"]')]
      const scroller = all[0]?.closest('taro-scroll-view-core')
      if (!scroller) return { visible: 0, rendered: all.length }
      const view = scroller.getBoundingClientRect()
      const bottom = Math.min(view.bottom, window.innerHeight)
      const visible = all.filter((el) => {
        const box = el.getBoundingClientRect()
        return box.top >= view.top - 1 && box.bottom <= bottom + 1
      }).length
      return { visible, rendered: all.length }
    })
  const dense = await tiles()
  console.log(
    `fleet dense: ${dense.visible} phones on a 390×844 screen, ${dense.rendered} in the DOM, ${Date.now() - started} ms after 紧凑`,
  )
  assert.ok(dense.visible >= 12, `${dense.visible} phones on screen`)
  assert.ok(dense.rendered < 100, `${dense.rendered} tiles rendered: only the rows near the screen`)
  await screenshot(page, 'fleet-dense')

  // remembered on the device
  await page.reload()
  await page.getByRole('button', { name: '云手机-300', exact: true }).waitFor()
  assert.equal(
    await page.getByRole('button', { name: '紧凑' }).getAttribute('aria-pressed'),
    'true',
  )

  // 多选 → 按状态 → 7天内到期: the first page holds 50 phones, the choice reads the rest first
  await page.getByRole('button', { name: '多选' }).click()
  await page.getByText('已选0台').waitFor()
  const withBar = await tiles()
  assert.ok(withBar.visible >= 12, `${withBar.visible} phones on screen beside the batch bar`)
  const picked = Date.now()
  await page.getByRole('button', { name: '按状态' }).click()
  await page
    .getByRole('dialog', { name: '按状态全选' })
    .getByRole('button', { name: '7天内到期' })
    .click()
  await page.getByText(`已选${expiring.size}台`, { exact: true }).waitFor()
  console.log(`fleet 按状态: 已选${expiring.size}台 ${Date.now() - picked} ms after the choice`)

  // newest first: 云手机-300 has 30 days left, 云手机-278 eight, 云手机-277 seven. Each is brought on screen
  // as it is read: the grid renders the rows near the screen only, so a tile scrolled far past is not there
  for (const [name, ticked] of [
    ['云手机-300', 'false'],
    ['云手机-278', 'false'],
    ['云手机-277', 'true'],
  ]) {
    const tile = page.getByRole('button', { name, exact: true })
    await tile.scrollIntoViewIfNeeded()
    assert.equal(await tile.getAttribute('aria-pressed'), ticked, `${name} as its days left say`)
  }
  await screenshot(page, 'fleet-dense-by-status')
  // 续费 takes exactly those phones
  await button(page, '续费').click()
  await page.waitForURL(/pages\/Renew\/index\?deviceIds=/)
  const ids = new URL(page.url()).searchParams.get('deviceIds')?.split(',').map(Number) ?? []
  assert.deepEqual(
    [...ids].sort((a, b) => a - b),
    [...expiring].sort((a, b) => a - b),
  )
  assert.deepEqual(errors, [])
})
