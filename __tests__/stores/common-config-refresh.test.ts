/** A relaunch with a stored session shows the configured renewal reminder, not the default. */
import { DEFAULT_RENEWAL_REMINDER } from '@/stores/session-store'
import { STORAGE_KEYS } from '@/runtime/storage-keys'
import { fakeApi, makeStores } from './helpers'

describe('SessionStore.refreshCommonConfig', () => {
  it('a stored session loads the configured reminder quietly, without logging in', async () => {
    const api = fakeApi()
    api.common.getCommonConfig.mockResolvedValue({ renewalReminderMsg: '已到期，请尽快续费' })
    const { stores } = makeStores({
      api,
      storage: { [STORAGE_KEYS.token]: 't', [STORAGE_KEYS.userId]: '5' },
    })
    expect(stores.session.renewMsg).toBe(DEFAULT_RENEWAL_REMINDER)
    await stores.session.refreshCommonConfig()
    expect(api.common.getCommonConfig).toHaveBeenCalledWith({ quiet: true })
    expect(stores.session.renewMsg).toBe('已到期，请尽快续费')
    expect(api.user.loginByCode).not.toHaveBeenCalled()
  })

  it('no session: nothing is fetched', async () => {
    const { stores, api } = makeStores()
    await stores.session.refreshCommonConfig()
    expect(api.common.getCommonConfig).not.toHaveBeenCalled()
    expect(stores.session.renewMsg).toBe(DEFAULT_RENEWAL_REMINDER)
  })

  it('a failed refresh keeps the default text and does not reject', async () => {
    const api = fakeApi()
    api.common.getCommonConfig.mockRejectedValue(new Error('net'))
    const { stores } = makeStores({
      api,
      storage: { [STORAGE_KEYS.token]: 't', [STORAGE_KEYS.userId]: '5' },
    })
    await expect(stores.session.refreshCommonConfig()).resolves.toBeUndefined()
    expect(stores.session.renewMsg).toBe(DEFAULT_RENEWAL_REMINDER)
  })
})
