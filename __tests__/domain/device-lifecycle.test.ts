import {
  acceptsCommands,
  canRenew,
  DeviceStatus,
  deviceStatusLabels,
  EXPIRING_SOON_MS,
  expiryBanner,
  isExpiringSoon,
  nextStatus,
  releaseAt,
  remainingMs,
  remainingText,
  RETENTION_MS,
  statusCommandRefusal,
} from '@/domain/device-lifecycle'

// A local-time instant so the formatted date does not depend on the machine's time zone.
const NOW = new Date(2026, 10, 22, 8, 30).getTime()
const MIN = 60_000
const HOUR = 60 * MIN
const DAY = 24 * HOUR
const S = DeviceStatus

describe('status list', () => {
  it('has the six seeded statuses with their labels', () => {
    expect(S).toEqual({ creating: 0, running: 1, expired: 2, released: 3, rebooting: 4, failed: 5 })
    expect(Object.values(deviceStatusLabels)).toEqual([
      '创建中',
      '运行中',
      '已到期',
      '已释放',
      '重启中',
      '创建失败',
    ])
  })
})

describe('nextStatus', () => {
  const expireAt = NOW
  it('a running or rebooting phone expires exactly at expireAt', () => {
    expect(nextStatus({ status: S.running, expireAt }, expireAt - 1)).toBe(S.running)
    expect(nextStatus({ status: S.running, expireAt }, expireAt)).toBe(S.expired)
    expect(nextStatus({ status: S.rebooting, expireAt }, expireAt - 1)).toBe(S.rebooting)
    expect(nextStatus({ status: S.rebooting, expireAt }, expireAt)).toBe(S.expired)
  })
  it('an expired phone is kept for RETENTION_MS (2 h) and released exactly then', () => {
    expect(RETENTION_MS).toBe(2 * HOUR)
    expect(releaseAt(expireAt)).toBe(expireAt + 2 * HOUR)
    expect(nextStatus({ status: S.expired, expireAt }, expireAt + RETENTION_MS - 1)).toBe(S.expired)
    expect(nextStatus({ status: S.expired, expireAt }, expireAt + RETENTION_MS)).toBe(S.released)
  })
  it('a running phone found past the retention goes straight to released', () => {
    expect(nextStatus({ status: S.running, expireAt }, expireAt + 3 * HOUR)).toBe(S.released)
  })
  it('time does not move creating, failed or released phones', () => {
    for (const status of [S.creating, S.failed, S.released]) {
      expect(nextStatus({ status, expireAt }, expireAt + DAY)).toBe(status)
    }
  })
})

describe('remaining time', () => {
  it('never goes below zero', () => {
    expect(remainingMs(NOW + 5000, NOW)).toBe(5000)
    expect(remainingMs(NOW - 5000, NOW)).toBe(0)
  })
  it.each([
    [3 * DAY + 5 * HOUR + 30 * MIN, '剩余3天5小时'],
    [3 * DAY + 20 * MIN, '剩余3天'],
    [5 * HOUR + 12 * MIN + 59_000, '剩余5小时12分'],
    [5 * HOUR, '剩余5小时'],
    [12 * MIN + 30_000, '剩余12分钟'],
    [20_000, '剩余1分钟'],
    [0, '已到期'],
    [-HOUR, '已到期'],
  ])('%i ms left reads %s', (left, text) => {
    expect(remainingText(NOW + left, NOW)).toBe(text)
  })
})

describe('expiryBanner', () => {
  /** a phone bought long ago (renewed since): only the 3-day line applies */
  const OLD = NOW - 30 * DAY
  const msg = '您的设备已到期，系统将为您保留2小时，请及时续费'
  it('shows renewalReminderMsg for an expired phone', () => {
    expect(
      expiryBanner({ status: S.expired, expireAt: NOW - HOUR, createdAt: OLD }, NOW, msg),
    ).toEqual({
      kind: 'expired',
      text: msg,
    })
  })
  it('treats a running phone past its expiry as expired', () => {
    expect(expiryBanner({ status: S.running, expireAt: NOW, createdAt: OLD }, NOW, msg)?.kind).toBe(
      'expired',
    )
  })
  it('shows the expiry time when less than 3 days are left', () => {
    const expireAt = new Date(2026, 10, 25, 8, 29, 59).getTime()
    expect(expireAt - NOW).toBeLessThan(EXPIRING_SOON_MS)
    expect(expiryBanner({ status: S.running, expireAt, createdAt: OLD }, NOW, msg)).toEqual({
      kind: 'expiringSoon',
      text: '云手机将于2026-11-25 08:29到期，请及时续费',
    })
  })
  it('tells a grantee, who cannot renew, whom to ask', () => {
    const grant = { ownerMobile: '138****0001' }
    const expireAt = new Date(2026, 10, 25, 8, 29, 59).getTime()
    expect(
      expiryBanner({ status: S.running, expireAt, createdAt: OLD, grant }, NOW, msg)?.text,
    ).toBe('云手机将于2026-11-25 08:29到期，请联系机主138****0001续费')
    expect(
      expiryBanner({ status: S.expired, expireAt: NOW - HOUR, createdAt: OLD, grant }, NOW, msg),
    ).toEqual({
      kind: 'expired',
      text: '云手机已到期，请联系机主138****0001续费',
    })
  })
  it('shows nothing with exactly 3 days left, once released, or for a phone being created', () => {
    const expireAt = NOW + EXPIRING_SOON_MS
    expect(expiryBanner({ status: S.running, expireAt, createdAt: OLD }, NOW, msg)).toBeNull()
    expect(isExpiringSoon({ status: S.running, expireAt, createdAt: OLD }, NOW)).toBe(false)
    expect(isExpiringSoon({ status: S.running, expireAt: expireAt - 1, createdAt: OLD }, NOW)).toBe(
      true,
    )
    const old = NOW - RETENTION_MS
    expect(expiryBanner({ status: S.expired, expireAt: old, createdAt: OLD }, NOW, msg)).toBeNull()
    expect(
      expiryBanner({ status: S.released, expireAt: NOW + DAY, createdAt: OLD }, NOW, msg),
    ).toBeNull()
    expect(
      expiryBanner({ status: S.creating, expireAt: NOW + DAY, createdAt: NOW }, NOW, msg),
    ).toBeNull()
  })

  it('spares a phone bought for a day (or three) until it has lived longer than it has left', () => {
    const oneDay = { status: S.running, expireAt: NOW + DAY, createdAt: NOW }
    expect(expiryBanner(oneDay, NOW, msg)).toBeNull()
    expect(expiryBanner(oneDay, NOW + 12 * HOUR, msg)).toBeNull()
    expect(expiryBanner(oneDay, NOW + 12 * HOUR + 1, msg)?.kind).toBe('expiringSoon')
    const threeDays = { status: S.running, expireAt: NOW + 3 * DAY, createdAt: NOW }
    expect(isExpiringSoon(threeDays, NOW + 36 * HOUR)).toBe(false)
    expect(isExpiringSoon(threeDays, NOW + 36 * HOUR + 1)).toBe(true)
  })
})

describe('what a status allows', () => {
  it('running, rebooting and expired phones can be renewed; the others cannot', () => {
    expect([0, 1, 2, 3, 4, 5].filter(canRenew)).toEqual([S.running, S.expired, S.rebooting])
  })
  it('only a running phone accepts commands', () => {
    expect([0, 1, 2, 3, 4, 5].filter(acceptsCommands)).toEqual([S.running])
  })
  it.each([
    [S.creating, '云手机创建中，请稍后再试'],
    [S.expired, '云手机已到期，请续费后再操作'],
    [S.released, '云手机已释放'],
    [S.rebooting, '云手机重启中，请稍后'],
    [S.failed, '云手机创建失败，请更换云机'],
    [99, '云手机状态异常，请刷新后重试'],
  ])('status %i refuses commands with %s', (status, text) => {
    expect(statusCommandRefusal(status)).toBe(text)
  })
  it('a running phone has no refusal', () => {
    expect(statusCommandRefusal(S.running)).toBeNull()
  })
})
