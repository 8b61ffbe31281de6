import { fireEvent, render, screen } from '@testing-library/react'
import CouponPicker from '@/components/CouponPicker'
import { applicableCoupons, heldCoupon } from '../pages/coupon-fixtures'

const fiveOff = heldCoupon({ id: 1, name: '新人无门槛券', discount: 500 })
const tenOff = heldCoupon({
  id: 2,
  name: '满50减10',
  couponType: 1,
  parValue: 1000,
  conditionsUse: 5000,
  discount: 1000,
})
const outOfScope = heldCoupon({
  id: 3,
  name: '云空间专享券',
  usable: false,
  reason: '所购买商品不在适用范围内',
  discount: 0,
})
const held = applicableCoupons({ total: 9900, coupons: [fiveOff, tenOff, outOfScope] })

describe('CouponPicker', () => {
  it('shows nothing until the coupons are known', () => {
    const { container } = render(
      <CouponPicker result={null} selected={null} onSelect={jest.fn()} />,
    )
    expect(container.textContent).toBe('')
  })

  it('closed, says how many coupons apply; 选择 opens every coupon held, 收起 closes it', () => {
    render(<CouponPicker result={held} selected={null} onSelect={jest.fn()} />)
    expect(screen.queryByText('新人无门槛券')).toBeNull()
    fireEvent.click(screen.getByText('2张可用 选择'))
    expect(screen.getByText('新人无门槛券')).toBeTruthy()
    expect(screen.getByText('可减 ¥5.00')).toBeTruthy()
    expect(screen.getByText('可减 ¥10.00')).toBeTruthy()
    expect(screen.getByText('所购买商品不在适用范围内')).toBeTruthy()
    fireEvent.click(screen.getByText('2张可用 收起'))
    expect(screen.queryByText('新人无门槛券')).toBeNull()
  })

  it('a tap on a usable coupon chooses it and closes the list; an unusable one cannot be chosen', () => {
    const onSelect = jest.fn()
    render(<CouponPicker result={held} selected={null} onSelect={onSelect} />)
    fireEvent.click(screen.getByText('2张可用 选择'))
    fireEvent.click(screen.getByText('云空间专享券'))
    expect(onSelect).not.toHaveBeenCalled()
    fireEvent.click(screen.getByText('满50减10'))
    expect(onSelect).toHaveBeenCalledWith(2)
    expect(screen.queryByText('云空间专享券')).toBeNull()
  })

  it('with a coupon chosen, shows its discount and name, ticks it, and 不使用优惠券 clears it', () => {
    const onSelect = jest.fn()
    render(<CouponPicker result={held} selected={fiveOff} onSelect={onSelect} />)
    expect(screen.getByText('-¥5.00 选择')).toBeTruthy()
    expect(screen.getByText('已选：新人无门槛券')).toBeTruthy()
    fireEvent.click(screen.getByText('-¥5.00 选择'))
    expect(screen.getAllByText('✓')).toHaveLength(1)
    expect(screen.getAllByText('○')).toHaveLength(1)
    fireEvent.click(screen.getByText('不使用优惠券'))
    expect(onSelect).toHaveBeenCalledWith(null)
  })

  it('with no usable coupon says 暂无可用 and offers no 不使用优惠券', () => {
    const onSelect = jest.fn()
    render(
      <CouponPicker
        result={applicableCoupons({ total: 9900, coupons: [outOfScope] })}
        selected={null}
        onSelect={onSelect}
      />,
    )
    fireEvent.click(screen.getByText('暂无可用 选择'))
    expect(screen.getByText('所购买商品不在适用范围内')).toBeTruthy()
    expect(screen.queryByText('不使用优惠券')).toBeNull()
  })

  it('with no coupon at all says 暂无优惠券 when opened', () => {
    render(
      <CouponPicker
        result={applicableCoupons({ total: 9900 })}
        selected={null}
        onSelect={jest.fn()}
      />,
    )
    fireEvent.click(screen.getByText('暂无可用 选择'))
    expect(screen.getByText('暂无优惠券')).toBeTruthy()
  })
})
