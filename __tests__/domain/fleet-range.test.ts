import { EXPIRING_WITHIN_MS, STATUS_CHOICES } from '@/domain/fleet-range'

const NOW = Date.UTC(2026, 11, 1)
const DAY = 86_400_000
const choice = (label: string) => {
  const found = STATUS_CHOICES.find((c) => c.label === label)
  if (!found) throw new Error(label)
  return (phone: { status: number; expireAt: number }) => found.matches(phone, NOW)
}

describe('按状态 choices', () => {
  it('offers 运行中, 7天内到期 and 已到期 in that order', () => {
    expect(STATUS_CHOICES.map((c) => c.label)).toEqual(['运行中', '7天内到期', '已到期'])
  })

  it('运行中 and 已到期 go by the status the card shows', () => {
    expect(choice('运行中')({ status: 1, expireAt: NOW + DAY })).toBe(true)
    expect(choice('运行中')({ status: 4, expireAt: NOW + DAY })).toBe(false)
    expect(choice('已到期')({ status: 2, expireAt: NOW - DAY })).toBe(true)
    expect(choice('已到期')({ status: 1, expireAt: NOW + DAY })).toBe(false)
  })

  it('7天内到期 takes live phones with at most seven days left, not those already expired', () => {
    const soon = choice('7天内到期')
    expect(soon({ status: 1, expireAt: NOW + EXPIRING_WITHIN_MS })).toBe(true)
    expect(soon({ status: 4, expireAt: NOW + DAY })).toBe(true)
    expect(soon({ status: 1, expireAt: NOW + EXPIRING_WITHIN_MS + 1 })).toBe(false)
    expect(soon({ status: 1, expireAt: NOW })).toBe(false)
    expect(soon({ status: 2, expireAt: NOW + DAY })).toBe(false)
    expect(soon({ status: 0, expireAt: NOW + DAY })).toBe(false)
  })
})
