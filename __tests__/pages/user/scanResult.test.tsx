import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import ScanResult from '@/pages/user/scanResult'
import * as grant from '@/api/grant'
import * as navigation from '@/runtime/navigation'
import * as scanLogin from '@/api/scan-login'
import { ApiError } from '@/runtime/api-error'
import { renderPage, setRouteParams } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/scan-login', () => ({
  scanLoginScan: jest.fn(),
  scanLoginConfirm: jest.fn(),
  scanLoginRefuse: jest.fn(),
}))
jest.mock('@/api/grant', () => ({ previewShare: jest.fn(), acceptShare: jest.fn() }))
jest.mock('@/runtime/navigation', () => ({ navigate: jest.fn(), redirect: jest.fn() }))

const login = scanLogin as jest.Mocked<typeof scanLogin>
const share = grant as jest.Mocked<typeof grant>
const nav = navigation as jest.Mocked<typeof navigation>
const SESSION = '7e'.repeat(32)

const open = (text: string) => {
  setRouteParams({ text: encodeURIComponent(text) })
  return renderPage(<ScanResult />, {})
}

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  login.scanLoginScan.mockResolvedValue({
    requester: 'Chrome · Windows',
    ip: '10.0.0.8',
    createdAt: Date.now(),
    expiresAt: Date.now() + 120_000,
  })
})

describe('扫码结果', () => {
  it('a login QR: claims it, asks 确认在 … 上登录, and 确认登录 confirms that session', async () => {
    login.scanLoginConfirm.mockResolvedValue({ status: 'confirmed' })
    open(`cloudphone:login:${SESSION}`)
    expect(await screen.findByText('确认在 Chrome · Windows 上登录？')).toBeTruthy()
    expect(login.scanLoginScan).toHaveBeenCalledWith(SESSION)
    fireEvent.click(screen.getByText('确认登录'))
    await waitFor(() => expect(login.scanLoginConfirm).toHaveBeenCalledWith(SESSION))
    expect(await screen.findByText('已确认，电脑端已登录')).toBeTruthy()
    expect(login.scanLoginRefuse).not.toHaveBeenCalled()
  })

  it('拒绝 refuses the session and confirms nothing', async () => {
    login.scanLoginRefuse.mockResolvedValue({ status: 'refused' })
    open(`cloudphone:login:${SESSION}`)
    fireEvent.click(await screen.findByText('拒绝'))
    await waitFor(() => expect(login.scanLoginRefuse).toHaveBeenCalledWith(SESSION))
    expect(await screen.findByText('已拒绝本次登录')).toBeTruthy()
    expect(login.scanLoginConfirm).not.toHaveBeenCalled()
  })

  it('an expired login QR shows the server message and no buttons', async () => {
    login.scanLoginScan.mockRejectedValue(
      new ApiError(500, '登录二维码已过期，请在电脑上刷新二维码'),
    )
    open(`cloudphone:login:${SESSION}`)
    expect(await screen.findByText('登录二维码已过期，请在电脑上刷新二维码')).toBeTruthy()
    expect(screen.queryByText('确认登录')).toBeNull()
  })

  it('a share QR shows what is offered and 接受授权 accepts it', async () => {
    share.previewShare.mockResolvedValue({
      ownerMobile: '136****0001',
      deviceCount: 2,
      permission: 2,
      days: 7,
      expiresAt: Date.now() + 3_600_000,
    })
    share.acceptShare.mockResolvedValue({ count: 2, expiresAt: Date.now() + 7 * 86_400_000 })
    open('cloudphone:share:Ab_9-xYz12345678')
    expect(await screen.findByText('136****0001 将 2 台云手机授权给您')).toBeTruthy()
    expect(share.previewShare).toHaveBeenCalledWith('Ab_9-xYz12345678')
    fireEvent.click(screen.getByText('接受授权'))
    await waitFor(() => expect(share.acceptShare).toHaveBeenCalledWith('Ab_9-xYz12345678'))
    expect(await screen.findByText('已接受授权')).toBeTruthy()
  })

  it('an activation code goes to 激活码 with the code filled in', () => {
    open('abcd efgh jkmn pqrs')
    expect(nav.redirect).toHaveBeenCalledWith('activateDevice', { code: 'ABCDEFGHJKMNPQRS' })
  })

  it('anything else: 无法识别该二维码 and the raw text, no call made', () => {
    open('https://example.com/?q=1')
    expect(screen.getByText('无法识别该二维码')).toBeTruthy()
    expect(screen.getByText('https://example.com/?q=1')).toBeTruthy()
    expect(login.scanLoginScan).not.toHaveBeenCalled()
    expect(share.previewShare).not.toHaveBeenCalled()
  })
})
