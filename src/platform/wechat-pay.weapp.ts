/** WeChat Pay in the mini-program: JSAPI pay through wx.requestPayment, for the openid of a fresh login code. */
import Taro from '@tarojs/taro'
import { platform } from './index.weapp'
import type { WechatPayment } from './types'

export const wechatPayment: WechatPayment = {
  scene() {
    return 'miniProgram'
  },

  async payerCode() {
    return { wxCode: await platform.wechatLogin() }
  },

  takeReturnedCode() {
    return null // the mini-program never leaves for an authorisation page
  },

  async pay(params) {
    try {
      // appId is the mini-program's own: wx.requestPayment does not take it
      await Taro.requestPayment({
        timeStamp: params.timeStamp,
        nonceStr: params.nonceStr,
        package: params.package,
        signType: params.signType,
        paySign: params.paySign,
      })
      return 'ok'
    } catch (error) {
      const errMsg = (error as { errMsg?: string } | undefined)?.errMsg ?? String(error)
      // 'requestPayment:fail cancel' when the buyer closes the sheet
      return /cancel/.test(errMsg) ? 'cancel' : { fail: errMsg }
    }
  },
}

export default wechatPayment
