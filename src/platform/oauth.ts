/** Official-account OAuth address (SPEC 2): comes back with isWeChatAuth=1 and the channelCode. */
export function officialAccountAuthUrl(options: {
  appId: string
  origin: string
  redirectPath: string
  channelCode?: string
}): string {
  const path = options.redirectPath.startsWith('/')
    ? options.redirectPath
    : `/${options.redirectPath}`
  const sep = path.includes('?') ? '&' : '?'
  const channel = options.channelCode
    ? `&channelCode=${encodeURIComponent(options.channelCode)}`
    : ''
  const redirect = `${options.origin}${path}${sep}isWeChatAuth=1${channel}`
  return (
    'https://open.weixin.qq.com/connect/oauth2/authorize' +
    `?appid=${encodeURIComponent(options.appId)}` +
    `&redirect_uri=${encodeURIComponent(redirect)}` +
    '&response_type=code&scope=snsapi_base&state=STATE#wechat_redirect'
  )
}
