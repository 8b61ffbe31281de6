import { fireEvent, render, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import RetryButton from '@/components/RetryButton'
import { ResultCode } from '@/domain/result-codes'

describe('RetryButton', () => {
  beforeEach(() => {
    jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
  })

  it.each([
    ['without a code', null],
    ['after a refusal other than a frozen account', 1080],
  ])('offers 重新加载 %s', (_, code) => {
    const onRetry = jest.fn()
    render(<RetryButton code={code} onRetry={onRetry} />)
    fireEvent.click(screen.getByText('重新加载'))
    expect(onRetry).toHaveBeenCalledTimes(1)
    expect(screen.queryByText('联系客服')).toBeNull()
  })

  it('offers a frozen account 联系客服 instead of a reload', () => {
    const onRetry = jest.fn()
    render(<RetryButton code={ResultCode.ACCOUNT_HAS_BEEN_FROZEN} onRetry={onRetry} />)
    expect(screen.queryByText('重新加载')).toBeNull()
    fireEvent.click(screen.getByText('联系客服'))
    expect(Taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/CustomerService/index' })
    expect(onRetry).not.toHaveBeenCalled()
  })
})
