import { ApiError } from '@/runtime/api-error'
import { fakeApi, flush, makeStores } from './helpers'

describe('UnreadStore', () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  const advance = async (ms: number) => {
    jest.advanceTimersByTime(ms)
    await flush()
  }

  it('does not poll while logged out', async () => {
    const api = fakeApi()
    const { stores } = makeStores({ api })
    await advance(180_000)
    expect(api.message.getUnreadCount).not.toHaveBeenCalled()
    expect(stores.unread.polling).toBe(false)
  })

  it('polls at once after login and then every 60 seconds, without the loading overlay', async () => {
    const api = fakeApi()
    const { stores } = makeStores({ api })
    await stores.session.loginWithCode({ mobilePhone: '13812345678', code: '1' })
    await flush()
    expect(api.message.getUnreadCount).toHaveBeenCalledTimes(1)
    expect(api.message.getUnreadCount).toHaveBeenCalledWith({ loading: false })
    expect(stores.unread.total).toBe(3)
    expect(stores.unread.counts.longNotice).toBe(1)
    expect(stores.unread.byType(2)).toBe(2)
    await advance(59_999)
    expect(api.message.getUnreadCount).toHaveBeenCalledTimes(1)
    await advance(1)
    expect(api.message.getUnreadCount).toHaveBeenCalledTimes(2)
    stores.dispose()
  })

  it('starts with a stored session', async () => {
    const api = fakeApi()
    const { stores } = makeStores({ api, storage: { accessToken: 't', userId: '1' } })
    await flush()
    expect(api.message.getUnreadCount).toHaveBeenCalledTimes(1)
    stores.dispose()
  })

  it('stops and empties the counts on logout', async () => {
    const api = fakeApi()
    const { stores } = makeStores({ api, storage: { accessToken: 't', userId: '1' } })
    await flush()
    expect(stores.unread.total).toBe(3)
    await stores.session.logout()
    expect(stores.unread.total).toBe(0)
    expect(stores.unread.polling).toBe(false)
    await advance(300_000)
    expect(api.message.getUnreadCount).toHaveBeenCalledTimes(1)
  })

  it('keeps polling after a failed poll and records its message', async () => {
    const api = fakeApi()
    api.message.getUnreadCount.mockRejectedValueOnce(new ApiError(-1, '网络异常，请检查网络后重试'))
    const { stores } = makeStores({ api, storage: { accessToken: 't', userId: '1' } })
    await flush()
    expect(stores.unread.lastError).toBe('网络异常，请检查网络后重试')
    await advance(60_000)
    expect(stores.unread.lastError).toBe('')
    expect(stores.unread.total).toBe(3)
    stores.dispose()
  })
})
