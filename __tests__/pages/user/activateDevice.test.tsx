import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import ActivateDevice from '@/pages/user/activateDevice'
import * as activation from '@/api/activation'
import { renderPage, setRouteParams, typeInto } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/activation', () => ({ activateCode: jest.fn(), listMyCodes: jest.fn() }))
jest.mock('@/api/goods', () => ({ getGoodsList: jest.fn() }))

const api = activation as jest.Mocked<typeof activation>
const toastTitles = () =>
  (Taro.showToast as jest.Mock).mock.calls.map(([o]) => (o as { title: string }).title)

function stores(picked: { deviceId: number; name: string } | null = null) {
  return { fleet: { pickedDevice: picked, statusOf: () => undefined } }
}

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'setClipboardData').mockResolvedValue({ errMsg: 'ok' } as never)
  api.listMyCodes.mockResolvedValue({
    records: [
      {
        code: 'ABCDEFGHJKMNPQRS',
        goodId: 1,
        goodsName: '畅享版 4核4G',
        goodTime: 30,
        durationLabel: '1个月',
        status: 0,
        statusText: '未使用',
        usedAt: null,
        deviceId: null,
        orderNo: 'O1',
        createdAt: 0,
      },
    ],
    page: 1,
    totalPage: 1,
    total: 1,
  })
})

describe('激活码', () => {
  it('activates a code as a new phone and says so', async () => {
    api.activateCode.mockResolvedValue({
      ok: true,
      data: {
        kind: 'new',
        deviceId: 8,
        goodId: 1,
        goodTime: 30,
        expireAt: Date.now() + 30 * 86_400_000,
      },
    })
    renderPage(<ActivateDevice />, stores())
    typeInto(document.body, '激活码', 'abcd-efgh-jkmn-pqrs')
    fireEvent.click(screen.getByText('立即激活'))
    await waitFor(() =>
      expect(api.activateCode).toHaveBeenCalledWith({
        code: 'ABCDEFGHJKMNPQRS',
        renewDeviceId: undefined,
      }),
    )
    expect(await screen.findByRole('status')).toBeTruthy()
    expect(screen.getByText(/激活成功，新云手机正在创建/)).toBeTruthy()
  })

  it('starts with the code of a scanned activation QR filled in', () => {
    setRouteParams({ code: 'ABCDEFGHJKMNPQRS' })
    renderPage(<ActivateDevice />, stores())
    setRouteParams({})
    const input = document.querySelector('taro-input-core[aria-label="激活码"]')
    expect(input?.getAttribute('value')).toBe('ABCDEFGHJKMNPQRS')
  })

  it('refuses a malformed code without calling the server', async () => {
    renderPage(<ActivateDevice />, stores())
    typeInto(document.body, '激活码', 'abc')
    fireEvent.click(screen.getByText('立即激活'))
    await waitFor(() => expect(toastTitles()).toContain('激活码为16位字母或数字'))
    expect(api.activateCode).not.toHaveBeenCalled()
  })

  it('renews the phone chosen on user/device', async () => {
    api.activateCode.mockResolvedValue({
      ok: true,
      data: {
        kind: 'renew',
        deviceId: 5,
        goodId: 1,
        goodTime: 30,
        expireAt: new Date(2026, 11, 31, 10, 0).getTime(),
      },
    })
    renderPage(<ActivateDevice />, stores({ deviceId: 5, name: '主力机' }))
    expect(screen.getByText('主力机')).toBeTruthy()
    typeInto(document.body, '激活码', 'ABCDEFGHJKMNPQRS')
    fireEvent.click(screen.getByText('激活并续费'))
    await waitFor(() =>
      expect(api.activateCode).toHaveBeenCalledWith({
        code: 'ABCDEFGHJKMNPQRS',
        renewDeviceId: 5,
      }),
    )
    expect(await screen.findByText('续费成功，云手机到期时间延长至2026-12-31 10:00')).toBeTruthy()
  })

  it('asks for a phone before renewing and opens the chooser', async () => {
    renderPage(<ActivateDevice />, stores())
    fireEvent.click(screen.getByText('续费已有云机'))
    typeInto(document.body, '激活码', 'ABCDEFGHJKMNPQRS')
    fireEvent.click(screen.getByText('激活并续费'))
    await waitFor(() => expect(toastTitles()).toContain('请选择要续费的云手机'))
    fireEvent.click(screen.getByLabelText('选择要续费的云手机'))
    expect(Taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/user/device' })
  })

  it('shows the server message for a used code', async () => {
    api.activateCode.mockRejectedValue(
      Object.assign(new Error('激活码已被使用'), { msg: '激活码已被使用' }),
    )
    renderPage(<ActivateDevice />, stores())
    typeInto(document.body, '激活码', 'ABCDEFGHJKMNPQRS')
    fireEvent.click(screen.getByText('立即激活'))
    await waitFor(() => expect(toastTitles()).toContain('激活码已被使用'))
    expect(screen.queryByRole('status')).toBeNull()
  })

  it('lists my codes with status and copies one', async () => {
    renderPage(<ActivateDevice />, stores())
    expect(await screen.findByText('ABCDEFGHJKMNPQRS')).toBeTruthy()
    expect(screen.getByText('未使用')).toBeTruthy()
    fireEvent.click(screen.getByText('复制'))
    expect(Taro.setClipboardData).toHaveBeenCalledWith({ data: 'ABCDEFGHJKMNPQRS' })
  })
})
