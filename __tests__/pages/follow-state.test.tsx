/**
 * Screens follow the state they show (issue 25 point 9): an order the pay page saw paid is followed by
 * the page showing what it changes, while that page is shown, and the page loads again once it is
 * delivered; a running restore is followed on 备份与恢复记录; the pay page leads to what was bought.
 */
import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import type { OrderInfo, SpaceTask } from '../../types/api'
import Home from '@/pages/Home'
import OrderResult from '@/pages/pay/parts/OrderResult'
import HistoryData from '@/pages/Space/HistoryData'
import DataCenter from '@/pages/Space/DataCenter'
import SpaceIndex from '@/pages/Space/index'
import Recharge from '@/pages/user/recharge'
import * as couponService from '@/api/coupon'
import * as deviceService from '@/api/device'
import * as spaceService from '@/api/space'
import * as wallet from '@/api/wallet'
import { AppStore } from '@/stores/app-store'
import { FleetStore } from '@/stores/fleet-store'
import { paidOrders, type OrderSnapshot } from '@/stores/paid-orders-store'
import { hidePage, renderPage, setRouteParams, showPage } from './page-harness'
import { memoryStorage } from '../stores/helpers'
import { order as orderInfo } from './buying/fixtures'
import { device, page } from './Home/fleet-fixtures'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('./page-harness')>('./page-harness').mockTaro(),
)
jest.mock('@/api/device', () => ({
  listDevices: jest.fn(),
  getDevice: jest.fn(),
  getCover: jest.fn(),
}))
jest.mock('@/api/wallet', () => ({
  getRechargePackages: jest.fn(),
  getAccountBalance: jest.fn(),
}))
jest.mock('@/api/coupon', () => ({ getApplicableCoupons: jest.fn() }))
// the app's one paid-orders store, asking this mock instead of the server
const mockGetOrder = jest.fn()
jest.mock('@/stores/paid-orders-store', () => {
  const actual = jest.requireActual<typeof import('@/stores/paid-orders-store')>(
    '@/stores/paid-orders-store',
  )
  const getOrder = (orderNo: string) => mockGetOrder(orderNo) as Promise<OrderSnapshot>
  return { ...actual, paidOrders: new actual.PaidOrdersStore({ getOrder, now: () => Date.now() }) }
})
jest.mock('@/api/space', () => ({
  getSpaceInfo: jest.fn(),
  listSpaceHistory: jest.fn(),
  getDeviceSpace: jest.fn(),
}))

const devices = deviceService as jest.Mocked<typeof deviceService>
const beans = wallet as jest.Mocked<typeof wallet>
const space = spaceService as jest.Mocked<typeof spaceService>
const DAY = 86_400_000

/** What the pay page saw (paid), and what each later ask answers (the last one from then on). */
function follow(seen: OrderSnapshot, ...answers: OrderSnapshot[]) {
  paidOrders.reset()
  const last = answers[answers.length - 1] ?? seen
  mockGetOrder.mockImplementation(async () => answers.shift() ?? last)
  paidOrders.note(seen)
  return { getOrder: mockGetOrder }
}

const snapshot = (kind: OrderInfo['kind'], status: number, quantity = 1): OrderSnapshot => ({
  orderNo: 'CP20261126000001',
  kind,
  status,
  quantity,
})

function homeStores() {
  const { storage } = memoryStorage()
  const app = new AppStore(storage)
  const group = { listGroups: jest.fn().mockResolvedValue({ groups: [], ungroupedCount: 0 }) }
  const common = { getDeviceStatusList: jest.fn().mockResolvedValue([]) }
  const fleet = new FleetStore({ api: { device: devices, group, common } as never, storage, app })
  const session = { isLoggedIn: true, token: 't', renewMsg: '', userInfo: { userId: 1 } }
  return { app, fleet, session }
}

/** Lets the timers run `ms` on, with every answer they wait for. */
async function elapse(ms: number) {
  const steps = Math.max(1, Math.ceil(ms / 500))
  for (let i = 0; i < steps; i += 1) {
    await act(async () => void jest.advanceTimersByTime(Math.min(ms, 500)))
    await act(async () => undefined)
  }
}

beforeEach(() => {
  jest.clearAllMocks()
  paidOrders.reset()
  jest.useFakeTimers()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'ok' } as never)
  devices.getCover.mockResolvedValue({ url: '/cover.png', updatedAt: 1 })
})
afterEach(() => jest.useRealTimers())

describe('我的云机 right after paying', () => {
  it('says the new phone is being created, shows it 创建中 once delivered, then 运行中', async () => {
    const { getOrder } = follow(snapshot('new', 1), snapshot('new', 1), snapshot('new', 2))
    const creating = device({ deviceId: 9, name: '云手机-9', status: 0, statusName: '' })
    devices.listDevices.mockResolvedValueOnce(page([])).mockResolvedValue(page([creating]))
    devices.getDevice.mockResolvedValue({ ...creating, status: 1, statusName: '' })
    renderPage(<Home />, homeStores())
    await elapse(0)
    expect(screen.getByRole('status').textContent).toBe('支付成功，1台云手机创建中…')
    expect(screen.queryByText('您还没有云手机')).toBeNull()

    await elapse(2000) // still paid
    expect(getOrder).toHaveBeenCalledTimes(1)
    expect(devices.listDevices).toHaveBeenCalledTimes(1)
    await elapse(2000) // delivered: the list loads again
    expect(devices.listDevices).toHaveBeenCalledTimes(2)
    expect(screen.getByText('● 创建中')).toBeTruthy()
    expect(screen.queryByRole('status')).toBeNull()
    await elapse(3000) // the creating phone is polled on
    expect(screen.getByText('● 运行中')).toBeTruthy()
    await elapse(10_000)
    expect(getOrder).toHaveBeenCalledTimes(2) // final: no more asks
  })

  it('shows a renewal’s new expiry once it is delivered', async () => {
    follow(snapshot('renew', 1), snapshot('renew', 2))
    const phone = device({ expireAt: Date.now() + 3 * DAY + 3_600_000 })
    devices.listDevices
      .mockResolvedValueOnce(page([phone]))
      .mockResolvedValue(page([{ ...phone, expireAt: phone.expireAt + 30 * DAY }]))
    renderPage(<Home />, homeStores())
    await elapse(0)
    expect(screen.getByText('剩余3天1小时')).toBeTruthy()
    expect(screen.getByRole('status').textContent).toBe('续费已支付，到期时间更新中…')
    await elapse(2000)
    expect(screen.getByText('剩余33天1小时')).toBeTruthy()
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('asks nothing while the page is hidden, and goes on when it shows again', async () => {
    const { getOrder } = follow(snapshot('new', 1), snapshot('new', 2))
    devices.listDevices.mockResolvedValue(page([]))
    renderPage(<Home />, homeStores())
    await elapse(0)
    act(() => hidePage())
    await elapse(10_000)
    expect(getOrder).not.toHaveBeenCalled()
    act(() => showPage())
    await elapse(2000)
    expect(getOrder).toHaveBeenCalledTimes(1)
  })
})

describe('我的云豆 right after paying a recharge', () => {
  it('says the credit is on its way and shows the new balance once it lands', async () => {
    follow(snapshot('beanRecharge', 1), snapshot('beanRecharge', 1), snapshot('beanRecharge', 2))
    const packages = [{ id: 1, price: 600, beans: 600, bonus: 0 }]
    beans.getRechargePackages
      .mockResolvedValueOnce({ balance: 100, fenPerBean: 1, packages })
      .mockResolvedValue({ balance: 700, fenPerBean: 1, packages })
    beans.getAccountBalance.mockResolvedValue({ balance: 0, enabled: false })
    ;(couponService.getApplicableCoupons as jest.Mock).mockResolvedValue(null)
    renderPage(<Recharge />, {})
    await elapse(0)
    expect(screen.getByLabelText('云豆余额').textContent).toBe('100')
    expect(screen.getByRole('status').textContent).toBe('充值已支付，到账中…')
    await elapse(4000)
    expect(screen.getByLabelText('云豆余额').textContent).toBe('700')
    expect(screen.queryByRole('status')).toBeNull()
  })
})

describe('云空间 right after paying for space', () => {
  it('loads the quota again once the space is granted', async () => {
    follow(snapshot('cloudSpace', 1), snapshot('cloudSpace', 2))
    const info = { quotaBytes: 1024 ** 3, usedBytes: 0, devices: [], grants: [] }
    space.getSpaceInfo
      .mockResolvedValueOnce(info)
      .mockResolvedValue({ ...info, quotaBytes: 11 * 1024 ** 3 })
    renderPage(<SpaceIndex />, {})
    await elapse(0)
    expect(screen.getByText('0 B / 1 GB')).toBeTruthy()
    expect(screen.getByRole('status').textContent).toBe('已支付，扩容中…')
    await elapse(2000)
    expect(screen.getByText('0 B / 11 GB')).toBeTruthy()
  })
})

const restore = (status: SpaceTask['status']): SpaceTask => ({
  id: 5,
  kind: 'restore',
  backupId: 4,
  deviceId: 7,
  deviceName: '云机A',
  status,
  sizeBytes: 0,
  failCode: null,
  failReason: null,
  deleted: false,
  createdAt: Date.UTC(2026, 10, 26, 2, 0),
  finishedAt: null,
})
const history = (task: SpaceTask) => ({ records: [task], page: 1, totalPage: 1, total: 1 })

describe('备份与恢复记录 while a restore runs', () => {
  it('loads again, quietly, until the restore has ended', async () => {
    space.listSpaceHistory
      .mockResolvedValueOnce(history(restore('running')))
      .mockResolvedValueOnce(history(restore('running')))
      .mockResolvedValue(history(restore('done')))
    renderPage(<HistoryData />, {})
    await elapse(0)
    expect(screen.getByText('恢复中')).toBeTruthy()
    await elapse(4000)
    expect(screen.getByText('恢复成功')).toBeTruthy()
    expect(space.listSpaceHistory).toHaveBeenLastCalledWith(1, undefined, 10, true)
    await elapse(10_000)
    expect(space.listSpaceHistory).toHaveBeenCalledTimes(3)
  })

  it('数据中心 does not poll under another page, and reports the result when shown again', async () => {
    setRouteParams({ deviceId: '7' })
    const running = { ...restore('running'), status: 'running' as const }
    const base = { deviceId: 7, deviceName: '云机A', usedBytes: 0, quotaBytes: 1024 ** 3 }
    space.getDeviceSpace
      .mockResolvedValueOnce({ ...base, backups: [], running, lastRestore: running })
      .mockResolvedValue({ ...base, backups: [], running: null, lastRestore: restore('done') })
    renderPage(<DataCenter />, {})
    await elapse(0)
    expect(screen.getByText(/正在恢复数据/)).toBeTruthy()
    act(() => hidePage())
    await elapse(10_000)
    expect(space.getDeviceSpace).toHaveBeenCalledTimes(1)
    expect(Taro.showToast).not.toHaveBeenCalled()
    act(() => showPage())
    await elapse(0)
    expect(Taro.showToast).toHaveBeenCalledWith(expect.objectContaining({ title: '恢复成功' }))
  })
})

describe('the pay page leads to what was bought', () => {
  it.each([
    ['new', '查看我的云机', 'switchTab', '/pages/Home/index'],
    ['renew', '查看续费的云机', 'switchTab', '/pages/Home/index'],
    ['beanRecharge', '查看我的云豆', 'navigateTo', '/pages/user/recharge'],
    ['balanceRecharge', '查看账户余额', 'navigateTo', '/pages/user/recharge'],
    ['cloudSpace', '查看云空间', 'navigateTo', '/pages/Space/index'],
  ] as const)('%s (paid, still being delivered) → %s', (kind, label, how, url) => {
    renderPage(<OrderResult order={orderInfo({ kind, status: 1 })} />, {})
    fireEvent.click(screen.getByText(label))
    expect(Taro[how]).toHaveBeenCalledWith(expect.objectContaining({ url }))
  })
})
