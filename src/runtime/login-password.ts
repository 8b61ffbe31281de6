/**
 * Flows that need a login password (transfer; the server answers 1331 请先设置登录密码 without one):
 * the page asks for it before the user fills the form, 设置密码 opens on top of the page, and once the
 * password is set the user is back on the page as they left it.
 */
import Taro from '@tarojs/taro'
import { isTabPage, url } from '@/constants/routes'
import { currentRoute, navigate } from './navigation'
import { confirm } from './feedback'

/** true / false from the user info (`hasPassword`), null while it is not known yet. */
export function loginPasswordSet(session: {
  userInfo?: { hasPassword?: boolean } | null
}): boolean | null {
  return session.userInfo?.hasPassword ?? null
}

/** Opens 设置密码, which comes back to this page (query included) once the password is set. */
export function goSetLoginPassword(): Promise<unknown> {
  return navigate('setPassword', { redirect: currentRoute(), resume: 1 })
}

/** The server's 1331: say why, then the same way as goSetLoginPassword. */
export async function askToSetLoginPassword(reason: string): Promise<void> {
  if (await confirm('请先设置登录密码', reason, '去设置')) await goSetLoginPassword()
}

const pathOf = (route: string) => route.split('?')[0].replace(/^\//, '')

/** Taro's H5 router may hand a query value over still URL-encoded. */
function decoded(value: string): string {
  try {
    return value.startsWith('%2F') ? decodeURIComponent(value) : value
  } catch {
    return value
  }
}

/**
 * After 设置密码 opened by goSetLoginPassword: back to the page under it when that is the page to
 * return to (what was typed is still there), else open it (a reload lost the page stack). Only an
 * in-app page is a return address; anything else goes to 我的.
 */
export function resumeAfterPasswordSet(redirect: string | undefined): Promise<unknown> {
  const raw = decoded(redirect ?? '')
  const target = raw.startsWith('/pages/') ? raw : url('mine')
  const pages = Taro.getCurrentPages() as { route?: string; path?: string }[]
  const below = pages[pages.length - 2]
  if (below && pathOf(below.route ?? below.path ?? '') === pathOf(target)) {
    return Taro.navigateBack({ delta: 1 })
  }
  if (isTabPage(target)) return Taro.switchTab({ url: `/${pathOf(target)}` })
  return Taro.redirectTo({ url: target })
}
