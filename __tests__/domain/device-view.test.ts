import { coverPlaceholder, isTransient, statusView } from '@/domain/device-view'

describe('device status display', () => {
  it('uses the cached status config entry for name and colour', () => {
    expect(statusView({ status: 1 }, { status: 1, name: '运行中', color: '#007d59' })).toEqual({
      text: '运行中',
      color: '#007d59',
    })
  })

  it('shows an operation in progress before the status', () => {
    const busy = { status: 1, busy: true, busyText: '更换地区中' }
    expect(statusView(busy, { status: 1, name: '运行中', color: '#007d59' }).text).toBe(
      '更换地区中',
    )
  })

  it('falls back to the server name, then our own label', () => {
    expect(statusView({ status: 4, statusName: '重启中' }, undefined).text).toBe('重启中')
    expect(statusView({ status: 5 }, undefined).text).toBe('创建失败')
  })

  it('polls creating, rebooting and busy phones only', () => {
    expect(isTransient({ status: 0, busy: false })).toBe(true)
    expect(isTransient({ status: 4, busy: false })).toBe(true)
    expect(isTransient({ status: 1, busy: true })).toBe(true)
    expect(isTransient({ status: 1, busy: false })).toBe(false)
    expect(isTransient({ status: 2, busy: false })).toBe(false)
  })

  it('says why there is no screen yet', () => {
    expect(coverPlaceholder(0)).toBe('云手机创建中…')
    expect(coverPlaceholder(3)).toBe('已释放')
  })
})
