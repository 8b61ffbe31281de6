import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import SetPassword from '@/pages/user/setPassword'
import { firstUpdateUserPassword } from '@/api/user'
import { renderPage, setRouteParams, typeInto } from './page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('./page-harness')>('./page-harness').mockTaro(),
)
jest.mock('@/api/user', () => ({ firstUpdateUserPassword: jest.fn() }))

const save = firstUpdateUserPassword as jest.Mock
const FORM = '/pages/Device/transfer?deviceIds=7%2C8'

const session = () => ({
  markPasswordSet: jest.fn(),
  loadUserInfo: jest.fn().mockResolvedValue(undefined),
})

function submit(s = session()) {
  const { container } = renderPage(<SetPassword />, { session: s })
  typeInto(container, '新密码', 'abc12345')
  typeInto(container, '确认密码', 'abc12345')
  fireEvent.click(screen.getByText('确认设置'))
  return s
}

const stack = (...routes: string[]) =>
  jest.spyOn(Taro, 'getCurrentPages').mockReturnValue(routes.map((route) => ({ route })) as never)

beforeEach(() => {
  jest.clearAllMocks()
  save.mockResolvedValue(null)
  for (const api of ['showToast', 'navigateBack', 'redirectTo', 'switchTab'] as const) {
    jest.spyOn(Taro, api).mockResolvedValue({ errMsg: 'ok' } as never)
  }
  jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: false, cancel: true } as never)
})

describe('设置密码 opened by a flow that needs a password (resume=1)', () => {
  it('goes back to the form under it, as it was left', async () => {
    stack('pages/Home/index', 'pages/Device/transfer', 'pages/user/setPassword')
    setRouteParams({ redirect: encodeURIComponent(FORM), resume: '1' })
    const s = submit()
    await waitFor(() => expect(Taro.navigateBack).toHaveBeenCalledWith({ delta: 1 }))
    expect(save).toHaveBeenCalledWith('abc12345')
    expect(s.markPasswordSet).toHaveBeenCalled()
    expect(Taro.redirectTo).not.toHaveBeenCalled()
  })

  it('opens the form when the page stack was lost (a reload on this page)', async () => {
    stack('pages/user/setPassword')
    setRouteParams({ redirect: FORM, resume: '1' })
    submit()
    await waitFor(() => expect(Taro.redirectTo).toHaveBeenCalledWith({ url: FORM }))
    expect(Taro.navigateBack).not.toHaveBeenCalled()
  })

  it('returns only to a page of the app', async () => {
    stack('pages/user/setPassword')
    setRouteParams({ redirect: 'https://evil.example/pages/x', resume: '1' })
    submit()
    await waitFor(() => expect(Taro.switchTab).toHaveBeenCalledWith({ url: '/pages/Home/user' }))
    expect(Taro.redirectTo).not.toHaveBeenCalled()
  })

  it('stays on the page when saving fails', async () => {
    stack('pages/Device/transfer', 'pages/user/setPassword')
    setRouteParams({ redirect: FORM, resume: '1' })
    save.mockRejectedValueOnce({ code: 1001, msg: '系统繁忙' })
    submit()
    await waitFor(() =>
      expect(Taro.showToast).toHaveBeenCalledWith(expect.objectContaining({ title: '系统繁忙' })),
    )
    expect(Taro.navigateBack).not.toHaveBeenCalled()
  })
})

describe('设置密码 after a login (no resume)', () => {
  it('goes on to where the login was going, as before', async () => {
    stack('pages/Device/transfer', 'pages/user/setPassword')
    setRouteParams({ redirect: encodeURIComponent(FORM) })
    submit()
    await waitFor(() => expect(Taro.redirectTo).toHaveBeenCalledWith({ url: FORM }))
    expect(Taro.navigateBack).not.toHaveBeenCalled()
  })
})
