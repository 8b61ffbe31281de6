import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import BindPhoneForm from '@/components/BindPhoneForm'
import { sendSmsCode } from '@/api/user'
import { typeInto } from '../pages/page-harness'

jest.mock('@/api/user', () => ({ sendSmsCode: jest.fn() }))

const submitButton = () => screen.getByText('绑定并登录').closest('taro-button-core') as HTMLElement
const toasted = (title: string) =>
  waitFor(() => expect(Taro.showToast).toHaveBeenCalledWith(expect.objectContaining({ title })))

const form = (onSubmit: jest.Mock) =>
  render(<BindPhoneForm submitText="绑定并登录" smsType="login" onSubmit={onSubmit} />).container

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.mocked(sendSmsCode).mockResolvedValue({} as never)
})

describe('BindPhoneForm', () => {
  it.each([
    ['', '', '请输入手机号'],
    ['1381234', '123456', '请输入正确的手机号'],
    ['13812345678', '', '请输入验证码'],
    ['13812345678', '1234', '请输入6位数字验证码'],
  ])('with %j and code %j says %s instead of submitting', async (mobilePhone, code, problem) => {
    const onSubmit = jest.fn()
    const container = form(onSubmit)
    if (mobilePhone) typeInto(container, '手机号', mobilePhone)
    if (code) typeInto(container, '验证码', code)
    fireEvent.click(submitButton())
    await toasted(problem)
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('sends the code of its type to the typed number and submits both', async () => {
    let answer: () => void = () => undefined
    const onSubmit = jest.fn(() => new Promise<void>((resolve) => (answer = resolve)))
    const container = form(onSubmit)
    typeInto(container, '手机号', '13812345678')
    fireEvent.click(screen.getByLabelText('获取验证码'))
    await screen.findByText('60s后重新获取')
    expect(sendSmsCode).toHaveBeenCalledWith('13812345678', 'login')
    typeInto(container, '验证码', '123456')
    fireEvent.click(submitButton())
    expect(onSubmit).toHaveBeenCalledWith({ mobilePhone: '13812345678', code: '123456' })
    await waitFor(() => expect(submitButton().className).toContain('nut-button-loading'))
    answer()
    await waitFor(() => expect(submitButton().className).not.toContain('nut-button-loading'))
  })

  it('shows why the submission was refused, and the form can be sent again', async () => {
    const onSubmit = jest.fn().mockRejectedValueOnce(new Error('验证码错误'))
    const container = form(onSubmit)
    typeInto(container, '手机号', '13812345678')
    typeInto(container, '验证码', '123456')
    fireEvent.click(submitButton())
    await toasted('验证码错误')
    await waitFor(() => expect(submitButton().className).not.toContain('nut-button-loading'))
    fireEvent.click(submitButton())
    await waitFor(() => expect(onSubmit).toHaveBeenCalledTimes(2))
  })
})
