import { act, fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import ScanLogin, { SCAN_POLL_MS } from '@/pages/login/parts/ScanLogin'
import * as scanLogin from '@/api/scan-login'
import type { ScanLoginStatus } from '@/types/api'
import { renderPage } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/scan-login', () => ({
  createScanLogin: jest.fn(),
  scanLoginStatus: jest.fn(),
}))

const api = scanLogin as jest.Mocked<typeof scanLogin>
const LOGIN = { token: 'tok', userId: 7, firstLogin: 0 as const, showModifyPassword: 0 as const }

let created = 0
const qr = () => ({
  sessionId: `s${++created}`,
  pollKey: `k${created}`,
  qrImage: `data:image/png;base64,QR${created}`,
  expiresAt: Date.now() + 120_000,
})
const state = (status: ScanLoginStatus, login: typeof LOGIN | null = null) => ({
  status,
  expiresAt: Date.now() + 60_000,
  login,
})

/** One poll interval passes and the answers settle. */
const tick = () =>
  act(async () => {
    jest.advanceTimersByTime(SCAN_POLL_MS)
    await Promise.resolve()
    await Promise.resolve()
  })
const settle = () => act(async () => void (await Promise.resolve()))

function setup() {
  const session = { loginWithResult: jest.fn().mockResolvedValue(true) }
  const view = renderPage(<ScanLogin redirect={encodeURIComponent('/pages/user/coupon')} />, {
    session,
  })
  return { session, view }
}

beforeEach(() => {
  jest.useFakeTimers()
  jest.clearAllMocks()
  created = 0
  api.createScanLogin.mockImplementation(async () => qr())
  jest.spyOn(Taro, 'redirectTo').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
})
afterEach(() => jest.useRealTimers())

const qrSrc = (container: HTMLElement) => container.querySelector('[src]')?.getAttribute('src')

describe('扫码登录', () => {
  it('shows the QR, then 已扫码, then logs in through the session store once confirmed', async () => {
    const { session, view } = setup()
    await settle()
    expect(qrSrc(view.container)).toBe('data:image/png;base64,QR1')
    expect(screen.getByText(/扫描二维码登录/)).toBeTruthy()

    api.scanLoginStatus.mockResolvedValueOnce(state('pending'))
    await tick()
    expect(api.scanLoginStatus).toHaveBeenLastCalledWith('k1')

    api.scanLoginStatus.mockResolvedValueOnce(state('scanned'))
    await tick()
    expect(screen.getByText('已扫码，请在手机上确认')).toBeTruthy()
    expect(session.loginWithResult).not.toHaveBeenCalled()

    api.scanLoginStatus.mockResolvedValueOnce(state('consumed', LOGIN))
    await tick()
    await settle()
    expect(session.loginWithResult).toHaveBeenCalledWith(LOGIN)
    expect(Taro.redirectTo).toHaveBeenCalledWith({ url: '/pages/user/coupon' })

    // polling has stopped
    const calls = api.scanLoginStatus.mock.calls.length
    await tick()
    await tick()
    expect(api.scanLoginStatus).toHaveBeenCalledTimes(calls)
  })

  it('an expired QR stops polling and a click on it fetches a new one', async () => {
    const { session, view } = setup()
    await settle()
    api.scanLoginStatus.mockResolvedValue(state('expired'))
    await tick()
    expect(screen.getByText('二维码已过期，点击刷新')).toBeTruthy()
    const calls = api.scanLoginStatus.mock.calls.length
    await tick()
    expect(api.scanLoginStatus).toHaveBeenCalledTimes(calls)

    fireEvent.click(screen.getByRole('button', { name: '刷新二维码' }))
    await settle()
    expect(api.createScanLogin).toHaveBeenCalledTimes(2)
    expect(qrSrc(view.container)).toBe('data:image/png;base64,QR2')
    api.scanLoginStatus.mockResolvedValue(state('pending'))
    await tick()
    expect(api.scanLoginStatus).toHaveBeenLastCalledWith('k2')
    expect(session.loginWithResult).not.toHaveBeenCalled()
  })

  it('a refused login says so and logs nobody in', async () => {
    const { session } = setup()
    await settle()
    api.scanLoginStatus.mockResolvedValue(state('refused'))
    await tick()
    expect(screen.getByText('已拒绝登录，点击二维码刷新')).toBeTruthy()
    expect(session.loginWithResult).not.toHaveBeenCalled()
  })

  it('stops polling when the page goes away', async () => {
    const { view } = setup()
    await settle()
    api.scanLoginStatus.mockResolvedValue(state('pending'))
    await tick()
    const calls = api.scanLoginStatus.mock.calls.length
    view.unmount()
    await tick()
    expect(api.scanLoginStatus).toHaveBeenCalledTimes(calls)
  })
})
