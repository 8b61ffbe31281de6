import { fireEvent, render, screen } from '@testing-library/react'
import CheckoutBar, { QuoteLines } from '@/components/CheckoutBar'
import { quote } from '../pages/buying/fixtures'
import { isDisabled } from './button-state'

const total = () => screen.getByLabelText('合计金额').textContent
const submit = () => screen.getByText('立即购买').closest('taro-button-core') as HTMLElement

describe('CheckoutBar', () => {
  it('shows the total, the list price struck beside it, and submits on a tap', () => {
    const onSubmit = jest.fn()
    render(<CheckoutBar quote={quote()} buttonText="立即购买" onSubmit={onSubmit} />)
    expect(total()).toBe('¥99.00')
    expect(screen.getByText('¥129.00')).toBeTruthy()
    expect(screen.queryByRole('alert')).toBeNull()
    fireEvent.click(submit())
    expect(onSubmit).toHaveBeenCalledTimes(1)
  })

  it('shows no struck price when nothing is saved', () => {
    render(
      <CheckoutBar
        quote={quote({ originalAmount: 9900 })}
        buttonText="立即购买"
        onSubmit={jest.fn()}
      />,
    )
    expect(screen.getAllByText('¥99.00')).toHaveLength(1)
  })

  it.each([
    ['without a quote', { quote: null }, '--'],
    ['while the quote is refreshed', { quote: quote(), pending: true }, '¥99.00'],
    ['when the page says so', { quote: quote(), disabled: true }, '¥99.00'],
  ])('cannot be submitted %s', (_, props, shownTotal) => {
    const onSubmit = jest.fn()
    render(<CheckoutBar {...props} buttonText="立即购买" onSubmit={onSubmit} />)
    expect(total()).toBe(shownTotal)
    expect(isDisabled(submit())).toBe(true)
    fireEvent.click(submit())
    expect(onSubmit).not.toHaveBeenCalled()
  })

  it('says 计算中… while the quote is refreshed', () => {
    render(<CheckoutBar quote={quote()} pending buttonText="立即购买" onSubmit={jest.fn()} />)
    expect(screen.getByText('计算中…')).toBeTruthy()
  })

  it('says why the last submission failed, as an alert above the bar', () => {
    render(
      <CheckoutBar
        quote={quote()}
        buttonText="立即购买"
        onSubmit={jest.fn()}
        error="库存不足，请更换地区"
      />,
    )
    expect(screen.getByRole('alert').textContent).toBe('库存不足，请更换地区')
  })
})

describe('QuoteLines', () => {
  it('lists each line with its unit price and amount; a coupon line by its discount alone', () => {
    render(
      <QuoteLines
        quote={quote({
          lines: [
            { label: '1个月', unitPrice: 9900, quantity: 2, amount: 19800 },
            { label: '优惠券：新人券', unitPrice: -500, quantity: 1, amount: -500 },
          ],
        })}
      />,
    )
    expect(screen.getByText('1个月 ¥99.00 × 2')).toBeTruthy()
    expect(screen.getByText('¥198.00')).toBeTruthy()
    expect(screen.getByText('优惠券：新人券 -¥5.00')).toBeTruthy()
    expect(screen.getByText('-¥5.00')).toBeTruthy()
  })

  it('shows nothing without a quote', () => {
    const { container } = render(<QuoteLines quote={null} />)
    expect(container.textContent).toBe('')
  })
})
