import { fireEvent, screen, waitFor, within } from '@testing-library/react'
import Taro from '@tarojs/taro'
import Home from '@/pages/Home'
import * as deviceService from '@/api/device'
import { AppStore } from '@/stores/app-store'
import { DENSE_KEY, FleetStore, VIEW_TYPE_KEY } from '@/stores/fleet-store'
import { renderPage, typeInto } from '../page-harness'
import { memoryStorage } from '../../stores/helpers'
import { device, page } from './fleet-fixtures'
import { ApiError } from '@/runtime/api-error'

jest.mock('@tarojs/taro', () => {
  const mocked = jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro()
  // the page stays shown for the whole test
  const useDidHide = () => undefined
  Object.assign(mocked.default, { useDidHide })
  return { ...mocked, useDidHide }
})
jest.mock('@/api/device', () => ({
  listDevices: jest.fn(),
  getDevice: jest.fn(),
  batchCommand: jest.fn(),
  getCover: jest.fn(),
  sendCommand: jest.fn(),
  renameDevice: jest.fn(),
}))

const api = deviceService as jest.Mocked<typeof deviceService>
const DAY = 86_400_000

function stores(options: { loggedIn?: boolean; storage?: Record<string, unknown> } = {}) {
  const { storage } = memoryStorage(options.storage)
  const app = new AppStore(storage)
  const group = {
    listGroups: jest.fn().mockResolvedValue({
      groups: [{ groupId: 4, name: '工作室', sort: 0, deviceCount: 2 }],
      ungroupedCount: 1,
      totalCount: 3,
    }),
  }
  const common = {
    getDeviceStatusList: jest.fn().mockResolvedValue([
      { status: 1, name: '运行中', color: '#007d59' },
      { status: 2, name: '已到期', color: '#cb2634' },
    ]),
  }
  const fleet = new FleetStore({ api: { device: api, group, common } as never, storage, app })
  const session = {
    isLoggedIn: options.loggedIn ?? true,
    token: 't',
    renewMsg: '设备已到期，系统将为您保留2小时，请及时续费',
    userInfo: { userId: 1 },
  }
  return { app, fleet, session, group }
}

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'switchTab').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
  api.getCover.mockResolvedValue({ url: '/cover.png', updatedAt: 1 })
})

describe('我的云机', () => {
  it('invites a logged-out visitor to log in and loads nothing', () => {
    const s = stores({ loggedIn: false })
    renderPage(<Home />, s)
    expect(screen.getByText('登录后查看您的云手机')).toBeTruthy()
    fireEvent.click(screen.getByText('登录 / 注册'))
    expect(Taro.navigateTo).toHaveBeenCalledWith({
      url: `/pages/login/login?redirect=${encodeURIComponent('/pages/Home/index')}`,
    })
    expect(api.listDevices).not.toHaveBeenCalled()
  })

  it('shows the empty state with 去创建云机 when the user has no phones', async () => {
    api.listDevices.mockResolvedValue(page([]))
    renderPage(<Home />, stores())
    await screen.findByText('您还没有云手机')
    // the line breaks at its comma, not inside 重启
    expect(screen.getByText('购买后，云手机会出现在这里')).toBeTruthy()
    expect(screen.getByText('可随时进入、重启和续费')).toBeTruthy()
    fireEvent.click(screen.getByText('去创建云机'))
    expect(Taro.switchTab).toHaveBeenCalledWith({ url: '/pages/Home/create' })
  })

  it('a failed load offers 重新加载, and a frozen account 联系客服 instead', async () => {
    api.listDevices.mockRejectedValueOnce(new ApiError(1080, '服务繁忙'))
    api.listDevices.mockResolvedValueOnce(page([]))
    const first = renderPage(<Home />, stores())
    await screen.findByText('服务繁忙')
    fireEvent.click(screen.getByText('重新加载'))
    await screen.findByText('您还没有云手机')
    first.unmount()

    api.listDevices.mockRejectedValueOnce(new ApiError(1057, '账号已被冻结'))
    renderPage(<Home />, stores())
    await screen.findByText('账号已被冻结')
    expect(screen.queryByText('重新加载')).toBeNull()
    fireEvent.click(screen.getByText('联系客服'))
    expect(Taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/CustomerService/index' })
  })

  it('shows one phone large with level, zone, status colour, remaining time and its actions', async () => {
    api.listDevices.mockResolvedValue(
      page([
        device({ deviceId: 1, name: '主力机', expireAt: Date.now() + 5 * DAY + 3_600_000 }),
        device({ deviceId: 2, name: '备用机' }),
      ]),
    )
    renderPage(<Home />, stores())
    await screen.findByText('主力机')
    expect(screen.getByText('旗舰版')).toBeTruthy()
    expect(screen.getByText('华东-上海')).toBeTruthy()
    await waitFor(() => expect(screen.getByText('● 运行中').style.color).toBe('rgb(0, 125, 89)'))
    expect(screen.getByText(/^剩余5天/)).toBeTruthy()
    expect(screen.getByText('1 / 2')).toBeTruthy()
    expect(screen.getByText('进入')).toBeTruthy()
    expect(screen.getByText('重启')).toBeTruthy()
    // no upOrDownConfig permission on this goods: no 升降配 button
    expect(screen.queryByText('升降配')).toBeNull()
    fireEvent.click(screen.getByLabelText('下一台'))
    expect(screen.getByText('备用机')).toBeTruthy()
  })

  it('shows renewalReminderMsg on an expired phone and only the actions it allows', async () => {
    api.listDevices.mockResolvedValue(
      page([device({ name: '过期机', status: 2, expireAt: Date.now() - 60_000 })]),
    )
    renderPage(<Home />, stores())
    await screen.findByText('过期机')
    expect(screen.getByRole('alert').textContent).toBe(
      '设备已到期，系统将为您保留2小时，请及时续费',
    )
    expect(screen.queryByText('进入')).toBeNull()
    expect(screen.queryByText('重启')).toBeNull()
    expect(screen.getByText('续费')).toBeTruthy()
  })

  it('a phone shared 仅查看 offers 进入 (its screen, without controls) and nothing else', async () => {
    api.listDevices.mockResolvedValue(
      page([
        device({
          name: '朋友的机',
          grant: { permission: 1, expiresAt: Date.now() + DAY, ownerMobile: '136****0001' },
        }),
      ]),
    )
    renderPage(<Home />, stores())
    await screen.findByText('朋友的机')
    expect(screen.getByText('已授权·仅查看')).toBeTruthy()
    expect(screen.getByText('进入')).toBeTruthy()
    expect(screen.queryByText('重启')).toBeNull()
    expect(screen.queryByText('续费')).toBeNull()
  })

  it('warns about a phone expiring within three days', async () => {
    api.listDevices.mockResolvedValue(page([device({ expireAt: Date.now() + DAY })]))
    renderPage(<Home />, stores())
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toMatch(/^云手机将于.+到期，请及时续费$/),
    )
  })

  it('reloads from page 1 with the version filter and the search keyword', async () => {
    api.listDevices.mockResolvedValue(page([device()]))
    renderPage(<Home />, stores())
    await screen.findByText('云手机-0001')
    fireEvent.click(screen.getByText('安卓10/H'))
    await waitFor(() =>
      expect(api.listDevices).toHaveBeenLastCalledWith({ version: 2 }, 1, 50, { loading: false }),
    )
    typeInto(document.body, '搜索云手机', ' 0001 ')
    const search = document.querySelector('taro-input-core[aria-label="搜索云手机"]')!
    fireEvent(search, new CustomEvent('confirm', { detail: { value: ' 0001 ' } }))
    await waitFor(() =>
      expect(api.listDevices).toHaveBeenLastCalledWith({ version: 2, keyword: '0001' }, 1, 50, {
        loading: false,
      }),
    )
  })

  it('batch-reboots the selected phones in multi view and lists the failures', async () => {
    api.listDevices.mockResolvedValue(
      page([
        device({ deviceId: 1, name: '一号' }),
        device({ deviceId: 2, name: '二号' }),
        device({ deviceId: 3, name: '三号' }),
      ]),
    )
    api.batchCommand.mockResolvedValue([
      { deviceId: 1, ok: true, msg: '' },
      { deviceId: 2, ok: true, msg: '' },
      { deviceId: 3, ok: false, msg: '云手机重启中，请稍后' },
    ])
    jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false } as never)
    renderPage(<Home />, stores({ storage: { [VIEW_TYPE_KEY]: 1 } }))
    await screen.findByLabelText('一号')
    fireEvent.click(screen.getByText('多选'))
    for (const name of ['一号', '二号', '三号']) fireEvent.click(screen.getByLabelText(name))
    expect(screen.getByText('已选3台')).toBeTruthy()
    fireEvent.click(screen.getByText('重启'))
    await waitFor(() => expect(api.batchCommand).toHaveBeenCalledWith([1, 2, 3], 'Reboot'))
    const result = await screen.findByText('2台成功，1台失败')
    const dialog = result.parentElement as HTMLElement
    expect(within(dialog).getByText('云手机重启中，请稍后')).toBeTruthy()
    expect(within(dialog).getByText('三号')).toBeTruthy()
  })

  it('紧凑 shows small tiles of name and status without screenshots, remembered on the device', async () => {
    api.listDevices.mockResolvedValue(
      page([
        device({ deviceId: 1, name: '一号' }),
        device({ deviceId: 2, name: '二号', status: 2, expireAt: Date.now() - 60_000 }),
      ]),
    )
    const s = stores({ storage: { [VIEW_TYPE_KEY]: 1 } })
    renderPage(<Home />, s)
    await screen.findByLabelText('一号的画面')
    fireEvent.click(screen.getByText('紧凑'))
    expect(screen.getByRole('button', { name: '紧凑' }).getAttribute('aria-pressed')).toBe('true')
    expect(screen.queryByLabelText('一号的画面')).toBeNull()
    const tile = screen.getByRole('button', { name: '二号' })
    await waitFor(() => expect(within(tile).getByText('● 已到期')).toBeTruthy())
    expect(within(tile).getByText('已到期')).toBeTruthy()
    expect(within(screen.getByRole('button', { name: '一号' })).getByText(/^剩余/)).toBeTruthy()
    expect(s.fleet.dense).toBe(true)
    // tapping a tile opens the phone's actions, as the card does
    fireEvent.click(tile)
    expect(await screen.findByText('续费')).toBeTruthy()
  })

  it('紧凑 renders only the rows on screen and ticks a tile in 多选', async () => {
    const phones = Array.from({ length: 300 }, (_, i) =>
      device({ deviceId: i + 1, name: `云手机-${String(i + 1).padStart(4, '0')}` }),
    )
    api.listDevices.mockResolvedValue(page(phones, 1, 1, 300))
    renderPage(<Home />, stores({ storage: { [VIEW_TYPE_KEY]: 1, [DENSE_KEY]: 1 } }))
    await screen.findByLabelText('云手机-0001')
    const tiles = screen.getAllByRole('button', { name: /^云手机-\d{4}$/ })
    // jsdom's 1024×768 window: four columns of tiles; rows on screen plus two either side
    expect(tiles.length).toBeGreaterThanOrEqual(12)
    expect(tiles.length).toBeLessThan(60)
    expect(screen.queryByLabelText('云手机-0300')).toBeNull()
    expect(api.getCover).not.toHaveBeenCalled()
    fireEvent.click(screen.getByText('多选'))
    fireEvent.click(screen.getByLabelText('云手机-0002'))
    expect(screen.getByLabelText('云手机-0002').getAttribute('aria-pressed')).toBe('true')
    expect(screen.getByText('已选1台')).toBeTruthy()
  })

  it('按状态 ticks every phone of a status, loading the pages not read yet', async () => {
    const phones = Array.from({ length: 120 }, (_, i) =>
      device({
        deviceId: i + 1,
        name: `云手机-${String(i + 1).padStart(4, '0')}`,
        // one in three expired, one in four of the rest with two days left
        status: i % 3 === 0 ? 2 : 1,
        expireAt: i % 3 === 0 ? Date.now() - 60_000 : Date.now() + (i % 4 === 0 ? 2 : 20) * DAY,
      }),
    )
    api.listDevices.mockImplementation((_query, pageNo, rows) =>
      Promise.resolve(
        page(phones.slice((pageNo - 1) * rows, pageNo * rows), pageNo, Math.ceil(120 / rows), 120),
      ),
    )
    renderPage(<Home />, stores({ storage: { [VIEW_TYPE_KEY]: 1, [DENSE_KEY]: 1 } }))
    await screen.findByLabelText('云手机-0001')
    fireEvent.click(screen.getByText('多选'))
    const pick = (label: string) => {
      fireEvent.click(screen.getByText('按状态'))
      const sheet = screen.getByRole('dialog', { name: '按状态全选' })
      fireEvent.click(within(sheet).getByRole('button', { name: label }))
    }
    pick('已到期')
    expect(await screen.findByText('已选40台')).toBeTruthy()
    expect(api.listDevices).toHaveBeenCalledWith({}, 2, 100)
    pick('7天内到期')
    const soon = phones.filter((_, i) => i % 3 !== 0 && i % 4 === 0).length
    expect(await screen.findByText(`已选${soon}台`)).toBeTruthy()
  })

  it('按状态 says so when no phone has that status', async () => {
    api.listDevices.mockResolvedValue(page([device({ deviceId: 1, name: '一号' })]))
    renderPage(<Home />, stores({ storage: { [VIEW_TYPE_KEY]: 1 } }))
    await screen.findByLabelText('一号')
    fireEvent.click(screen.getByText('多选'))
    fireEvent.click(screen.getByLabelText('一号'))
    fireEvent.click(screen.getByText('按状态'))
    fireEvent.click(within(screen.getByRole('dialog')).getByText('已到期'))
    await waitFor(() =>
      expect(Taro.showToast).toHaveBeenCalledWith(
        expect.objectContaining({ title: '没有已到期的云手机' }),
      ),
    )
    expect(screen.getByText('已选0台')).toBeTruthy()
  })

  it('fetches covers only for running phones on screen', async () => {
    api.listDevices.mockResolvedValue(
      page([
        device({ deviceId: 1, name: '一号' }),
        device({ deviceId: 2, name: '二号', status: 0 }),
      ]),
    )
    renderPage(<Home />, stores({ storage: { [VIEW_TYPE_KEY]: 1 } }))
    await screen.findByLabelText('一号')
    await waitFor(() => expect(api.getCover).toHaveBeenCalledWith(1))
    expect(api.getCover).not.toHaveBeenCalledWith(2)
  })

  it('renames a phone through the prompt and shows the new name', async () => {
    api.listDevices.mockResolvedValue(page([device({ deviceId: 3, name: '旧名字' })]))
    api.renameDevice.mockResolvedValue(null)
    renderPage(<Home />, stores())
    await screen.findByText('旧名字')
    fireEvent.click(screen.getByText('重命名'))
    typeInto(document.body, '云手机名称', '机'.repeat(21))
    fireEvent.click(screen.getByText('确定'))
    expect((await screen.findByRole('alert')).textContent).toBe('云手机名称不能超过20个字') // in the dialog
    expect(api.renameDevice).not.toHaveBeenCalled()
    typeInto(document.body, '云手机名称', ' 新名字 ')
    fireEvent.click(screen.getByText('确定'))
    await waitFor(() => expect(api.renameDevice).toHaveBeenCalledWith(3, '新名字'))
    expect(await screen.findByText('新名字')).toBeTruthy()
  })

  it('opens a URL on the phone only when it is a web address', async () => {
    api.listDevices.mockResolvedValue(page([device({ deviceId: 3 })]))
    api.sendCommand.mockResolvedValue({ deviceId: 3, ok: true, msg: '' })
    api.getDevice.mockResolvedValue(device({ deviceId: 3 }))
    renderPage(<Home />, stores())
    await screen.findByText('云手机-0001')
    fireEvent.click(screen.getByText('打开网址'))
    typeInto(document.body, '网址', 'example')
    fireEvent.click(screen.getByText('确定'))
    expect((await screen.findByRole('alert')).textContent).toBe(
      '请输入正确的网址（以http://或https://开头）',
    ) // in the dialog
    expect(api.sendCommand).not.toHaveBeenCalled()
    typeInto(document.body, '网址', 'https://example.com')
    fireEvent.click(screen.getByText('确定'))
    await waitFor(() =>
      expect(api.sendCommand).toHaveBeenCalledWith({
        deviceId: 3,
        command: 'OpenUrl',
        url: 'https://example.com',
      }),
    )
  })

  it('asks before a reboot and sends nothing when cancelled', async () => {
    api.listDevices.mockResolvedValue(page([device({ deviceId: 3 })]))
    jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: false, cancel: true } as never)
    renderPage(<Home />, stores())
    await screen.findByText('云手机-0001')
    fireEvent.click(screen.getByText('重启'))
    await waitFor(() => expect(Taro.showModal).toHaveBeenCalled())
    expect(api.sendCommand).not.toHaveBeenCalled()
  })
})
