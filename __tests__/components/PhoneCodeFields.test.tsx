import { fireEvent, render, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import PhoneCodeFields, { type PhoneCodeFieldsProps } from '@/components/PhoneCodeFields'
import { sendSmsCode } from '@/api/user'
import { typeInto } from '../pages/page-harness'
import { isDisabled } from './button-state'

jest.mock('@/api/user', () => ({ sendSmsCode: jest.fn() }))

const sendCode = sendSmsCode as jest.MockedFunction<typeof sendSmsCode>
const sendButton = () => screen.getByLabelText('获取验证码')

/** The fields with a 手机号 row (login, binding a number) unless `onMobilePhoneChange` is undefined. */
const fields = (props: Partial<PhoneCodeFieldsProps>) =>
  render(
    <PhoneCodeFields
      mobilePhone=""
      onMobilePhoneChange={jest.fn()}
      smsType="login"
      code=""
      onCodeChange={jest.fn()}
      {...props}
    />,
  )

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  sendCode.mockResolvedValue({} as never)
})

describe('PhoneCodeFields', () => {
  it('with a 手机号 row, reports what is typed into the number and the code', () => {
    const onMobilePhoneChange = jest.fn()
    const onCodeChange = jest.fn()
    const { container } = fields({ onMobilePhoneChange, onCodeChange })
    expect(screen.getByPlaceholderText('请输入手机号')).toBeTruthy()
    typeInto(container, '手机号', '13812345678')
    expect(onMobilePhoneChange).toHaveBeenCalledWith('13812345678')
    typeInto(container, '验证码', '123456')
    expect(onCodeChange).toHaveBeenCalledWith('123456')
  })

  it('sends the code to the typed number and counts down', async () => {
    fields({ mobilePhone: '13812345678', smsType: 'changeNew' })
    fireEvent.click(sendButton())
    await screen.findByText('60s后重新获取')
    expect(sendCode).toHaveBeenCalledWith('13812345678', 'changeNew')
    expect(Taro.showToast).toHaveBeenCalledWith(expect.objectContaining({ title: '验证码已发送' }))
    expect(isDisabled(sendButton())).toBe(true)
  })

  it('says what is wrong with the number instead of sending, and the button stays available', async () => {
    fields({ mobilePhone: '1381234' })
    fireEvent.click(sendButton())
    await waitFor(() =>
      expect(Taro.showToast).toHaveBeenCalledWith(
        expect.objectContaining({ title: '请输入正确的手机号' }),
      ),
    )
    expect(sendCode).not.toHaveBeenCalled()
    await screen.findByText('获取验证码')
    expect(isDisabled(sendButton())).toBe(false)
  })

  it("without a 手机号 row, sends to the account's own number, shown masked", async () => {
    fields({ mobilePhone: '13812345678', onMobilePhoneChange: undefined, smsType: 'changeOld' })
    expect(screen.queryByPlaceholderText('请输入手机号')).toBeNull()
    expect(screen.getByText('验证码将发送至 138****5678')).toBeTruthy()
    fireEvent.click(sendButton())
    await screen.findByText('60s后重新获取')
    expect(sendCode).toHaveBeenCalledWith('13812345678', 'changeOld')
  })

  it("waits to send until the account's own number is known", () => {
    fields({ mobilePhone: '', onMobilePhoneChange: undefined, smsType: 'changeOld' })
    expect(isDisabled(sendButton())).toBe(true)
    fireEvent.click(sendButton())
    expect(sendCode).not.toHaveBeenCalled()
  })
})
