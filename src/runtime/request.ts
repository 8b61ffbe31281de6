/**
 * The configured client the app uses (SPEC 7 and 8): the factory (request-client.ts) wired to the API
 * address, the stored session, Taro's overlay and toasts, the refusal dialogs and the login redirect.
 * Services call `client`; the app store adds the session hook (configureRequest).
 */
import Taro from '@tarojs/taro'
import platform from '@/platform'
import { APP_VERSION, TOAST_DURATION_MS } from '@/constants/limits'
import { isPublicPage } from '@/constants/routes'
import { currentRoute, goLogin } from './navigation'
import { showRefusalDialog } from './refusal-dialogs'
import { createRequest } from './request-client'
import type {
  RequestDeps,
  RequestHooks,
  RequestSession,
  RequestUi,
  TransportResponse,
} from './request-types'
import { STORAGE_KEYS } from './storage-keys'

export { ApiError } from './api-error'

export const DEFAULT_H5_API_BASE = '/vmcloud/api'
/** The mini-program cannot call a relative address: set TARO_APP_API_BASE for real builds. */
export const DEFAULT_WEAPP_API_BASE = 'http://127.0.0.1:3000/vmcloud/api'

const isWeapp = () => process.env.TARO_ENV === 'weapp'

export function resolveApiBase(): string {
  return process.env.TARO_APP_API_BASE || (isWeapp() ? DEFAULT_WEAPP_API_BASE : DEFAULT_H5_API_BASE)
}

/** TARO_APP_FILE_HOST, else the same origin on H5 and the API origin in the mini-program. */
export function resolveFileHost(apiBase: string): string {
  const configured = process.env.TARO_APP_FILE_HOST
  if (configured) return configured.replace(/\/$/, '')
  if (!isWeapp()) return ''
  return (/^https?:\/\/[^/]+/i.exec(apiBase) ?? [''])[0]
}

const storedString = (key: string) => {
  const value = platform.storage.get<string | number>(key)
  return value === undefined || value === null || value === '' ? undefined : String(value)
}

export const storageSession: RequestSession = {
  token: () => storedString(STORAGE_KEYS.token),
  userId: () => storedString(STORAGE_KEYS.userId),
  channel: () => storedString(STORAGE_KEYS.channel),
  clear() {
    platform.storage.remove(STORAGE_KEYS.token)
    platform.storage.remove(STORAGE_KEYS.userId)
    platform.removeCookies(['token', 'userId'])
  },
}

export const taroUi: RequestUi = {
  showLoading: (text) => void Taro.showLoading({ title: text, mask: true }),
  hideLoading: () => void Taro.hideLoading(),
  toast: (msg, kind = 'text') =>
    void Taro.showToast({
      title: msg,
      icon: kind === 'success' ? 'success' : kind === 'danger' ? 'error' : 'none',
      duration: TOAST_DURATION_MS,
    }),
  refusalDialog: (code, msg) => void showRefusalDialog(code, msg),
}

/**
 * SPEC 4: toast the server message only if a token existed; go to login unless the current page
 * is public.
 */
export function createTokenInvalidHandler(env: {
  toast: (msg: string) => void
  currentPath: () => string
  goLogin: () => void
}): RequestHooks['onTokenInvalid'] {
  return (hadToken, msg) => {
    if (hadToken && msg) env.toast(msg)
    if (!isPublicPage(env.currentPath())) env.goLogin()
  }
}

const apiBase = resolveApiBase()

export const client = createRequest({
  baseUrl: apiBase,
  fileHost: resolveFileHost(apiBase),
  appVersion: APP_VERSION,
  session: storageSession,
  ui: taroUi,
  hooks: {
    onTokenInvalid: createTokenInvalidHandler({
      toast: (msg) => taroUi.toast(msg),
      currentPath: currentRoute,
      goLogin: () => goLogin(),
    }),
  },
  logger: {
    report: (error, context) =>
      console.warn('[api]', context.method, context.url, error.code, error.msg),
  },
  platform,
  transport: (o) =>
    Taro.request({ ...o, dataType: 'json' }) as unknown as Promise<TransportResponse>,
  upload: (o) => Taro.uploadFile(o) as unknown as Promise<TransportResponse>,
  now: () => Date.now(),
})

/** Swap parts of the configured client (the app store wiring adds the session hook). */
export function configureRequest(overrides: Partial<RequestDeps>): void {
  Object.assign(client.deps, overrides)
}

export const { request, get, post, postForm, fetchPage, upload, fileUrl } = client
