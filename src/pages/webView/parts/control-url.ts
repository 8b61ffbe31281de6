/** The supplier control page address with the token hand-off (SPEC 7 "Web-page hand-off"). */
export const CONTROL_USER_TYPE = 2
export const USER_INFO_FAILED = '用户信息获取失败，请刷新页面重新尝试'

export function controlPageUrl(
  controlUrl: string,
  handOff: { token: string; userId: number | string },
): string {
  const params = [
    ['token', handOff.token],
    ['userId', String(handOff.userId)],
    ['userType', String(CONTROL_USER_TYPE)],
    ['isWeb', '1'],
  ]
    .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
    .join('&')
  const [base, hash] = controlUrl.split('#')
  const joined = `${base}${base.includes('?') ? '&' : '?'}${params}`
  return hash === undefined ? joined : `${joined}#${hash}`
}
