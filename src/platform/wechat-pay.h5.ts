/**
 * WeChat Pay on H5. In WeChat's own browser: JSAPI pay through WeixinJSBridge, for the openid a silent
 * authorisation's code gives the server. Elsewhere: H5 pay, whose page (h5_url) the server answers.
 */
import { platform } from './index.h5'
import { newOAuthState, snsapiBaseUrl, takeOAuthState } from './oauth'
import { taroStorage } from './shared'
import type { WechatPayment, WechatPayOutcome, WechatPayParams } from './types'

/** WeChat injects the bridge soon after the page starts; a page that never gets it is not in WeChat. */
const BRIDGE_WAIT_MS = 10_000
export const NO_BRIDGE = '请在微信中打开页面完成支付'

interface Bridge {
  invoke(name: string, params: object, callback: (res: { err_msg?: string }) => void): void
}

const bridgeOf = () => (window as { WeixinJSBridge?: Bridge }).WeixinJSBridge

function bridge(): Promise<Bridge | undefined> {
  if (bridgeOf()) return Promise.resolve(bridgeOf())
  return new Promise((resolve) => {
    const ready = () => {
      clearTimeout(timer)
      resolve(bridgeOf())
    }
    const timer = setTimeout(() => {
      document.removeEventListener('WeixinJSBridgeReady', ready)
      resolve(undefined)
    }, BRIDGE_WAIT_MS)
    document.addEventListener('WeixinJSBridgeReady', ready, { once: true })
  })
}

/** getBrandWCPayRequest's err_msg: `get_brand_wcpay_request:ok`, `:cancel` or `:fail` (with detail). */
function outcomeOf(errMsg = ''): WechatPayOutcome {
  if (errMsg === 'get_brand_wcpay_request:ok') return 'ok'
  if (errMsg === 'get_brand_wcpay_request:cancel') return 'cancel'
  return { fail: errMsg || 'get_brand_wcpay_request:fail' }
}

/** The address without the authorisation's one-time code and state, for the address bar. */
function withoutCode(href: string): string {
  const address = new URL(href)
  address.searchParams.delete('code')
  address.searchParams.delete('state')
  return `${address.pathname}${address.search}${address.hash}`
}

const decoded = (value: string) => {
  try {
    return decodeURIComponent(value) // Taro's H5 router hands query values over still encoded
  } catch {
    return ''
  }
}

export const wechatPayment: WechatPayment = {
  scene() {
    return platform.isWeChatBrowser() ? 'wechatBrowser' : 'browser'
  },

  async payerCode(returnTo) {
    const appId = process.env.TARO_APP_WECHAT_APPID
    // without an official account the server has no way to the openid: it answers for itself
    if (this.scene() !== 'wechatBrowser' || !appId) return {}
    const { origin } = window.location
    window.location.href = snsapiBaseUrl({
      appId,
      origin,
      redirectUri: new URL(returnTo, origin).toString(),
      state: newOAuthState(taroStorage),
      // empty: WeChat's own page; .env.development names the sandbox's (served only outside production)
      authorizeUrl: process.env.TARO_APP_WECHAT_OAUTH_URL,
    })
    return 'redirected'
  },

  takeReturnedCode(query) {
    if (!query.code) return null
    window.history.replaceState(window.history.state, '', withoutCode(window.location.href))
    const code = decoded(query.code)
    // only the authorisation this browser started: a code in a link someone sent would pay as them
    const ours = takeOAuthState(taroStorage, query.state && decoded(query.state))
    return ours && code ? { code } : 'refused'
  },

  async pay(params: WechatPayParams) {
    const jsBridge = await bridge()
    if (!jsBridge) return { fail: NO_BRIDGE }
    return new Promise<WechatPayOutcome>((resolve) =>
      jsBridge.invoke('getBrandWCPayRequest', { ...params }, (res) =>
        resolve(outcomeOf(res?.err_msg)),
      ),
    )
  },
}

export default wechatPayment
