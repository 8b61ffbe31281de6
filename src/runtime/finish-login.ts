import Taro from '@tarojs/taro'
import { isTabPage, url } from '@/constants/routes'

interface LoginOutcome {
  showModifyPassword?: number
}

/**
 * After any login: offer to set a password when the account has none (showModifyPassword 1), then go
 * back to the page that asked for the login, or to Mine.
 */
export async function finishLogin(result: LoginOutcome | undefined, redirect?: string) {
  if (result?.showModifyPassword === 1) {
    const { confirm } = await Taro.showModal({
      title: '设置登录密码',
      content: '为了账号安全，并方便下次使用手机号和密码登录，建议您现在设置登录密码',
      confirmText: '去设置',
      cancelText: '稍后',
    })
    if (confirm) return Taro.redirectTo({ url: url('setPassword', { redirect }) })
  }
  const target = redirect ? decodeURIComponent(redirect) : url('mine')
  if (isTabPage(target)) return Taro.switchTab({ url: target.split('?')[0] })
  return Taro.redirectTo({ url: target })
}
