/**
 * Screens follow the server (docs/cloud-phones.md): a page showing server state follows what of the
 * user's the server says is in flux (/user/flux, scripted here as the server would move it) while it
 * is shown, and loads again when that changed — also a page loaded in the middle of the change, before
 * what the user expects is there: 我的云机 right after paying, with no phone yet.
 */
import { fluxAsks, paidOrder, server, settledFlux } from '../setup/flux'
import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import type { SpaceTask } from '@/types/api'
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
jest.mock('@/api/space', () => ({
  getSpaceInfo: jest.fn(),
  listSpaceHistory: jest.fn(),
  getDeviceSpace: jest.fn(),
}))

// many rounds of fake time each; the machine running the suite may be busy
jest.setTimeout(30_000)

const devices = deviceService as jest.Mocked<typeof deviceService>
const beans = wallet as jest.Mocked<typeof wallet>
const space = spaceService as jest.Mocked<typeof spaceService>
const DAY = 86_400_000

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
  const steps = Math.max(1, Math.ceil(ms / 250))
  for (let i = 0; i < steps; i += 1) {
    await act(async () => void jest.advanceTimersByTime(Math.min(ms, 250)))
    await act(async () => undefined)
  }
}

/** The phone list the server holds now; a test moves it on. */
let phones = page([])

beforeEach(() => {
  jest.clearAllMocks()
  jest.useFakeTimers()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'ok' } as never)
  devices.getCover.mockResolvedValue({ url: '/cover.png', updatedAt: 1 })
  phones = page([])
  devices.listDevices.mockImplementation(async () => phones)
})
afterEach(() => jest.useRealTimers())

describe('我的云机 loaded right after paying, before the phones exist', () => {
  it.each([1, 32])(
    'says %i phone(s) are being created, shows them 创建中 once delivered, then 运行中, then asks no more',
    async (quantity) => {
      server.flux = settledFlux({ fleetVersion: 0, paidOrders: [paidOrder('new', quantity)] })
      renderPage(<Home />, homeStores())
      await elapse(0)
      expect(screen.getByRole('status').textContent).toBe(`支付成功，${quantity}台云手机创建中…`)
      expect(screen.queryByText('您还没有云手机')).toBeNull()
      await elapse(3000) // still paid: the list is not read again
      expect(devices.listDevices).toHaveBeenCalledTimes(1)

      // delivered: the phones exist, creating
      const made = Array.from({ length: quantity }, (_, i) =>
        device({ deviceId: 100 + i, name: `云手机-${i}`, status: 0, statusName: '' }),
      )
      phones = page(made, 1, 1, quantity)
      server.flux = settledFlux({ fleetVersion: 1, busyPhones: quantity })
      await elapse(3500)
      expect(screen.getAllByText('● 创建中').length).toBeGreaterThan(0)
      expect(screen.queryByRole('status')).toBeNull()

      // provisioned: running
      phones = page(
        made.map((d) => ({ ...d, status: 1 })),
        1,
        1,
        quantity,
      )
      server.flux = settledFlux({ fleetVersion: 2 })
      await elapse(1500)
      expect(screen.getAllByText('● 运行中').length).toBeGreaterThan(0)
      expect(screen.queryByText('● 创建中')).toBeNull()
      await elapse(5000) // one more ask confirms it, then none
      const asks = fluxAsks.mock.calls.length
      await elapse(30_000)
      expect(fluxAsks).toHaveBeenCalledTimes(asks)
    },
  )

  it('shows a renewal’s new expiry once it is delivered', async () => {
    const phone = device({ expireAt: Date.now() + 3 * DAY + 3_600_000 })
    phones = page([phone])
    server.flux = settledFlux({ paidOrders: [paidOrder('renew')] })
    renderPage(<Home />, homeStores())
    await elapse(0)
    expect(screen.getByText('剩余3天1小时')).toBeTruthy()
    expect(screen.getByRole('status').textContent).toBe('续费已支付，到期时间更新中…')
    phones = page([{ ...phone, expireAt: phone.expireAt + 30 * DAY }])
    server.flux = settledFlux({ fleetVersion: 2 })
    await elapse(2500)
    expect(screen.getByText('剩余33天1小时')).toBeTruthy()
    expect(screen.queryByRole('status')).toBeNull()
  })

  it.each([
    ['an upgrade', 'upgrade', { level: 4 }, '至尊版'],
    ['the video edition', 'video', { videoEdition: true }, null],
    ['云豆转包月', 'timeToMonth', { expireAt: Date.now() + 40 * DAY }, /^剩余(39天23小时|40天)/],
  ] as const)(
    'paid for %s, then the phone changes on the server: shown without a reload',
    async (_what, kind, after, shown) => {
      const phone = device({ deviceId: 5, name: '主力机' })
      phones = page([phone])
      server.flux = settledFlux({ paidOrders: [paidOrder(kind)] })
      renderPage(<Home />, homeStores())
      await elapse(0)
      expect(screen.getByRole('status').textContent).toBe('支付成功，云手机更新中…')
      phones = page([{ ...phone, ...after }])
      server.flux = settledFlux({ fleetVersion: 2 })
      await elapse(2500)
      expect(devices.listDevices).toHaveBeenCalledTimes(2)
      if (shown) expect(screen.getByText(shown)).toBeTruthy()
      expect(screen.queryByRole('status')).toBeNull()
    },
  )

  it.each([
    [
      '更换地区',
      'changeZone',
      '正在更换地区，请稍后',
      { zoneId: 2, zoneName: '华南-广州' },
      '华南-广州',
    ],
    ['系统更新', 'systemUpdate', '正在更新系统，请稍后', { imageVersion: 'v2' }, '运行中'],
    ['更换云机', 'replace', '正在更换云机，请稍后', { name: '主力机' }, '运行中'],
  ] as const)(
    'a phone busy with %s is followed until the server says it is done',
    async (_what, op, text, after, shown) => {
      const busy = device({ deviceId: 6, name: '主力机', busy: true, busyOp: op, busyText: text })
      phones = page([busy])
      server.flux = settledFlux({ busyPhones: 1 })
      renderPage(<Home />, homeStores())
      await elapse(0)
      expect(screen.getByText(`● ${text}`)).toBeTruthy()
      await elapse(4000) // still busy on the server: the list is not read again
      expect(devices.listDevices).toHaveBeenCalledTimes(1)
      phones = page([{ ...busy, busy: false, busyOp: null, busyText: null, ...after }])
      server.flux = settledFlux({ fleetVersion: 2 })
      await elapse(5000)
      expect(screen.queryByText(`● ${text}`)).toBeNull()
      expect(screen.getAllByText(shown, { exact: false }).length).toBeGreaterThan(0)
    },
  )

  it('asks nothing while the page is hidden, and goes on when it shows again', async () => {
    server.flux = settledFlux({ paidOrders: [paidOrder('new')] })
    renderPage(<Home />, homeStores())
    await elapse(0)
    act(() => hidePage())
    const asks = fluxAsks.mock.calls.length
    await elapse(10_000)
    expect(fluxAsks).toHaveBeenCalledTimes(asks)
    act(() => showPage())
    await elapse(0)
    expect(fluxAsks).toHaveBeenCalledTimes(asks + 1)
  })

  it('a phone shown rebooting that the server has settled is read again (a page loaded mid-change)', async () => {
    phones = page([device({ deviceId: 3, status: 4, statusName: '' })])
    renderPage(<Home />, homeStores())
    await elapse(0)
    expect(screen.getByText('● 重启中')).toBeTruthy()
    phones = page([device({ deviceId: 3, status: 1, statusName: '' })])
    await elapse(1000)
    expect(screen.getByText('● 运行中')).toBeTruthy()
    const reads = devices.listDevices.mock.calls.length
    await elapse(30_000)
    expect(devices.listDevices).toHaveBeenCalledTimes(reads)
  })
})

describe('我的云豆 right after paying a recharge', () => {
  const packages = [{ id: 1, price: 600, beans: 600, bonus: 0 }]
  const balance = (beanBalance: number) => ({ balance: beanBalance, fenPerBean: 1, packages })

  async function openRecharge(beanBalance: number) {
    beans.getRechargePackages.mockResolvedValue(balance(beanBalance))
    beans.getAccountBalance.mockResolvedValue({ balance: 0, enabled: false })
    ;(couponService.getApplicableCoupons as jest.Mock).mockResolvedValue(null)
    renderPage(<Recharge />, {})
    await elapse(0)
  }

  it('says the credit is on its way and shows the new balance once it lands', async () => {
    server.flux = settledFlux({ paidOrders: [paidOrder('beanRecharge')] })
    await openRecharge(100)
    expect(screen.getByLabelText('云豆余额').textContent).toBe('100')
    expect(screen.getByRole('status').textContent).toBe('充值已支付，到账中…')
    beans.getRechargePackages.mockResolvedValue(balance(700))
    server.flux = settledFlux()
    await elapse(2500)
    expect(screen.getByLabelText('云豆余额').textContent).toBe('700')
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('shown again as the credit lands between its read and the first ask: the new balance all the same', async () => {
    await openRecharge(100)
    act(() => hidePage()) // on to pay/pay
    // shown again, with nothing changed: read once
    beans.getRechargePackages.mockClear()
    act(() => showPage())
    await elapse(3000)
    expect(beans.getRechargePackages).toHaveBeenCalledTimes(1)
    act(() => hidePage())

    // paid; 查看我的云豆: the page reads the balance before the credit, the first ask after it
    beans.getRechargePackages.mockClear()
    beans.getRechargePackages.mockImplementationOnce(async () => {
      server.flux = settledFlux({ walletVersion: 2 })
      return balance(100)
    })
    beans.getRechargePackages.mockResolvedValue(balance(700))
    act(() => showPage())
    await elapse(3000)
    expect(screen.getByLabelText('云豆余额').textContent).toBe('700')
    expect(beans.getRechargePackages).toHaveBeenCalledTimes(2)
  })
})

describe('云空间 right after paying for space', () => {
  it('loads the quota again once the space is granted', async () => {
    server.flux = settledFlux({ paidOrders: [paidOrder('cloudSpace')] })
    const info = { quotaBytes: 1024 ** 3, usedBytes: 0, devices: [], grants: [] }
    space.getSpaceInfo.mockResolvedValue(info)
    renderPage(<SpaceIndex />, {})
    await elapse(0)
    expect(screen.getByText('0 B / 1 GB')).toBeTruthy()
    expect(screen.getByRole('status').textContent).toBe('已支付，扩容中…')
    space.getSpaceInfo.mockResolvedValue({ ...info, quotaBytes: 11 * 1024 ** 3 })
    server.flux = settledFlux()
    await elapse(2500)
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
  it('opened during the restore, loads again quietly once it has ended, then asks no more', async () => {
    server.flux = settledFlux({ runningTasks: [5] })
    space.listSpaceHistory.mockResolvedValue(history(restore('running')))
    renderPage(<HistoryData />, {})
    await elapse(0)
    expect(screen.getByText('恢复中')).toBeTruthy()
    await elapse(5000) // still running: the list is not read again
    expect(space.listSpaceHistory).toHaveBeenCalledTimes(1)
    space.listSpaceHistory.mockResolvedValue(history(restore('done')))
    server.flux = settledFlux()
    await elapse(5000)
    expect(screen.getByText('恢复成功')).toBeTruthy()
    expect(space.listSpaceHistory).toHaveBeenLastCalledWith(1, undefined, 10, true)
    const asks = fluxAsks.mock.calls.length
    await elapse(30_000)
    expect(fluxAsks).toHaveBeenCalledTimes(asks)
    expect(space.listSpaceHistory).toHaveBeenCalledTimes(2)
  })

  it('a restore shown running that the server has already settled is read again at once', async () => {
    space.listSpaceHistory
      .mockResolvedValueOnce(history(restore('running')))
      .mockResolvedValue(history(restore('done')))
    renderPage(<HistoryData />, {})
    await elapse(0)
    await elapse(1000)
    expect(screen.getByText('恢复成功')).toBeTruthy()
  })

  it('数据中心 does not poll under another page, and reports the result when shown again', async () => {
    setRouteParams({ deviceId: '7' })
    server.flux = settledFlux({ runningTasks: [5] })
    const running = { ...restore('running'), status: 'running' as const }
    const base = { deviceId: 7, deviceName: '云机A', usedBytes: 0, quotaBytes: 1024 ** 3 }
    space.getDeviceSpace
      .mockResolvedValueOnce({ ...base, backups: [], running, lastRestore: running })
      .mockResolvedValue({ ...base, backups: [], running: null, lastRestore: restore('done') })
    renderPage(<DataCenter />, {})
    await elapse(0)
    expect(screen.getByText(/正在恢复数据/)).toBeTruthy()
    act(() => hidePage())
    const asks = fluxAsks.mock.calls.length
    server.flux = settledFlux()
    await elapse(10_000)
    expect(fluxAsks).toHaveBeenCalledTimes(asks)
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
