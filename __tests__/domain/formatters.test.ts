import {
  couponValueText,
  fenToYuan,
  formatBytes,
  formatDate,
  formatLinePrice,
  formatYuan,
  maskIdCard,
  maskPhone,
  timeAgo,
} from '@/domain/formatters'

const now = new Date(2026, 5, 15, 12, 0, 0).getTime()
const s = 1000
const min = 60 * s
const h = 60 * min
const d = 24 * h

describe('relative time, reading one (timeAgo)', () => {
  it.each([
    [0, '刚刚'],
    [59 * s, '刚刚'],
    [1 * min, '1分钟前'],
    [59 * min, '59分钟前'],
    [1 * h, '1小时前'],
    [23 * h, '23小时前'],
    [1 * d, '1天前'],
    [6 * d, '6天前'],
    [7 * d, '1周前'],
    [29 * d, '4周前'],
    [30 * d, '1个月前'],
    [11 * 30 * d, '11个月前'],
    [12 * 30 * d, '12个月前'],
  ])('%i ms ago reads %s', (ago, text) => {
    expect(timeAgo(now - ago, now)).toBe(text)
  })
  it('shows the full date beyond 12 months', () => {
    const old = new Date(2025, 0, 5, 8, 0, 0)
    expect(timeAgo(old, now)).toBe('2025-01-05')
    expect(timeAgo(old.getTime(), now)).toBe('2025-01-05')
  })
  it('shows 不久前 for a future time', () => {
    expect(timeAgo(now + 5 * min, now)).toBe('不久前')
  })
  it('accepts date strings', () => {
    expect(timeAgo('2026-06-15 11:30:00', now)).toBe('30分钟前')
    expect(formatDate('2026-06-15 11:30:00')).toBe('2026-06-15')
  })
})

describe('masking', () => {
  it('keeps the first 3 and last 4 digits of a phone', () => {
    expect(maskPhone('13812345678')).toBe('138****5678')
    expect(maskPhone('')).toBe('')
    expect(maskPhone(null)).toBe('')
  })
  it('never shows a short or odd-length number half-masked', () => {
    expect(maskPhone('1381234')).toBe('***')
    expect(maskPhone('1381234567')).toBe('***')
    expect(maskPhone('138123456789')).toBe('***')
    expect(maskPhone('1')).toBe('***')
  })
  it('keeps the first 5 and last 5 characters of an ID card, upper-cased', () => {
    expect(maskIdCard('11010519491231002X')).toBe('11010********1002X')
    expect(maskIdCard(' 11010519491231002x ')).toBe('11010********1002X')
    expect(maskIdCard('110105491231002')).toBe('11010*****31002')
  })
  it('masks an ID card too short to keep 5 and 5 entirely', () => {
    expect(maskIdCard('1101051949')).toBe('**********')
    expect(maskIdCard('12345')).toBe('*****')
    expect(maskIdCard(null)).toBe('')
  })
})

describe('file sizes', () => {
  it('reading one: B through YB on a 1024 base', () => {
    expect(formatBytes(0)).toBe('0 B')
    expect(formatBytes(1000)).toBe('1000 B')
    expect(formatBytes(1024)).toBe('1 KB')
    expect(formatBytes(1536)).toBe('1.5 KB')
    expect(formatBytes(1024 ** 2 * 3.25)).toBe('3.25 MB')
    expect(formatBytes(1024 ** 3)).toBe('1 GB')
    expect(formatBytes(1024 ** 4)).toBe('1 TB')
    expect(formatBytes(1024 ** 8)).toBe('1 YB')
    expect(formatBytes(1024 ** 9)).toBe('1024 YB')
  })
})

describe('money', () => {
  it('converts fen to yuan with 2 decimals', () => {
    expect(fenToYuan(1230)).toBe('12.30')
    expect(fenToYuan(1)).toBe('0.01')
    expect(fenToYuan(undefined)).toBe('0.00')
  })
  it('writes money one way: ¥ after the sign', () => {
    expect(formatYuan(1500)).toBe('¥15.00')
    expect(formatYuan(-500)).toBe('-¥5.00')
    expect(formatYuan(0)).toBe('¥0.00')
    expect(formatYuan(null)).toBe('¥0.00')
    expect(formatLinePrice({ unitPrice: 1500, quantity: 2 })).toBe('¥15.00 × 2')
    expect(formatLinePrice({ unitPrice: -500, quantity: 1 })).toBe('-¥5.00')
  })
})

describe('coupon amounts', () => {
  it('shows parValue/100 yuan for amount coupons', () => {
    expect(couponValueText({ couponType: 1, parValue: 1000 })).toBe('10元')
    expect(couponValueText({ couponType: 2, parValue: 550 })).toBe('5.5元')
    expect(couponValueText({ couponType: 4, parValue: 100 })).toBe('1元')
  })
  it('shows parValue/10 折 for discount coupons', () => {
    expect(couponValueText({ couponType: 3, parValue: 85 })).toBe('8.5折')
    expect(couponValueText({ couponType: 3, parValue: 90 })).toBe('9折')
  })
  it('shows nothing for type 5', () => {
    expect(couponValueText({ couponType: 5, parValue: 1000 })).toBe('')
  })
})
