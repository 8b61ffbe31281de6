/**
 * 云手机 and 任务 in the operator console, desktop 1440×900. A user buys two phones while the
 * sandbox supplier fails every create (SANDBOX_SUPPLIER_FAILURE_RATE=1): both end 创建失败. The supplier
 * recovers (the server restarts healthy around admin:create); an operations operator finds the user's
 * phones by number, opens one, 重新创建 and sees it 运行中; resets it (重置, a dialog naming the consequence
 * and a reason) and sees it 运行中 again, the user told in the message center; then releases it after the
 * dialog that names the consequence (refused in the dialog, naming the order, while the user's renewal of it
 * is unpaid; released once it is cancelled), and the user's fleet no longer lists it. On 任务 a failed job is listed
 * and 重试 puts it back. axe finds nothing critical or serious on 云手机, the phone's page, the reset and
 * release dialogs and 任务.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { DeviceStatus } from '#domain/device-lifecycle'
import {
  api,
  apiLogin,
  screenshot,
  consoleAxeReport,
  setupE2E,
  sleep,
  type Session,
} from './harness'
import { createOperator, signInToConsole } from './console'
import { goodsFor, ok, payInSandbox, waitForOrder } from './journeys'

const env: Record<string, string> = {
  RATE_LIMIT_PER_MINUTE: '0',
  SANDBOX_SUPPLIER_FAILURE_RATE: '1',
  // only outcomes are read here (创建失败, 运行中): jobs looked for every 0.5 s, not 5
  JOB_POLL_MS: '500',
}
const e2e = setupE2E({ env })

const OPS = { name: 'e2e-ops', password: 'e2e-ops-password-12' }
const USER_MOBILE = '13812340001'
const RELEASE_CONSEQUENCE = '云手机将被释放，数据无法恢复，用户不会自动获得退款。'
const RESET_CONSEQUENCE =
  '所有应用和数据将被清除，无法恢复。云手机将重启，完成后恢复运行，到期时间不变；用户会收到消息通知。'

interface FleetRow {
  deviceId: number
  name: string
  status: number
}

const fleetOf = async (session: Session) =>
  ok('device list', await api<{ records: FleetRow[] }>('/device/list?rows=100', { session }))
    .records

/** Buys `quantity` phones and waits until the (failing) supplier has failed every one of them. */
async function buyFailingPhones(session: Session, quantity: number): Promise<FleetRow[]> {
  const choice = await goodsFor(7)
  const quote = ok(
    'quote',
    await api<{ total: number }>('/CommodityGroup/getGoodPrice', {
      session,
      json: { kind: 'new', goodId: choice.goodId, priceId: choice.priceId, quantity },
    }),
  )
  const order = ok(
    'createCloudOrder',
    await api<{ orderNo: string }>('/order/createCloudOrder', {
      session,
      json: { ...choice, quantity, expectedAmount: quote.total, idempotencyKey: 'admin-devices' },
    }),
  )
  await payInSandbox(session, order.orderNo)
  const info = await waitForOrder<{ status: number; deviceIds: number[] }>(session, order.orderNo)
  for (let i = 0; i < 120; i += 1) {
    const mine = (await fleetOf(session)).filter((d) => info.deviceIds.includes(d.deviceId))
    if (mine.length === quantity && mine.every((d) => d.status === DeviceStatus.failed)) return mine
    await sleep(250)
  }
  throw new Error('e2e: the phones never failed at the failing supplier')
}

/** A renewal of the phone for 7 days, created and left unpaid: its order number. */
async function renewUnpaid(session: Session, deviceId: number): Promise<string> {
  const { priceId } = await goodsFor(7)
  const quote = ok(
    'renewal quote',
    await api<{ total: number }>('/CommodityGroup/getGoodPrice', {
      session,
      json: { kind: 'renew', deviceIds: [deviceId], priceId },
    }),
  )
  const order = ok(
    'createRenewOrder',
    await api<{ orderNo: string }>('/order/createRenewOrder', {
      session,
      json: {
        deviceIds: [deviceId],
        priceId,
        expectedAmount: quote.total,
        idempotencyKey: 'admin-devices-renew',
      },
    }),
  )
  return order.orderNo
}

test('an operator creates a failed phone again, resets it, releases it after the dialog, and retries a failed job', async () => {
  const session = await apiLogin(USER_MOBILE)
  const [first, second] = (await buyFailingPhones(session, 2)).sort(
    (a, b) => a.deviceId - b.deviceId,
  )

  // the supplier recovers; the operator and a job that used up its attempts, made on the command line
  env.SANDBOX_SUPPLIER_FAILURE_RATE = '0'
  const operator = await createOperator(e2e, { ...OPS, role: 'operations' })
  const jobId = Number(
    /failed job (\d+)/.exec(await e2e.operator(['e2e/fixtures/failed-job.ts']))![1],
  )

  const { page, errors } = await e2e.newDesktopPage()
  const report: string[] = []
  await signInToConsole(page, operator)

  // 云手机: the user's phones by number, both 创建失败
  await page.getByRole('menu').first().getByText('云手机', { exact: true }).click()
  await page.waitForURL('**/admin/devices')
  await page.getByPlaceholder('完整手机号或用户ID').fill(USER_MOBILE)
  await page.getByRole('button', { name: /搜\s*索/ }).click()
  const rowOf = (id: number) =>
    page.getByRole('row').filter({ has: page.getByRole('cell', { name: String(id), exact: true }) })
  await rowOf(first.deviceId).getByText('创建失败').waitFor()
  await rowOf(second.deviceId).getByText('创建失败').waitFor()
  report.push(...(await consoleAxeReport(page, '云手机')))
  await screenshot(page, 'admin-devices')

  // the phone's page: 重新创建, then 运行中 once the supplier is done
  await rowOf(first.deviceId).getByRole('link', { name: '查看' }).click()
  await page.waitForURL(`**/admin/devices/${first.deviceId}`)
  // titled by the phone's name
  await page.getByText(`云手机「${first.name}」`).waitFor()
  await page.getByRole('tab', { name: /任务（1）/ }).waitFor()
  report.push(...(await consoleAxeReport(page, 'phone page')))
  await page.getByRole('button', { name: /重新创建/ }).click()
  const confirm = page.locator('.ant-popconfirm')
  await confirm
    .getByText('将向供应商重新创建云手机，到期时间不变；创建完成后用户即可使用。')
    .waitFor()
  await confirm.getByRole('button', { name: /重新创建/ }).click()
  const status = page.locator('.ant-descriptions-item-content').filter({ hasText: /创建|运行/ })
  await status.getByText('运行中').waitFor({ timeout: 30_000 })
  await page.getByRole('tab', { name: /任务（2）/ }).waitFor()
  await page.getByRole('tab', { name: /操作记录（1）/ }).click()
  await page.getByRole('cell', { name: '重新创建', exact: true }).waitFor()
  await screenshot(page, 'admin-device-running')
  assert.equal(
    (await fleetOf(session)).find((d) => d.deviceId === first.deviceId)?.status,
    DeviceStatus.running,
    'the user sees it running',
  )

  // 重置: the dialog names the consequence and wants a reason; the phone restarts, runs again, the user is told
  await page.getByRole('button', { name: /^重\s*置$/ }).click()
  const reset = page.getByRole('dialog', { name: `重置云手机「${first.name}」？` })
  await reset.getByText(RESET_CONSEQUENCE).waitFor()
  report.push(...(await consoleAxeReport(page, 'reset dialog')))
  await reset.getByRole('button', { name: /^重\s*置$/ }).click()
  await reset.getByText('请填写原因').waitFor()
  await reset.getByLabel('原因（记入操作日志）').fill('用户反馈系统异常，申请恢复出厂')
  await reset.getByRole('button', { name: /^重\s*置$/ }).click()
  await reset.waitFor({ state: 'hidden' })
  await page.getByText('已提交重置，云手机重启完成后恢复运行').waitFor()
  await status.getByText('运行中').waitFor({ timeout: 30_000 })
  await page.getByRole('tab', { name: /操作记录（2）/ }).click()
  await page.getByRole('cell', { name: '重置', exact: true }).waitFor()
  const told = await api<{ records: { title: string }[] }>('/message/list?type=5&rows=10', {
    session,
  })
  assert.ok(
    told.data.records.some((m) => m.title === '云手机正在重置'),
    'the user is told in the message center',
  )

  // the user starts renewing the phone and has not paid yet
  const renewal = await renewUnpaid(session, first.deviceId)

  // 释放: the dialog names the consequence and wants a reason; refused in the dialog while the
  // renewal is open, naming it; released once the user has cancelled it
  await page.getByRole('button', { name: /释\s*放/ }).click()
  const dialog = page.getByRole('dialog', { name: `释放云手机「${first.name}」？` })
  await dialog.getByText(RELEASE_CONSEQUENCE).waitFor()
  report.push(...(await consoleAxeReport(page, 'release dialog')))
  await dialog.getByRole('button', { name: /释\s*放/ }).click()
  await dialog.getByText('请填写原因').waitFor()
  await dialog.getByLabel('原因（记入操作日志）').fill('用户申请提前释放')
  await screenshot(page, 'admin-device-release')
  await dialog.getByRole('button', { name: /释\s*放/ }).click()
  await dialog
    .getByRole('alert')
    .getByText(`该云手机有待支付的订单（${renewal}），请待用户支付或取消该订单后再操作`)
    .waitFor()
  report.push(...(await consoleAxeReport(page, 'release refused')))
  await screenshot(page, 'admin-device-release-refused')
  ok('cancel', await api('/order/cancel', { session, json: { orderNo: renewal } }))
  await dialog.getByRole('button', { name: /释\s*放/ }).click()
  await dialog.waitFor({ state: 'hidden' })
  await page.locator('.ant-descriptions-item-content').getByText('已释放').first().waitFor()
  await page.getByText('释放时间').waitFor()
  assert.equal(await page.getByRole('button', { name: /释\s*放/ }).count(), 0, 'released once')
  assert.deepEqual(
    (await fleetOf(session)).map((d) => d.deviceId),
    [second.deviceId],
    'the user no longer sees the released phone',
  )

  // 任务: the failed job, put back with 重试
  await page.getByRole('menu').first().getByText('任务', { exact: true }).click()
  await page.waitForURL('**/admin/jobs')
  const jobRow = rowOf(jobId)
  await jobRow.getByText('订单交付').waitFor()
  await jobRow.getByText(/bad fulfil-order payload/).waitFor()
  report.push(...(await consoleAxeReport(page, '任务')))
  await screenshot(page, 'admin-jobs')
  await jobRow.getByRole('link', { name: '重试' }).click()
  const retry = page.locator('.ant-popconfirm')
  await retry.getByText('任务将立即重新执行，尝试次数从 0 开始计算。').waitFor()
  await retry.getByRole('button', { name: /重\s*试/ }).click()
  await jobRow.waitFor({ state: 'detached' })

  // a phone that does not exist: the server's 4050 as 云手机不存在, with the way back and no 重试
  await page.goto('/admin/devices/99999999')
  await page.getByText('云手机不存在').waitFor()
  assert.equal(await page.getByRole('button', { name: '重试' }).count(), 0)
  await page.getByRole('button', { name: '返回云手机列表' }).click()
  await page.waitForURL('**/admin/devices')

  assert.deepEqual(report, [], `axe violations:\n${report.join('\n')}`)
  assert.deepEqual(errors, [])
})
