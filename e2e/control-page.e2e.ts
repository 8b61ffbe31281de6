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
} from './harness'
import { button } from './journeys'

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
  // the home screen with its icons has loaded
  await control.locator('#screen[src]').waitFor()
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

  // a tap opens the menu beside the ball, a click closes it
  await ball.tap()
  await control.locator('#floating-menu button', { hasText: '重启' }).waitFor()
  assert.equal(
    await control.locator('#floating-menu button', { hasText: '返回' }).isDisabled(),
    true,
  )
  await screenshot(page, 'floating-ball-menu')
  await ball.click()
  await control.locator('#floating-menu').waitFor({ state: 'hidden' })
  assert.deepEqual(errors, [])
})
