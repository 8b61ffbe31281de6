import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import ChangeZone from '@/pages/Device/changeZone'
import SelectChangeZone from '@/pages/Device/selectChangeZone'
import * as deviceService from '@/api/device'
import * as goods from '@/api/goods'
import { renderPage, setRouteParams } from '../page-harness'
import { device } from '../Home/fleet-fixtures'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/device', () => ({ getDevice: jest.fn(), changeZone: jest.fn() }))
jest.mock('@/api/goods', () => ({ getZones: jest.fn() }))

const api = deviceService as jest.Mocked<typeof deviceService>
const zones = goods.getZones as jest.Mock

beforeEach(() => {
  jest.clearAllMocks()
  setRouteParams({ deviceId: '7' })
  api.getDevice.mockResolvedValue(device({ deviceId: 7, name: '主力机', goodId: 11, zoneId: 1 }))
  zones.mockResolvedValue([
    { zoneId: 1, name: '华东-上海', inventoryStatus: 1, statusText: '充足' },
    { zoneId: 2, name: '华南-广州', inventoryStatus: 3, statusText: '紧张' },
    { zoneId: 3, name: '华北-北京', inventoryStatus: 4, statusText: '售罄' },
  ])
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'navigateBack').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([{}, {}, {}] as never)
  jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false } as never)
})

describe('更换地区', () => {
  it('shows the current zone and the data-migration warning, then opens the zone list', async () => {
    renderPage(<ChangeZone />, {})
    expect(await screen.findByText('华东-上海')).toBeTruthy()
    expect(screen.getByRole('note').textContent).toMatch(/数据.*无法保证全部保留/)
    fireEvent.click(screen.getByText('选择新地区'))
    expect(Taro.navigateTo).toHaveBeenCalledWith({
      url: '/pages/Device/selectChangeZone?deviceId=7',
    })
  })

  it('lists the zones of the phone goods with stock; the current and sold-out ones cannot be chosen', async () => {
    renderPage(<SelectChangeZone />, {})
    await screen.findByText('华南-广州')
    expect(zones).toHaveBeenCalledWith(11)
    expect(screen.getByText('当前地区')).toBeTruthy()
    expect(screen.getByText('紧张')).toBeTruthy()
    expect(screen.getByRole('button', { name: /华北-北京/ }).getAttribute('aria-disabled')).toBe(
      'true',
    )
    fireEvent.click(screen.getByRole('button', { name: /华北-北京/ }))
    fireEvent.click(screen.getByRole('button', { name: /华东-上海/ }))
    expect(Taro.showModal).not.toHaveBeenCalled()
  })

  it('moves the phone after a confirmation and goes back to the fleet', async () => {
    api.changeZone.mockResolvedValue({ ok: true, data: device({ deviceId: 7 }) })
    renderPage(<SelectChangeZone />, {})
    fireEvent.click(await screen.findByRole('button', { name: /华南-广州/ }))
    await waitFor(() => expect(api.changeZone).toHaveBeenCalledWith(7, 2))
    await waitFor(() => expect(Taro.navigateBack).toHaveBeenCalledWith({ delta: 2 }))
  })
})
