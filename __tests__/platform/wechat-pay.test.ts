import Taro from '@tarojs/taro'
import h5 from '@/platform/wechat-pay.h5'
import weapp from '@/platform/wechat-pay.weapp'
import { NO_BRIDGE } from '@/platform/wechat-pay.h5'
import { newOAuthState, OAUTH_STATE_KEY, snsapiBaseUrl } from '@/platform/oauth'
import { taroStorage } from '@/platform/shared'

const PARAMS = {
  appId: 'wx1',
  timeStamp: '1',
  nonceStr: 'n',
  package: 'prepay_id=p',
  signType: 'RSA' as const,
  paySign: 's',
}
const bridgeWindow = window as { WeixinJSBridge?: unknown }

afterEach(() => {
  jest.restoreAllMocks()
  jest.useRealTimers()
  delete bridgeWindow.WeixinJSBridge
  delete process.env.TARO_APP_WECHAT_APPID
})

describe('WeChat Pay on H5', () => {
  it('is H5 pay outside WeChat, and asks for no code there or without an official account', async () => {
    expect(h5.scene()).toBe('browser')
    process.env.TARO_APP_WECHAT_APPID = 'wx1'
    await expect(h5.payerCode('/pages/pay/pay?orderNo=1')).resolves.toEqual({})
    jest.spyOn(navigator, 'userAgent', 'get').mockReturnValue('Mozilla/5.0 MicroMessenger/8.0')
    expect(h5.scene()).toBe('wechatBrowser')
    delete process.env.TARO_APP_WECHAT_APPID
    await expect(h5.payerCode('/pages/pay/pay?orderNo=1')).resolves.toEqual({})
  })

  it('answers what the bridge says, and a failure when WeChat never gives the page its bridge', async () => {
    const answer = (err_msg?: string) => {
      bridgeWindow.WeixinJSBridge = {
        invoke: (_n: string, _p: object, cb: (r: { err_msg?: string }) => void) => cb({ err_msg }),
      }
      return h5.pay(PARAMS)
    }
    await expect(answer('get_brand_wcpay_request:ok')).resolves.toBe('ok')
    await expect(answer('get_brand_wcpay_request:cancel')).resolves.toBe('cancel')
    await expect(answer('get_brand_wcpay_request:fail 签名错误')).resolves.toEqual({
      fail: 'get_brand_wcpay_request:fail 签名错误',
    })
    await expect(answer(undefined)).resolves.toEqual({ fail: 'get_brand_wcpay_request:fail' })
    delete bridgeWindow.WeixinJSBridge
    jest.useFakeTimers()
    const waiting = h5.pay(PARAMS)
    jest.advanceTimersByTime(10_000)
    await expect(waiting).resolves.toEqual({ fail: NO_BRIDGE })
  })

  it('takes a returned code once: none → null and the address untouched; unreadable → refused', () => {
    window.history.replaceState(null, '', '/pages/pay/pay?orderNo=1')
    expect(h5.takeReturnedCode({})).toBeNull()
    expect(window.location.search).toBe('?orderNo=1')
    const state = newOAuthState(taroStorage)
    window.history.replaceState(null, '', '/pages/pay/pay?orderNo=1&code=%E0%A4%A&state=' + state)
    expect(h5.takeReturnedCode({ code: '%E0%A4%A', state })).toBe('refused')
    expect(window.location.search).toBe('?orderNo=1')
    expect(taroStorage.get(OAUTH_STATE_KEY)).toBeUndefined() // the state is used up either way
    const next = newOAuthState(taroStorage)
    expect(h5.takeReturnedCode({ code: 'c%2B1', state: next })).toEqual({ code: 'c+1' })
    expect(h5.takeReturnedCode({ code: 'c%2B1', state: next })).toBe('refused') // once
  })

  it('the silent authorisation keeps the return address whole, query and all', () => {
    const link = snsapiBaseUrl({
      appId: 'wx1',
      origin: 'https://m.example.com',
      redirectUri: 'https://m.example.com/pages/pay/pay?link=a%26b&payMethod=2',
      state: 's',
    })
    const parsed = new URL(link)
    expect(parsed.origin + parsed.pathname).toBe(
      'https://open.weixin.qq.com/connect/oauth2/authorize',
    )
    expect(parsed.searchParams.get('redirect_uri')).toBe(
      'https://m.example.com/pages/pay/pay?link=a%26b&payMethod=2',
    )
    expect(parsed.searchParams.get('scope')).toBe('snsapi_base')
  })
})

describe('WeChat Pay in the mini-program', () => {
  it('is JSAPI pay with a fresh Taro.login code, and never looks for a returned one', async () => {
    expect(weapp.scene()).toBe('miniProgram')
    expect(weapp.takeReturnedCode({ code: 'x', state: 'y' })).toBeNull()
    jest.spyOn(Taro, 'login').mockResolvedValue({ code: 'js-9', errMsg: 'login:ok' } as never)
    await expect(weapp.payerCode('/ignored')).resolves.toEqual({ wxCode: 'js-9' })
  })

  it.each([
    [{ errMsg: 'requestPayment:fail cancel' }, 'cancel'],
    [{ errMsg: 'requestPayment:cancel' }, 'cancel'],
    [{ errMsg: 'requestPayment:fail 余额不足' }, { fail: 'requestPayment:fail 余额不足' }],
    [new Error('boom'), { fail: 'Error: boom' }],
  ])('Taro.requestPayment rejecting with %j → %j', async (rejection, outcome) => {
    jest.spyOn(Taro, 'requestPayment').mockRejectedValue(rejection)
    await expect(weapp.pay(PARAMS)).resolves.toEqual(outcome)
  })

  it('ok only when Taro.requestPayment resolves', async () => {
    const request = jest
      .spyOn(Taro, 'requestPayment')
      .mockResolvedValue({ errMsg: 'requestPayment:ok' } as never)
    await expect(weapp.pay(PARAMS)).resolves.toBe('ok')
    expect(request).toHaveBeenCalledWith({
      timeStamp: '1',
      nonceStr: 'n',
      package: 'prepay_id=p',
      signType: 'RSA',
      paySign: 's',
    })
  })
})
