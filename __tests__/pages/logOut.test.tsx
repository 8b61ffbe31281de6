import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import LogOut from '@/pages/user/logOut'
import { logoutUser } from '@/api/user'
import { flush, renderPage, typeInto } from './page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('./page-harness')>('./page-harness').mockTaro(),
)
jest.mock('@/api/user', () => ({ logoutUser: jest.fn(), sendSmsCode: jest.fn() }))

const AGREE = '我已阅读并知晓注销后果'
const deleteAccount = logoutUser as jest.Mock
const lastToast = () => (Taro.showToast as jest.Mock).mock.calls.at(-1)?.[0]?.title

function setup({ agree, code }: { agree: boolean; code: string }) {
  const session = {
    userId: 7,
    mobilePhone: '13812345678',
    loadUserInfo: jest.fn().mockResolvedValue({}),
    removeAccount: jest.fn(),
    clear: jest.fn(),
  }
  const { container } = renderPage(<LogOut />, { session })
  if (agree) fireEvent.click(container.querySelector(`[aria-label="${AGREE}"]`)!)
  if (code) typeInto(container, '验证码', code)
  fireEvent.click(screen.getByText('申请注销'))
  return session
}

beforeEach(() => {
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false } as never)
  jest.spyOn(Taro, 'reLaunch').mockResolvedValue({ errMsg: 'ok' } as never)
  deleteAccount.mockReset()
})

describe('注销账号', () => {
  it('sends the code to the own number, shown masked', () => {
    renderPage(<LogOut />, { session: { mobilePhone: '13812345678', loadUserInfo: jest.fn() } })
    expect(screen.getByText(/138\*\*\*\*5678/)).toBeTruthy()
  })

  it('says the new-user benefits are not given again to this number after deletion', () => {
    renderPage(<LogOut />, { session: { mobilePhone: '13812345678', loadUserInfo: jest.fn() } })
    expect(
      screen.getByText(
        /新人福利（试用云机、新人优惠券、首购优惠）每人仅限一次：注销后用此手机号或微信重新注册，不会再次发放/,
      ),
    ).toBeTruthy()
  })

  it('requires the consequences checkbox before anything is sent', async () => {
    setup({ agree: false, code: '123456' })
    await flush()
    expect(lastToast()).toBe(`请先勾选“${AGREE}”`)
    expect(Taro.showModal).not.toHaveBeenCalled()
    expect(deleteAccount).not.toHaveBeenCalled()
  })

  it('requires a 6-digit code', async () => {
    setup({ agree: true, code: '' })
    await flush()
    expect(lastToast()).toBe('请输入验证码')
    expect(deleteAccount).not.toHaveBeenCalled()
  })

  it('does nothing when the final confirmation is cancelled', async () => {
    jest.mocked(Taro.showModal).mockResolvedValue({ confirm: false, cancel: true } as never)
    setup({ agree: true, code: '123456' })
    await flush()
    expect(Taro.showModal).toHaveBeenCalled()
    expect(deleteAccount).not.toHaveBeenCalled()
  })

  it('deletes the account, forgets it on this device and relaunches home', async () => {
    deleteAccount.mockResolvedValue(null)
    const session = setup({ agree: true, code: '123456' })
    await waitFor(() => expect(Taro.reLaunch).toHaveBeenCalled())
    expect(deleteAccount).toHaveBeenCalledWith('123456')
    expect(session.removeAccount).toHaveBeenCalledWith(7)
    expect(session.clear).toHaveBeenCalled()
    expect((Taro.reLaunch as jest.Mock).mock.calls[0][0].url).toBe('/pages/Home/index')
  })
})
