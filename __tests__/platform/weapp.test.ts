import Taro from '@tarojs/taro'
import weapp from '@/platform/index.weapp'

describe('mini-program platform', () => {
  afterEach(() => jest.restoreAllMocks())

  it('is the applet runtime on the wx channel, without cookies or OAuth', () => {
    expect(weapp.runtime).toBe('applet')
    expect(weapp.clientType).toBe('applet')
    expect(weapp.defaultChannel).toBe('wx')
    expect(weapp.isWeChatBrowser()).toBe(false)
    expect(weapp.officialAccountAuthorize('c', '/x')).toBe(false)
  })
  it('logs in with Taro.login', async () => {
    jest.spyOn(Taro, 'login').mockResolvedValue({ code: 'js-1', errMsg: 'ok' } as never)
    await expect(weapp.wechatLogin()).resolves.toBe('js-1')
  })
  it('reads the terminal type and device info from the system info', () => {
    jest.spyOn(Taro, 'getSystemInfoSync').mockReturnValue({
      platform: 'ios',
      model: 'iPad Air',
      brand: 'Apple',
      system: 'iOS 17.2',
    } as never)
    expect(weapp.terminalType()).toBe('iPad')
    expect(weapp.getDeviceInfo()).toMatchObject({
      brand: 'Apple',
      deviceModel: 'iPad Air',
      osName: 'iOS',
      osVersion: '17.2',
    })
  })
  it('binds the update manager prompts', () => {
    const manager = { onUpdateReady: jest.fn(), onUpdateFailed: jest.fn(), applyUpdate: jest.fn() }
    ;(Taro as unknown as { getUpdateManager: () => unknown }).getUpdateManager = () => manager
    weapp.setupUpdateManager({ showModal: jest.fn().mockResolvedValue({ confirm: true }) })
    expect(manager.onUpdateReady).toHaveBeenCalled()
    expect(manager.onUpdateFailed).toHaveBeenCalled()
  })
})
