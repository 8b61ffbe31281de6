import { fireEvent, render, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import PageTabs from '@/components/PageTabs'

describe('PageTabs', () => {
  it('marks the open tab, and a tapped one is reported and opens at its top', () => {
    const scroll = jest.spyOn(Taro, 'pageScrollTo').mockResolvedValue({ errMsg: 'ok' } as never)
    const onChange = jest.fn()
    render(<PageTabs titles={['充值', '充值记录']} value={0} onChange={onChange} />)
    expect(screen.getByRole('tab', { name: '充值' }).getAttribute('aria-selected')).toBe('true')
    expect(screen.getByRole('tab', { name: '充值记录' }).getAttribute('aria-selected')).toBe(
      'false',
    )
    fireEvent.click(screen.getByRole('tab', { name: '充值记录' }))
    expect(onChange).toHaveBeenCalledWith(1)
    expect(scroll).toHaveBeenCalledWith({ scrollTop: 0, duration: 0 })
  })
})
