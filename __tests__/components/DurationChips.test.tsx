import { fireEvent, render, screen } from '@testing-library/react'
import DurationChips from '@/components/DurationChips'
import { price } from '../pages/buying/fixtures'

const NOW = Date.UTC(2026, 10, 1)
const week = price({ priceId: 10, durationLabel: '7天', goodPrice: 2900, oldGoodPrice: null })
const month = price({ priceId: 11, durationLabel: '1个月', goodPrice: 9900, oldGoodPrice: 12900 })
const chip = (name: string) => screen.getByRole('radio', { name })

describe('DurationChips', () => {
  it('shows each duration with its price, the old price struck only where it is higher', () => {
    render(<DurationChips prices={[week, month]} onChange={jest.fn()} now={NOW} />)
    expect(screen.getByRole('radiogroup', { name: '选择时长' })).toBeTruthy()
    expect(chip('7天').textContent).toBe('7天¥29.00')
    expect(chip('1个月').textContent).toBe('1个月¥99.00¥129.00')
  })

  it('marks the chosen duration and reports a tapped one', () => {
    const onChange = jest.fn()
    render(<DurationChips prices={[week, month]} value={11} onChange={onChange} now={NOW} />)
    expect(chip('1个月').getAttribute('aria-checked')).toBe('true')
    expect(chip('7天').getAttribute('aria-checked')).toBe('false')
    fireEvent.click(chip('7天'))
    expect(onChange).toHaveBeenCalledWith(10)
  })

  it('a running activity shows its price with the list price struck and an 活动 badge', () => {
    const activity = price({
      activityId: 5,
      activityPrice: 6900,
      activityEndsAt: NOW + 60_000,
      activityRunning: true,
    })
    render(<DurationChips prices={[activity]} onChange={jest.fn()} now={NOW} />)
    expect(chip('1个月').textContent).toBe('1个月¥69.00¥129.00活动')
  })

  it('an activity that has ended by now shows the list price and no 活动 badge', () => {
    // running when the goods were loaded, over since
    const ended = price({
      activityId: 5,
      activityPrice: 6900,
      activityEndsAt: NOW - 1,
      activityRunning: true,
    })
    render(<DurationChips prices={[ended]} onChange={jest.fn()} now={NOW} />)
    expect(chip('1个月').textContent).toBe('1个月¥99.00¥129.00')
  })
})
