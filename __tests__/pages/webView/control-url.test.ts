import { controlPageUrl } from '@/pages/webView/parts/control-url'

describe('control page hand-off', () => {
  it('adds token, userId, userType 2 and isWeb 1', () => {
    expect(
      controlPageUrl('/vmcloud/api/sandbox/supplier/control', { token: 'a b', userId: 7 }),
    ).toBe('/vmcloud/api/sandbox/supplier/control?token=a%20b&userId=7&userType=2&isWeb=1')
  })

  it('keeps an existing query and a hash', () => {
    expect(controlPageUrl('https://x.test/c?deviceId=3#screen', { token: 't', userId: '9' })).toBe(
      'https://x.test/c?deviceId=3&token=t&userId=9&userType=2&isWeb=1#screen',
    )
  })
})
