import { fireEvent, render, screen } from '@testing-library/react'
import PrimaryButton from '@/components/PrimaryButton'

describe('PrimaryButton', () => {
  it('is a button named by its text that reports a tap', () => {
    const onClick = jest.fn()
    render(<PrimaryButton onClick={onClick}>登录 / 注册</PrimaryButton>)
    fireEvent.click(screen.getByRole('button', { name: '登录 / 注册' }))
    expect(onClick).toHaveBeenCalledTimes(1)
  })
})
