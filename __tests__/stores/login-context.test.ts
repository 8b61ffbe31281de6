/** Login sends what the client knows (SPEC 3 "Login request"). */
import { makeStores } from './helpers'

describe('SessionStore login context', () => {
  it('mini-program: device fields are sent even when a launch link set a channel code', async () => {
    const { stores, api } = makeStores({ platform: { runtime: 'applet', defaultChannel: 'wx' } })
    stores.session.setChannel('promo')
    stores.session.setPreGroup('spring')
    stores.session.setShareUser(42)
    await stores.session.loginWithCode({ mobilePhone: '13812345678', code: '123456' })
    expect(api.user.loginByCode).toHaveBeenLastCalledWith({
      preGroup: 'spring',
      shareUser: 42,
      channelCode: 'promo',
      deviceId: 'dev-1',
      brand: 'Apple',
      deviceModel: 'iPhone',
      osName: 'iOS',
      system: 'iOS 16',
      osVersion: '16',
      mobilePhone: '13812345678',
      code: '123456',
    })
  })

  it('H5 in the WeChat browser runs on the wx channel: device fields too', async () => {
    const { stores, api } = makeStores({ platform: { isWeChatBrowser: () => true } })
    await stores.session.loginWithPassword({ mobilePhone: '13812345678', password: 'pw123456' })
    expect(api.user.loginByPassword.mock.calls[0][0]).toMatchObject({ deviceModel: 'iPhone' })
  })

  it('plain H5 sends no device fields', async () => {
    const { stores, api } = makeStores()
    await stores.session.loginWithCode({ mobilePhone: '13812345678', code: '123456' })
    expect(api.user.loginByCode.mock.calls[0][0].deviceModel).toBeUndefined()
  })
})
