/**
 * What a mini-program release needs from the WeChat console (微信公众平台 → 开发管理 → 开发设置 →
 * 服务器域名 and 业务域名), derived from the same build variables the weapp build reads, so the list
 * pasted there is the list the build calls:
 * - request and uploadFile: the origin of TARO_APP_API_BASE (src/runtime/request.ts sends every call and
 *   upload there);
 * - web-view (业务域名): the origin the control page opens in (src/pages/webView/web_instance.tsx): a
 *   relative control URL is prefixed with TARO_APP_FILE_HOST, else the API origin; a supplier whose
 *   control page lives on its own host adds it with WEAPP_WEBVIEW_ORIGINS (comma-separated);
 * - downloadFile and socket: none (the app downloads nothing; <Image> needs no whitelist).
 * WeChat's rules for these domains (its "网络" guide): https only, no IP address or localhost, and a port
 * only if the console entry names the same one (an explicit :443 is refused unless configured so).
 */

/** What the weapp build falls back to without TARO_APP_API_BASE (src/runtime/request.ts). */
export const DEFAULT_WEAPP_API_BASE = 'http://127.0.0.1:3000/vmcloud/api'
/** The appid WeChat DevTools uses for a project without its own (project.config.json's default). */
export const TOURIST_APPID = 'touristappid'

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/

/** The problem with one address as a WeChat whitelist entry, or null. */
function addressProblem(name, value) {
  let url
  try {
    url = new URL(value)
  } catch {
    return `${name} is not an absolute address: "${value}"`
  }
  if (url.protocol !== 'https:') return `${name} must be https (got "${value}")`
  const host = url.hostname
  if (host === 'localhost' || IPV4.test(host) || host.startsWith('['))
    return `${name} must name a domain, not ${host} (WeChat refuses IP addresses and localhost)`
  // new URL drops :443, but the app would still send it, and WeChat refuses a port the console lacks
  if (/^https:\/\/[^/]+:443(\/|$)/i.test(value))
    return `${name} names port 443: leave the port out (WeChat refuses a port the console entry lacks)`
  return null
}

const origin = (value) => {
  try {
    return new URL(value).origin
  } catch {
    return value
  }
}

/**
 * The release's appid and whitelists from the build's variables (`env`: Taro's .env files with the
 * process environment over them) and project.config.json's appid; `problems` lists what would make
 * the release fail in WeChat.
 */
export function weappDomains(env, projectAppid = TOURIST_APPID) {
  const appid = env.TARO_APP_ID || projectAppid || ''
  const apiBase = env.TARO_APP_API_BASE || DEFAULT_WEAPP_API_BASE
  const fileHost = (env.TARO_APP_FILE_HOST || '').replace(/\/$/, '') || origin(apiBase)
  const extraWebView = (env.WEAPP_WEBVIEW_ORIGINS || '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)

  const problems = []
  if (!appid || appid === TOURIST_APPID)
    problems.push('TARO_APP_ID is not set: the build would carry the tourist appid')
  else if (!/^wx[0-9a-f]{16}$/i.test(appid))
    problems.push(`TARO_APP_ID "${appid}" is not a mini-program appid (wx and 16 hex digits)`)
  const checked = [
    ['TARO_APP_API_BASE', apiBase],
    // unset, it is the API origin, checked above
    ...(env.TARO_APP_FILE_HOST ? [['TARO_APP_FILE_HOST', fileHost]] : []),
    ...extraWebView.map((entry) => ['WEAPP_WEBVIEW_ORIGINS', entry]),
  ]
  for (const [name, value] of checked) {
    const problem = addressProblem(name, value)
    if (problem) problems.push(problem)
  }

  const unique = (list) => [...new Set(list)]
  const apiOrigin = origin(apiBase)
  return {
    appid,
    apiBase,
    request: [apiOrigin],
    uploadFile: [apiOrigin],
    downloadFile: [],
    socket: [],
    webView: unique([origin(fileHost), ...extraWebView.map(origin)]),
    problems,
  }
}
