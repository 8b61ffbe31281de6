import { act, fireEvent, render, screen } from '@testing-library/react'
import SmsCodeButton from '@/components/SmsCodeButton'
import { isDisabled } from './button-state'

const button = () => screen.getByLabelText('获取验证码')
/** lets the awaited onSend settle under fake timers */
const settle = () => act(async () => undefined)

beforeEach(() => jest.useFakeTimers())
afterEach(() => jest.useRealTimers())

describe('SmsCodeButton', () => {
  it('after a send, counts 60 s down and then offers 获取验证码 again', async () => {
    const onSend = jest.fn().mockResolvedValue(undefined)
    render(<SmsCodeButton onSend={onSend} />)
    fireEvent.click(button())
    await settle()
    expect(button().textContent).toBe('60s后重新获取')
    expect(isDisabled(button())).toBe(true)
    act(() => void jest.advanceTimersByTime(1000))
    expect(button().textContent).toBe('59s后重新获取')
    fireEvent.click(button())
    expect(onSend).toHaveBeenCalledTimes(1)
    for (let second = 0; second < 59; second++) act(() => void jest.advanceTimersByTime(1000))
    expect(button().textContent).toBe('获取验证码')
    expect(isDisabled(button())).toBe(false)
    fireEvent.click(button())
    await settle()
    expect(onSend).toHaveBeenCalledTimes(2)
  })

  it('says 发送中 and takes no second tap while the code is being sent', async () => {
    let answer: () => void = () => undefined
    const onSend = jest.fn(() => new Promise<void>((resolve) => (answer = resolve)))
    render(<SmsCodeButton onSend={onSend} />)
    fireEvent.click(button())
    expect(button().textContent).toBe('发送中')
    fireEvent.click(button())
    expect(onSend).toHaveBeenCalledTimes(1)
    answer()
    await settle()
    expect(button().textContent).toBe('60s后重新获取')
  })

  it('a failed send allows another try at once, with no countdown', async () => {
    const onSend = jest.fn().mockRejectedValueOnce(new Error('请输入正确的手机号'))
    render(<SmsCodeButton onSend={onSend} />)
    fireEvent.click(button())
    await settle()
    expect(button().textContent).toBe('获取验证码')
    expect(isDisabled(button())).toBe(false)
  })

  it('disabled, it cannot be tapped', () => {
    const onSend = jest.fn()
    render(<SmsCodeButton onSend={onSend} disabled />)
    expect(isDisabled(button())).toBe(true)
    fireEvent.click(button())
    expect(onSend).not.toHaveBeenCalled()
  })
})
