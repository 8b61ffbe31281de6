import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import ChangePassword from '@/pages/user/changePassword'
import { updateUserPassword } from '@/api/user'
import { ApiError } from '@/runtime/api-error'
import { redirect } from '@/runtime/navigation'
import { flush, renderPage, typeInto } from './page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('./page-harness')>('./page-harness').mockTaro(),
)
jest.mock('@/api/user', () => ({ updateUserPassword: jest.fn() }))
jest.mock('@/runtime/navigation', () => ({ goBack: jest.fn(), redirect: jest.fn() }))

const update = updateUserPassword as jest.Mock

function fill(old: string, next: string, again: string) {
  const { container } = renderPage(<ChangePassword />, {})
  typeInto(container, '原密码', old)
  typeInto(container, '新密码', next)
  typeInto(container, '确认密码', again)
  fireEvent.click(screen.getByText('确认修改'))
}

const lastToast = () => (Taro.showToast as jest.Mock).mock.calls.at(-1)?.[0]?.title

beforeEach(() => {
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  update.mockReset()
})

describe('修改密码', () => {
  it('rejects a new password without digits, without calling the API', async () => {
    fill('abc123', 'abcdefg', 'abcdefg')
    await flush()
    expect(lastToast()).toBe('密码需为6-13位，且同时包含字母和数字')
    expect(update).not.toHaveBeenCalled()
  })

  it('rejects a confirmation that does not match, without calling the API', async () => {
    fill('abc123', 'newpass1', 'newpass2')
    await flush()
    expect(lastToast()).toBe('两次输入的密码不一致')
    expect(update).not.toHaveBeenCalled()
  })

  it('rejects a new password equal to the old one', async () => {
    fill('abc123', 'abc123', 'abc123')
    await flush()
    expect(lastToast()).toBe('新密码不能与原密码相同')
    expect(update).not.toHaveBeenCalled()
  })

  it('says 原密码错误 when the server answers 1009', async () => {
    update.mockRejectedValue(new ApiError(1009, 'old password mismatch'))
    fill('wrong1', 'newpass1', 'newpass1')
    await waitFor(() => expect(lastToast()).toBe('原密码错误'))
    expect(update).toHaveBeenCalledWith('wrong1', 'newpass1')
  })

  it('sets a password instead when the account has none (1331), then back to 设置', async () => {
    update.mockRejectedValue(new ApiError(1331, '请先设置登录密码'))
    fill('abc123', 'newpass1', 'newpass1')
    await waitFor(() =>
      expect(redirect).toHaveBeenCalledWith('setPassword', {
        redirect: '/pages/user/config',
        resume: 1,
      }),
    )
    expect(lastToast()).toBe('请先设置登录密码')
  })

  it('sends a valid change and confirms it', async () => {
    update.mockResolvedValue(null)
    fill('abc123', 'newpass1', 'newpass1')
    await waitFor(() => expect(lastToast()).toBe('密码修改成功'))
  })
})
