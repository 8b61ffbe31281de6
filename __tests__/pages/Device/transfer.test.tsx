import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import Transfer from '@/pages/Device/transfer'
import { checkTransferForm, refusedPhones } from '@/pages/Device/parts/transfer-rules'
import { ApiError } from '@/runtime/api-error'
import * as deviceService from '@/api/device'
import * as transferService from '@/api/transfer'
import { renderPage, setRouteParams, typeInto } from '../page-harness'
import { device } from '../Home/fleet-fixtures'
import { DESTRUCTIVE_COLOR } from '@/runtime/feedback'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/device', () => ({ getDevice: jest.fn() }))
jest.mock('@/api/transfer', () => ({ transferDevices: jest.fn(), listTransfers: jest.fn() }))

const devices = deviceService as jest.Mocked<typeof deviceService>
const api = transferService as jest.Mocked<typeof transferService>
const OWN = '13700000001'

const stores = (hasPassword: boolean | undefined = true) => ({
  session: {
    mobilePhone: OWN,
    userInfo: hasPassword === undefined ? null : { hasPassword },
    loadUserInfo: jest.fn().mockResolvedValue(undefined),
  },
  fleet: { reload: jest.fn().mockResolvedValue(undefined) },
})
/** 设置密码 opened over this page, coming back to it (query kept) once the password is set. */
const SET_PASSWORD = `/pages/user/setPassword?redirect=${encodeURIComponent(
  '/pages/Device/transfer?deviceIds=7%2C8',
)}&resume=1`
const lastToast = () => (Taro.showToast as jest.Mock).mock.calls.at(-1)?.[0]?.title

function fill(container: HTMLElement, mobile: string, code: string) {
  typeInto(container, '接收方手机号', mobile)
  typeInto(container, '验证码', code)
}

beforeEach(() => {
  jest.clearAllMocks()
  setRouteParams({ deviceIds: '7,8' })
  devices.getDevice.mockImplementation(async (id: number) =>
    device({ deviceId: id, name: `云手机-${id}` }),
  )
  api.listTransfers.mockResolvedValue({ records: [], page: 1, totalPage: 0, total: 0 })
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false } as never)
  jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
  jest
    .spyOn(Taro, 'getCurrentPages')
    .mockReturnValue([
      { route: 'pages/Home/index' },
      { route: 'pages/Device/transfer', options: { deviceIds: '7,8' } },
    ] as never)
})

describe('transfer form rules', () => {
  const valid = { deviceCount: 1, mobilePhone: '13700000002', ownMobile: OWN, smsCode: '123456' }
  it('needs phones, a valid number that is not mine, and a 6-digit code', () => {
    expect(checkTransferForm(valid)).toBeNull()
    expect(checkTransferForm({ ...valid, deviceCount: 0 })).toBe('请选择要转移的云手机')
    expect(checkTransferForm({ ...valid, mobilePhone: '1370000' })).toMatch('手机号')
    expect(checkTransferForm({ ...valid, mobilePhone: OWN })).toBe('不能转移给自己')
    expect(checkTransferForm({ ...valid, smsCode: ' ' })).toBe('请输入验证码')
    expect(checkTransferForm({ ...valid, smsCode: '12a' })).not.toBeNull()
  })
  it('reads the refused phones of a 1330 body, and nothing from anything else', () => {
    const refused = [{ deviceId: 7, name: '云手机-7', reason: '云手机已到期，请续费后再操作' }]
    expect(refusedPhones({ data: { devices: refused } })).toEqual(refused)
    expect(refusedPhones({ data: null })).toEqual([])
    expect(refusedPhones(undefined)).toEqual([])
  })
})

describe('转移云机', () => {
  it('lists the chosen phones and sends them to the number after a confirmation', async () => {
    api.transferDevices.mockResolvedValue({ batchId: 'b', count: 2, toMobile: '137****0002' })
    const s = stores()
    const { container } = renderPage(<Transfer />, s)
    expect(await screen.findByText('云手机-8')).toBeTruthy()
    expect(screen.getByText('转移的云手机（2台）')).toBeTruthy()
    fill(container, '13700000002', '123456')
    fireEvent.click(screen.getByText('确认转移'))
    await waitFor(() => expect(api.transferDevices).toHaveBeenCalled())
    expect((Taro.showModal as jest.Mock).mock.calls[0][0]).toMatchObject({
      content: expect.stringMatching(/将2台云手机转移至 137\*\*\*\*0002/),
      confirmColor: DESTRUCTIVE_COLOR, // red: the phones cannot be taken back
    })
    expect(api.transferDevices).toHaveBeenCalledWith({
      deviceIds: [7, 8],
      mobilePhone: '13700000002',
      smsCode: '123456',
    })
    await waitFor(() => expect(lastToast()).toBe('已转移2台云手机'))
    expect(s.fleet.reload).toHaveBeenCalled()
    expect(await screen.findByText('暂无转出记录')).toBeTruthy()
  })

  it('refuses a bad form on the page without calling the server', async () => {
    const { container } = renderPage(<Transfer />, stores())
    await screen.findByText('云手机-8')
    fill(container, OWN, '123456')
    fireEvent.click(screen.getByText('确认转移'))
    expect(lastToast()).toBe('不能转移给自己')
    expect(api.transferDevices).not.toHaveBeenCalled()
  })

  it('lists each phone that cannot move (1330)', async () => {
    const refused = [
      { deviceId: 8, name: '云手机-8', reason: '云手机正在备份或恢复数据，完成后才能转移' },
    ]
    api.transferDevices.mockRejectedValueOnce(
      new ApiError(1330, '1台云手机暂不能转移', {
        code: 1330,
        msg: '1台云手机暂不能转移',
        data: { devices: refused },
        ts: 0,
      }),
    )
    const { container } = renderPage(<Transfer />, stores())
    await screen.findByText('云手机-8')
    fill(container, '13700000002', '123456')
    fireEvent.click(screen.getByText('确认转移'))
    expect((await screen.findByRole('alert')).textContent).toBe(
      '云手机-8：云手机正在备份或恢复数据，完成后才能转移',
    )
  })

  it('asks for a login password before the form when the account has none', async () => {
    const s = stores(false)
    renderPage(<Transfer />, s)
    expect(await screen.findByText('云手机-8')).toBeTruthy()
    expect(s.session.loadUserInfo).toHaveBeenCalled() // fresh each visit
    expect(screen.getByText('请先设置登录密码')).toBeTruthy()
    expect(screen.queryByText('确认转移')).toBeNull()
    expect(document.querySelector('taro-input-core[aria-label="接收方手机号"]')).toBeNull()
    fireEvent.click(screen.getByText('去设置登录密码'))
    await waitFor(() => expect(Taro.navigateTo).toHaveBeenCalledWith({ url: SET_PASSWORD }))
    expect(api.transferDevices).not.toHaveBeenCalled()
  })

  it('shows the form while the password is unknown or set', async () => {
    renderPage(<Transfer />, stores(undefined))
    await screen.findByText('云手机-8')
    expect(screen.getByText('确认转移')).toBeTruthy()
    expect(screen.queryByText('去设置登录密码')).toBeNull()
  })

  it('a 1331 answer (the password check was stale) goes the same way and keeps the form', async () => {
    api.transferDevices.mockRejectedValueOnce(new ApiError(1331, '请先设置登录密码'))
    const { container } = renderPage(<Transfer />, stores(undefined))
    await screen.findByText('云手机-8')
    fill(container, '13700000002', '123456')
    fireEvent.click(screen.getByText('确认转移'))
    await waitFor(() => expect(Taro.navigateTo).toHaveBeenCalledWith({ url: SET_PASSWORD }))
    const asked = (Taro.showModal as jest.Mock).mock.calls.at(-1)[0]
    expect(asked).toMatchObject({ title: '请先设置登录密码', confirmText: '去设置' })
    // back on the page, what was typed is still there and 确认转移 sends it
    api.transferDevices.mockResolvedValueOnce({ batchId: 'b', count: 2, toMobile: '137****0002' })
    fireEvent.click(screen.getByText('确认转移'))
    await waitFor(() => expect(api.transferDevices).toHaveBeenCalledTimes(2))
    expect(api.transferDevices).toHaveBeenLastCalledWith({
      deviceIds: [7, 8],
      mobilePhone: '13700000002',
      smsCode: '123456',
    })
  })

  it('a 1331 answer declined stays on the form', async () => {
    api.transferDevices.mockRejectedValueOnce(new ApiError(1331, '请先设置登录密码'))
    const { container } = renderPage(<Transfer />, stores(undefined))
    await screen.findByText('云手机-8')
    fill(container, '13700000002', '123456')
    ;(Taro.showModal as jest.Mock)
      .mockResolvedValueOnce({ confirm: true, cancel: false })
      .mockResolvedValueOnce({ confirm: false, cancel: true })
    fireEvent.click(screen.getByText('确认转移'))
    await waitFor(() => expect((Taro.showModal as jest.Mock).mock.calls).toHaveLength(2))
    await new Promise((resolve) => setTimeout(resolve, 0))
    expect(Taro.navigateTo).not.toHaveBeenCalled()
    expect(screen.getByText('确认转移')).toBeTruthy()
  })

  it('opens on the history when no phone was chosen, with both directions', async () => {
    setRouteParams({})
    api.listTransfers.mockResolvedValue({
      records: [
        {
          id: 1,
          batchId: 'b',
          deviceId: 7,
          deviceName: '云手机-7',
          expireAt: Date.UTC(2026, 11, 22, 4),
          otherMobile: '137****0002',
          createdAt: Date.UTC(2026, 10, 22, 4),
        },
      ],
      page: 1,
      totalPage: 1,
      total: 1,
    })
    renderPage(<Transfer />, stores())
    expect(await screen.findByText('云手机-7')).toBeTruthy()
    expect(screen.getByText(/转给 137\*\*\*\*0002/)).toBeTruthy()
    expect(api.listTransfers).toHaveBeenCalledWith('out', 1, expect.any(Number))
    fireEvent.click(screen.getByText('转入记录'))
    await waitFor(() => expect(api.listTransfers).toHaveBeenCalledWith('in', 1, expect.any(Number)))
    expect(devices.getDevice).not.toHaveBeenCalled()
  })
})
