import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import Empower from '@/pages/Device/empower'
import { checkGrantForm } from '@/pages/Device/parts/empower/grant-rules'
import * as deviceService from '@/api/device'
import * as grantService from '@/api/grant'
import { renderPage, setRouteParams, typeInto } from '../page-harness'
import { device } from '../Home/fleet-fixtures'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/device', () => ({ getDevice: jest.fn() }))
jest.mock('@/api/grant', () => ({
  grantDevices: jest.fn(),
  listGrants: jest.fn(),
  revokeGrants: jest.fn(),
  createShare: jest.fn(),
}))

const devices = deviceService as jest.Mocked<typeof deviceService>
const api = grantService as jest.Mocked<typeof grantService>
const OWN = '13600000001'
const stores = () => ({
  session: { mobilePhone: OWN, loadUserInfo: jest.fn().mockResolvedValue(undefined) },
})
const lastToast = () => (Taro.showToast as jest.Mock).mock.calls.at(-1)?.[0]?.title
const grantRow = {
  grantId: 5,
  deviceId: 7,
  deviceName: '云手机-7',
  permission: 2,
  expiresAt: Date.UTC(2026, 10, 29, 4),
  createdAt: Date.UTC(2026, 10, 22, 4),
  otherMobile: '136****0002',
}

beforeEach(() => {
  jest.clearAllMocks()
  setRouteParams({ deviceIds: '7' })
  devices.getDevice.mockResolvedValue(device({ deviceId: 7, name: '云手机-7' }))
  api.listGrants.mockResolvedValue({ records: [grantRow], page: 1, totalPage: 1, total: 1 })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false } as never)
})

describe('grant form rules', () => {
  it('needs phones and a valid number that is not mine', () => {
    const valid = { deviceCount: 1, mobilePhone: '13600000002', ownMobile: OWN }
    expect(checkGrantForm(valid)).toBeNull()
    expect(checkGrantForm({ ...valid, deviceCount: 0 })).toBe('请选择要授权的云手机')
    expect(checkGrantForm({ ...valid, mobilePhone: OWN })).toBe('不能授权给自己')
    expect(checkGrantForm({ ...valid, mobilePhone: '136' })).toMatch('手机号')
  })
})

describe('授权管理', () => {
  it('authorises the chosen phone with the chosen permission and days, then lists it', async () => {
    api.grantDevices.mockResolvedValue({ count: 1, expiresAt: 0, granteeMobile: '136****0002' })
    const { container } = renderPage(<Empower />, stores())
    expect(await screen.findByText('授权的云手机（1台）')).toBeTruthy()
    fireEvent.click(screen.getByRole('radio', { name: '仅查看' }))
    fireEvent.click(screen.getByRole('radio', { name: '30天' }))
    typeInto(container, '被授权人手机号', '13600000002')
    fireEvent.click(screen.getByText('确认授权'))
    await waitFor(() =>
      expect(api.grantDevices).toHaveBeenCalledWith({
        deviceIds: [7],
        mobilePhone: '13600000002',
        permission: 1,
        days: 30,
      }),
    )
    expect((Taro.showModal as jest.Mock).mock.calls[0][0].content).toMatch(
      /授权给 136\*\*\*\*0002，仅查看，30天/,
    )
    expect(await screen.findByText('撤销授权')).toBeTruthy()
    expect(api.listGrants).toHaveBeenCalledWith('out', 1, expect.any(Number))
  })

  it('refuses to authorise to my own number without calling the server', async () => {
    const { container } = renderPage(<Empower />, stores())
    await screen.findByText('授权的云手机（1台）')
    typeInto(container, '被授权人手机号', OWN)
    fireEvent.click(screen.getByText('确认授权'))
    expect(lastToast()).toBe('不能授权给自己')
    expect(api.grantDevices).not.toHaveBeenCalled()
  })

  it('shows a share QR code for the chosen permission and days', async () => {
    api.createShare.mockResolvedValue({
      code: 'abc',
      text: 'cloudphone:share:abc',
      qrImage: 'data:image/png;base64,AAAA',
      expiresAt: Date.UTC(2026, 10, 23, 4),
    })
    renderPage(<Empower />, stores())
    await screen.findByText('授权的云手机（1台）')
    fireEvent.click(screen.getByText('生成分享二维码'))
    expect(await screen.findByText('扫码接受授权')).toBeTruthy()
    expect(api.createShare).toHaveBeenCalledWith({ deviceIds: [7], permission: 2, days: 7 })
  })

  it('revokes a grant after a confirmation and reloads the list', async () => {
    setRouteParams({})
    api.revokeGrants.mockResolvedValue({ count: 1 })
    renderPage(<Empower />, stores())
    fireEvent.click(await screen.findByText('撤销授权'))
    await waitFor(() => expect(api.revokeGrants).toHaveBeenCalledWith([5]))
    expect((Taro.showModal as jest.Mock).mock.calls[0][0].content).toMatch(
      /136\*\*\*\*0002 将立即无法使用「云手机-7」/,
    )
    await waitFor(() => expect(api.listGrants).toHaveBeenCalledTimes(2))
  })

  it('shows what others authorised to me, without revoke', async () => {
    setRouteParams({})
    renderPage(<Empower />, stores())
    await screen.findByText('撤销授权')
    fireEvent.click(screen.getByRole('tab', { name: '授权给我的' }))
    await waitFor(() => expect(api.listGrants).toHaveBeenCalledWith('in', 1, expect.any(Number)))
    expect(await screen.findByText(/来自 136\*\*\*\*0002/)).toBeTruthy()
    expect(screen.queryByText('撤销授权')).toBeNull()
  })
})
