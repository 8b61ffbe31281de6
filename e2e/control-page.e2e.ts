/**
 * The phone control page and the app's toasts in the H5 build against the real server, in Chromium at
 * 390×844: on the control page as H5 opens it (web_instance's iframe under the app's bar) the floating
 * ball starts where it covers none of the phone's icons, is dragged by mouse and by touch, rests on the
 * nearer side where it is dropped and still opens its menu on a tap. A success toast (数据中心's
 * 备份成功) and an error toast (a wrong SMS code) pass axe's color-contrast rule (WCAG AA) on an opaque
 * box (src/platform/toast.h5.scss restyles Taro H5's own toast).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { createRequire } from 'node:module'
import type { FrameLocator, Page } from 'playwright-core'
import {
  api,
  apiLogin,
  runScriptFile,
  screenshot,
  seedSession,
  setupE2E,
  smsCode,
  type AxeViolation,
  type Session,
} from './harness'
import { button } from './journeys'
import { CONTROL_TEXT } from '#domain/control-page'

const e2e = setupE2E({ env: { RATE_LIMIT_PER_MINUTE: '0', SANDBOX_SUPPLIER_DELAY_MS: '1500' } })

interface Box {
  x: number
  y: number
  width: number
  height: number
}

/**
 * What is wrong with the contrast of the toast showing now: what axe's color-contrast rule failed or
 * could not decide, and a box the page shows through.
 */
async function toastContrast(page: Page, text: string): Promise<string[]> {
  // the toast's wrapper has no box of its own: its title is what shows
  await page.locator('.taro__toast p', { hasText: text }).waitFor()
  // the toast fades in over 0.1 s: axe reads the final colours
  await page.waitForFunction(
    (t) =>
      [...document.querySelectorAll<HTMLElement>('.taro__toast')].some(
        (el) => el.textContent?.includes(t) && getComputedStyle(el).opacity === '1',
      ),
    text,
  )
  await runScriptFile(page, createRequire(__filename).resolve('axe-core/axe.min.js'))
  const result = await page.evaluate(async () => {
    type Result = { violations: AxeViolation[]; incomplete: AxeViolation[]; passes: AxeViolation[] }
    const axe = (window as unknown as { axe: { run: (c: unknown, o: unknown) => Promise<Result> } })
      .axe
    return axe.run(
      { include: [['.taro__toast']] },
      { runOnly: { type: 'rule', values: ['color-contrast'] } },
    )
  })
  const problems = [...result.violations, ...result.incomplete].flatMap((v) =>
    v.nodes.map((n) => `${v.id}: ${n.html.slice(0, 80)} ${JSON.stringify(n.any[0]?.data ?? '')}`),
  )
  // a translucent box lets the page's text show behind the title, whatever axe's ratio says
  const box = await page.evaluate(
    (t) =>
      [...document.querySelectorAll<HTMLElement>('.taro__toast > div:last-child')]
        .filter((el) => el.textContent?.includes(t))
        .map((el) => getComputedStyle(el).backgroundColor)[0],
    text,
  )
  if (!/^rgb\(/.test(box ?? '')) problems.push(`the toast's box is not opaque: ${box}`)
  const checked = result.passes.flatMap((v) => v.nodes).length
  return checked === 0 && problems.length === 0 ? ['axe checked no text in the toast'] : problems
}

test('a success and an error toast meet WCAG AA contrast', async () => {
  const MOBILE = '13712340031'
  const session = await apiLogin(MOBILE)
  const claimed = await api<{ deviceId: number }>('/newUserGuide/getNewUserReceiveEquipment', {
    session,
  })
  assert.equal(claimed.code, 200, claimed.msg)
  const { page, context, errors } = await e2e.newPage()
  await seedSession(context, session)
  await e2e.open(page, '/pages/Home/index')
  await page.getByText('运行中').first().waitFor({ timeout: 20_000 })
  // the success toast a backup ends with, on 数据中心
  await e2e.open(page, `/pages/Space/DataCenter?deviceId=${claimed.data!.deviceId}`)
  await page.getByText('暂无备份').waitFor()
  await button(page, '立即备份').click()
  await page.locator('.taro__toast p', { hasText: '备份成功' }).waitFor({ timeout: 30_000 })
  assert.deepEqual(await toastContrast(page, '备份成功'), [])
  await screenshot(page, 'toast-success')

  // an error the server gives: a wrong SMS code on the login page
  const anon = await e2e.newPage()
  await e2e.open(anon.page, '/pages/login/login')
  const other = '13712340033'
  await anon.page.locator('input[placeholder="请输入手机号"]').fill(other)
  await button(anon.page, '获取验证码').click()
  await anon.page.getByText(/s后重新获取/).waitFor()
  const code = await smsCode(other)
  const wrong = code === '000000' ? '111111' : '000000'
  await anon.page.locator('input[placeholder="请输入验证码"]').fill(wrong)
  await anon.page.getByText('我已阅读并同意').click()
  await button(anon.page, '登录 / 注册').click()
  const toast = anon.page.locator('.taro__toast p').filter({ hasText: /\S/ }).last()
  await toast.waitFor()
  const text = (await toast.innerText()).trim()
  assert.deepEqual(await toastContrast(anon.page, text), [])
  await screenshot(anon.page, 'toast-error')
  assert.deepEqual(errors, [])
  assert.deepEqual(anon.errors, [])
})

/** The app icons on the phone's screen, as page boxes: where the sandbox screen draws them. */
async function iconBoxes(control: FrameLocator, apps: number): Promise<Box[]> {
  const screen = (await control.locator('.screen').boundingBox())!
  const scale = screen.width / 360
  return Array.from({ length: Math.min(apps, 12) }, (_, i) => ({
    x: screen.x + (30 + (i % 4) * 78) * scale,
    y: screen.y + (330 + Math.floor(i / 4) * 92) * scale,
    width: 56 * scale,
    // the icon and its name under it
    height: 80 * scale,
  }))
}

const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && a.x + a.width > b.x && a.y < b.y + b.height && a.y + a.height > b.y

/** The ball's box, after checking it covers no icon and is wholly inside the control page's frame. */
async function ballBox(control: FrameLocator, frame: Box, icons: Box[], where: string) {
  const ball = (await control.locator('#floating-ball').boundingBox())!
  const covered = icons.filter((icon) => overlaps(ball, icon))
  assert.deepEqual(covered, [], `${where}: the ball ${JSON.stringify(ball)} covers icons`)
  assert.ok(
    ball.x >= frame.x &&
      ball.y >= frame.y &&
      ball.x + ball.width <= frame.x + frame.width &&
      ball.y + ball.height <= frame.y + frame.height,
    `${where}: the ball ${JSON.stringify(ball)} is off the page ${JSON.stringify(frame)}`,
  )
  return ball
}

test('the floating ball starts off the icons, is dragged by mouse and touch, and a tap opens its menu', async () => {
  const session = await apiLogin('13712340032')
  const claimed = await api<{ deviceId: number }>('/newUserGuide/getNewUserReceiveEquipment', {
    session,
  })
  assert.equal(claimed.code, 200, claimed.msg)
  const saved = await api('/user/saveFloatingBall', {
    session,
    method: 'POST',
    json: { visible: true, side: 'left', opacity: 80, shortcuts: ['返回', '重启'] },
  })
  assert.equal(saved.code, 200, saved.msg)
  const { page, context, errors } = await e2e.newPage()
  await seedSession(context, session)
  // the trial phone runs after the sandbox's provisioning delay
  await e2e.open(page, '/pages/Home/index')
  await page.getByText('运行中').first().waitFor({ timeout: 20_000 })
  await e2e.open(page, `/pages/webView/web_instance?deviceId=${claimed.data!.deviceId}`)
  const iframe = page.locator('iframe[title="云手机控制台"]')
  const control = page.frameLocator('iframe[title="云手机控制台"]')
  const ball = control.locator('#floating-ball')
  await ball.waitFor()
  await control.locator('#status', { hasText: '运行中' }).waitFor({ timeout: 20_000 })
  // the home screen with its icons has loaded (the sandbox's stream, control/src/sandbox-sdk.ts)
  await control.locator('.ve-phone-frame[src]').waitFor()
  const frame = (await iframe.boundingBox())!
  const icons = await iconBoxes(control, 6)
  const start = await ballBox(control, frame, icons, 'at start')
  assert.equal(await ball.getAttribute('data-side'), 'left')
  assert.ok(start.x - frame.x < 20, `starts on the left: ${JSON.stringify(start)}`)
  await screenshot(page, 'floating-ball-start')

  // a mouse drag up to the right half, beside the clock: it rests on the right edge
  const cx = start.x + start.width / 2
  const cy = start.y + start.height / 2
  const dropY = frame.y + 260
  await page.mouse.move(cx, cy)
  await page.mouse.down()
  for (let i = 1; i <= 10; i++) await page.mouse.move(cx + 25 * i, cy + ((dropY - cy) * i) / 10)
  await page.mouse.up()
  const afterMouse = await ballBox(control, frame, icons, 'after the mouse drop')
  assert.equal(await ball.getAttribute('data-side'), 'right')
  assert.equal(afterMouse.x + afterMouse.width, frame.x + frame.width - 8)
  assert.ok(Math.abs(afterMouse.y + afterMouse.height / 2 - dropY) < 2, 'stays at the drop')
  assert.equal(await control.locator('#floating-menu').isVisible(), false, 'a drag opens no menu')
  await screenshot(page, 'floating-ball-mouse-drop')

  // a touch drag back to the left and higher: it stays there, also after the next screen frames
  const cdp = await context.newCDPSession(page)
  const from = { x: afterMouse.x + 24, y: afterMouse.y + 24 }
  const touch = (type: 'touchStart' | 'touchMove' | 'touchEnd', x: number, y: number) =>
    cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: type === 'touchEnd' ? [] : [{ x, y }],
    })
  await touch('touchStart', from.x, from.y)
  for (let i = 1; i <= 10; i++) await touch('touchMove', from.x - 30 * i, from.y - 10 * i)
  await touch('touchEnd', from.x - 300, from.y - 100)
  const afterTouch = await ballBox(control, frame, icons, 'after the touch drop')
  assert.equal(await ball.getAttribute('data-side'), 'left')
  assert.equal(afterTouch.x, frame.x + 8)
  assert.ok(Math.abs(afterTouch.y - (afterMouse.y - 100)) < 2, 'stays at the drop')
  assert.equal(await control.locator('#floating-menu').isVisible(), false, 'a drag opens no menu')
  await page.waitForTimeout(3500)
  assert.deepEqual(await ball.boundingBox(), afterTouch, 'the next screen frame leaves it there')
  await screenshot(page, 'floating-ball-touch-drop')

  // a tap opens the menu beside the ball; 返回 presses the phone's key (/control/key)
  await ball.tap()
  await control.locator('#floating-menu button', { hasText: '重启' }).waitFor()
  await screenshot(page, 'floating-ball-menu')
  await control.locator('#floating-menu button', { hasText: '返回' }).click()
  await control.locator('#toast', { hasText: '已按下返回' }).waitFor()
  await ball.click()
  await control.locator('#floating-menu button', { hasText: '返回' }).waitFor()
  await ball.click()
  await control.locator('#floating-menu').waitFor({ state: 'hidden' })
  assert.deepEqual(errors, [])
})

/** The control page inside H5's web_instance, its frame and a tool button by name. */
async function openControl(mobile: string) {
  const { session, deviceId } = await trialPhone(mobile)
  const opened = await e2e.newPage()
  await seedSession(opened.context, session)
  await e2e.open(opened.page, `/pages/webView/web_instance?deviceId=${deviceId}`)
  const control = opened.page.frameLocator('iframe[title="云手机控制台"]')
  const tool = (name: string) => control.locator(`button[data-tool="${name}"]`)
  const toast = (text: string | RegExp) => control.locator('#toast', { hasText: text }).waitFor()
  const live = control.locator('#live')
  return { ...opened, control, tool, toast, live, deviceId }
}

test('every toolbar control on the sandbox stream, in portrait and landscape', async () => {
  const { page, context, control, tool, toast, live, errors } = await openControl('13712340046')
  await context.grantPermissions(['clipboard-read', 'clipboard-write'])
  page.on('dialog', (dialog) => void dialog.accept())
  // the stream plays through the SDK stand-in; the indicator shows its round trip and frame rate
  const liveMode = control.locator('#mode', { hasText: /^实时画面$/ })
  await liveMode.waitFor({ timeout: 20_000 })
  await control.locator('.ve-phone-frame[src]').waitFor()
  await control.locator('#net', { hasText: /^\d+ ms · \d+ fps$/ }).waitFor({ timeout: 10_000 })
  await tool('home').waitFor()
  await screenshot(page, 'control-toolbar-portrait')

  // 返回 / 主页 / 多任务: key events through our server
  for (const [key, label] of [
    ['back', '返回'],
    ['home', '主页'],
    ['recents', '多任务'],
  ]) {
    await tool(key).click()
    await toast(`已按下${label}`)
  }

  // 音量 + and −: the SDK's volumeUp/volumeDown; the phone refuses a step past the top
  await tool('volumeDown').click()
  await control.locator('#live[data-volume="7"]').waitFor()
  for (let v = 8; v <= 15; v++) {
    await tool('volumeUp').click()
    await control.locator(`#live[data-volume="${v}"]`).waitFor()
  }
  await tool('volumeUp').click()
  await toast('音量已是最大')
  assert.equal(await live.getAttribute('data-volume'), '15')

  // 画质: setVideoStreamProfileId with the sandbox's profile, remembered for this user
  await tool('quality').click()
  await control.locator('#panel button[data-quality="smooth"]').click()
  await control.locator('#live[data-profile-id="4"]').waitFor()
  await toast('已切换为流畅')
  assert.equal(await tool('quality').textContent(), '画质·流畅')
  const stored = await page
    .frames()
    .find((f) => f.url().includes('/supplier/control'))!
    .evaluate(() =>
      Object.entries(localStorage).find(([k]) => k.startsWith('cp.control.quality.u')),
    )
  assert.equal(stored?.[1], 'smooth')

  // 本地键盘: typing with the user's own input method
  await tool('keyboard').click()
  await toast('已切换为本地键盘，可用本机输入法输入')
  assert.equal(await tool('keyboard').getAttribute('aria-pressed'), 'true')
  await control.locator('.ve-phone-ime').fill('你好，云手机')
  await control.locator('.ve-phone-ime').press('Enter')
  await control.locator('.ve-phone-echo', { hasText: '已输入：你好，云手机' }).waitFor()

  // 剪贴板: the local text to the phone, and the phone's back to this device
  await tool('clipboard').click()
  await control.locator('#clipboard-text').fill('复制这段文字')
  await control.locator('#panel button', { hasText: '发送到云手机' }).click()
  await toast('已发送到云手机剪贴板')
  await control.locator('.remote-clip', { hasText: '云手机剪贴板：复制这段文字' }).waitFor()
  await control.locator('#panel button', { hasText: '复制到本机' }).click()
  await toast('已复制到本机剪贴板')
  await screenshot(page, 'control-clipboard')
  await tool('clipboard').click()

  // 截图: downloaded on H5
  const [download] = await Promise.all([page.waitForEvent('download'), tool('screenshot').click()])
  assert.match(download.suggestedFilename(), /^云手机截图-.+\.svg$/)

  // 摇一摇
  await tool('shake').click()
  await toast('已摇一摇')
  await control.locator('.ve-phone-echo', { hasText: '云手机：检测到摇一摇' }).waitFor()

  // 旋转: rotateScreen(270, true); the page follows the phone into landscape
  await tool('rotate').click()
  await control.locator('#live[data-rotation="270"]').waitFor()
  await control.locator('body.rotated').waitFor({ state: 'attached' })
  await page.setViewportSize({ width: 844, height: 390 })
  await screenshot(page, 'control-toolbar-landscape')
  await page.setViewportSize({ width: 390, height: 844 })
  await tool('rotate').click()
  await control.locator('#live[data-rotation="0"]').waitFor()

  // 全屏: the browser's Fullscreen API (H5's iframe allows it)
  await tool('fullscreen').click()
  await control.locator('button[data-tool="fullscreen"][aria-pressed="true"]').waitFor()
  await tool('fullscreen').click()
  await control.locator('button[data-tool="fullscreen"][aria-pressed="false"]').waitFor()

  // the phone's commands; 重启 drops the stream, which reconnects with its back-off shown
  await tool('CleanMem').click()
  await toast('内存已释放')
  await tool('Reboot').click()
  await toast(/重启/)
  await control.locator('#net', { hasText: /秒后重连（第 \d\/5 次）/ }).waitFor({ timeout: 10_000 })
  await screenshot(page, 'control-reconnecting')
  await liveMode.waitFor({ timeout: 30_000 })
  await control.locator('#net', { hasText: / fps$/ }).waitFor({ timeout: 10_000 })
  // the remembered 画质 is applied to the new stream
  await control.locator('#live[data-profile-id="4"]').waitFor()
  assert.deepEqual(errors, [])
})

/** A running trial phone of a new account, and the control page's address for `viewer` (a new token). */
async function trialPhone(mobile: string) {
  const session = await apiLogin(mobile)
  const claimed = await api<{ deviceId: number }>('/newUserGuide/getNewUserReceiveEquipment', {
    session,
  })
  assert.equal(claimed.code, 200, claimed.msg)
  const deviceId = claimed.data!.deviceId
  for (let i = 0; i < 40; i++) {
    const detail = await api<{ status: number; busy: boolean }>(
      `/device/detail?deviceId=${deviceId}`,
      {
        session,
      },
    )
    if (detail.data?.status === 1 && !detail.data.busy) break
    await new Promise((resolve) => setTimeout(resolve, 500))
  }
  const controlUrl = async (viewer: Session) => {
    const issued = await api<{ authToken: string; controlUrl: string }>(
      `/user/getAuthToken?deviceId=${deviceId}`,
      { session: viewer },
    )
    assert.equal(issued.code, 200, issued.msg)
    const { authToken, controlUrl: url } = issued.data!
    return `/vmcloud/api${url.replace(/^\/vmcloud\/api/, '')}&token=${encodeURIComponent(authToken)}&userId=${viewer.userId}&userType=2&isWeb=1`
  }
  return { session, deviceId, controlUrl }
}

test('a 仅查看 viewer watches the stream without controls, is refused a key, and a revoke ends the page with 续费', async () => {
  const owner = await trialPhone('13712340047')
  const viewer = await apiLogin('13712340048')
  const granted = await api('/device/empower', {
    session: owner.session,
    method: 'POST',
    json: { deviceIds: [owner.deviceId], mobilePhone: '13712340048', permission: 1, days: 7 },
  })
  assert.equal(granted.code, 200, granted.msg)
  const { page, errors } = await e2e.newPage()
  await page.goto(await owner.controlUrl(viewer))
  await page.locator('#mode', { hasText: /^实时画面$/ }).waitFor({ timeout: 20_000 })
  await page.locator('.ve-phone-frame[src]').waitFor()
  assert.equal(await page.locator('#mode').getAttribute('data-view-only'), CONTROL_TEXT.viewOnly)
  const shown = await page
    .locator('button[data-tool]:visible')
    .evaluateAll((els) => els.map((el) => (el as HTMLElement).dataset.tool))
  assert.deepEqual(shown, ['quality', 'screenshot', 'fullscreen'])
  await screenshot(page, 'control-view-only')

  // the server refuses their key and command even when sent by hand
  // (no named functions inside evaluate: tsx's __name helper does not exist in the page)
  const refused = await page.evaluate(() => {
    const data = JSON.parse(document.getElementById('control-data')!.textContent!)
    return Promise.all(
      [
        ['/control/key', { key: 'home' }],
        ['/control/command', { command: 'Reboot' }],
      ].map(([path, body]) =>
        fetch(`${data.base}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ session: data.session, ...(body as object) }),
        }).then((r) => r.json() as Promise<{ code: number; msg: string }>),
      ),
    )
  })
  for (const answer of refused) {
    assert.notEqual(answer.code, 200)
    assert.equal(answer.msg, '该云手机仅授权您查看，无法操作')
  }

  // the owner revokes: the page ends at its next call, with the message and 续费
  const grants = await api<{ records: { grantId: number }[] }>(
    '/device/empower/list?direction=out',
    {
      session: owner.session,
    },
  )
  const revoked = await api('/device/empower/revoke', {
    session: owner.session,
    method: 'POST',
    json: { grantIds: grants.data!.records.map((g) => g.grantId) },
  })
  assert.equal(revoked.code, 200, revoked.msg)
  await page
    .locator('#overlay-text', { hasText: CONTROL_TEXT.sessionEnded })
    .waitFor({ timeout: 10_000 })
  assert.equal(await page.locator('.ve-phone-frame').count(), 0, 'no frozen picture')
  await screenshot(page, 'control-session-ended')
  await page.locator('#overlay-action', { hasText: CONTROL_TEXT.renew }).click()
  await page.waitForURL(new RegExp(`/pages/Renew/index\\?deviceIds=${owner.deviceId}$`))
  assert.deepEqual(errors, [])
})

test('without WebRTC the page says so and shows screenshots; idle warns, ends, and one tap resumes', async () => {
  const owner = await trialPhone('13712340049')
  const { page, context, errors } = await e2e.newPage()
  await context.addInitScript(() => {
    delete (window as unknown as { RTCPeerConnection?: unknown }).RTCPeerConnection
  })
  await page.clock.install()
  await page.goto(await owner.controlUrl(owner.session))
  await page.locator('#toast', { hasText: CONTROL_TEXT.noWebrtc }).waitFor({ timeout: 10_000 })
  await page.locator('#mode', { hasText: CONTROL_TEXT.screenshotMode }).waitFor()
  await page.locator('#screen[src]').waitFor()
  assert.equal(await page.locator('.ve-phone-frame').count(), 0)
  assert.equal(await page.locator('button[data-tool="rotate"]').isDisabled(), true)
  assert.equal(await page.locator('button[data-tool="home"]').isDisabled(), false)
  await screenshot(page, 'control-no-webrtc')

  // 4 min 30 s without a touch: the warning; one tap and it goes
  await page.clock.fastForward('04:31')
  await page.locator('#overlay-text', { hasText: CONTROL_TEXT.idleWarn }).waitFor()
  await screenshot(page, 'control-idle-warning')
  await page.locator('#overlay-action', { hasText: CONTROL_TEXT.resume }).click()
  await page.locator('#overlay').waitFor({ state: 'hidden' })
  // 5 minutes more: the page disconnects and stops asking; one tap resumes
  await page.clock.fastForward('05:01')
  await page.locator('#overlay-text', { hasText: CONTROL_TEXT.idleEnded }).waitFor()
  const asked: string[] = []
  page.on('request', (r) => {
    if (r.url().includes('/control/state')) asked.push(r.url())
  })
  await page.clock.fastForward('00:10')
  assert.deepEqual(asked, [], 'no polls while disconnected')
  await page.locator('#overlay-action', { hasText: CONTROL_TEXT.resume }).click()
  await page.locator('#overlay').waitFor({ state: 'hidden' })
  await page.locator('#mode', { hasText: CONTROL_TEXT.screenshotMode }).waitFor()
  await page.waitForRequest((r) => r.url().includes('/control/state'))
  assert.deepEqual(errors, [])
})
