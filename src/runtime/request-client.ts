/**
 * The request layer's factory (SPEC 7 and 8): headers, the loading overlay count, the SPEC 8 code
 * table, soft codes, paging and uploads, over injected transport, session, UI and hooks, so tests drive
 * it with fakes. It never imports pages and never navigates by itself: a 2017 answer calls
 * `hooks.onTokenInvalid`. The app's configured client is request.ts; the shapes it takes and gives
 * (RequestDeps, RequestOptions, Outcome, …) are request-types.ts.
 */
import {
  FORM_REQUEST_TIMEOUT_MS,
  LOADING_TEXT,
  PAGE_SIZE,
  REQUEST_TIMEOUT_MS,
} from '@/constants/limits'
import { REQUEST_SUPPLIER_TYPE } from '@/domain/enums'
import {
  LOGIN_EXPIRED_MESSAGE,
  RESOLVED_CODES,
  ResultCode,
  WHOLE_BODY_CODES,
  resultMessages,
  type ApiEnvelope,
} from '@/domain/result-codes'
import { versionCode } from '@/domain/version-code'
import { ApiError, NETWORK_ERROR_CODE, NETWORK_ERROR_MESSAGE, NOT_FOUND_MESSAGE } from './api-error'
import { hasRefusalDialog } from './refusal-dialogs'
import type {
  FetchPageOptions,
  Method,
  Outcome,
  PageResult,
  RequestDeps,
  RequestOptions,
  TransportResponse,
} from './request-types'

/** Calls that neither show the loading overlay nor count as in flight (SPEC 7). */
export const LOADING_EXEMPT_PATHS = [
  '/userUsageLog/saveUserUsageLog',
  '/CommodityGroup/getGoodPrice',
  '/customer/customerService/getUrl',
] as const

export const USAGE_LOG_PATH = '/userUsageLog/saveUserUsageLog'
export const PAGE_LOG_PATH = '/open/event/pageLog'
/** mini-program value of the requestSource header */
export const REQUEST_SOURCE = 'applet'

const pathOf = (url: string) => url.replace(/^https?:\/\/[^/]+/i, '').split('?')[0]

const isEnvelope = (body: unknown): body is ApiEnvelope =>
  typeof body === 'object' && body !== null && typeof (body as ApiEnvelope).code === 'number'

function formEncode(data: unknown): unknown {
  if (!data || typeof data !== 'object') return data
  return Object.entries(data as Record<string, unknown>)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v === null ? '' : String(v))}`)
    .join('&')
}

export function createRequest(deps: RequestDeps) {
  let inFlight = 0

  function headers(extra?: Record<string, string>): Record<string, string> {
    const token = deps.session.token()
    const userId = deps.session.userId()
    const header: Record<string, string> = {
      requestSource: REQUEST_SOURCE,
      channel: deps.session.channel() || deps.platform.defaultChannel,
      terminalType: deps.platform.terminalType(),
      clientType: deps.platform.clientType,
      supplierType: REQUEST_SUPPLIER_TYPE,
    }
    if (token) header.token = token
    if (userId) header.userId = String(userId)
    return { ...header, ...extra }
  }

  function fullUrl(url: string): string {
    const base = /^https?:\/\//i.test(url) ? url : `${deps.baseUrl.replace(/\/$/, '')}${url}`
    return `${base}${base.includes('?') ? '&' : '?'}versionCode=${versionCode(deps.appVersion)}`
  }

  function fail(error: ApiError, url: string, method: Method): ApiError {
    const path = pathOf(url)
    if (path !== USAGE_LOG_PATH && error.msg !== LOGIN_EXPIRED_MESSAGE) {
      deps.logger.report(error, { url: path, method })
    }
    return error
  }

  /**
   * SPEC 8 code table, applied to a response of any HTTP status. The soft codes resolve only for a call
   * made through `outcome` (`soft`), whose caller must tell them from success; any other call rejects
   * them like any other code, so no service can hand a page the null data of a refusal as a success.
   */
  function settle<T>(
    res: TransportResponse,
    options: RequestOptions,
    hadToken: boolean,
    soft = false,
  ): ApiEnvelope<T> {
    const method = options.method ?? 'GET'
    let body = res.data
    if (typeof body === 'string') {
      try {
        body = JSON.parse(body)
      } catch {
        // not JSON: handled below
      }
    }
    if (res.statusCode === 404) {
      deps.ui.toast(NOT_FOUND_MESSAGE, 'danger')
      throw fail(new ApiError(404, NOT_FOUND_MESSAGE), options.url, method)
    }
    if (!isEnvelope(body)) {
      const ok = res.statusCode >= 200 && res.statusCode < 300
      const msg = ok ? '服务返回的数据无法识别' : `服务请求失败（HTTP ${res.statusCode}）`
      throw fail(new ApiError(res.statusCode, msg), options.url, method)
    }
    const { code } = body
    const dialogShown = refusalDialog(code, body.msg, options)
    if (
      code === ResultCode.RESULT_OK ||
      (soft && RESOLVED_CODES.includes(code)) ||
      (code === 0 && pathOf(options.url).startsWith(PAGE_LOG_PATH))
    ) {
      return { ...body, ts: body.ts ?? deps.now() } as ApiEnvelope<T>
    }
    if (code === ResultCode.LOGIN_TOKEN_INVALID) {
      if (options.authRedirect !== false) {
        deps.session.clear()
        deps.hooks.onTokenInvalid(hadToken, body.msg)
      }
      throw new ApiError(code, body.msg)
    }
    const error = new ApiError(code, body.msg, WHOLE_BODY_CODES.includes(code) ? body : undefined)
    error.dialogShown = dialogShown
    throw fail(error, options.url, method)
  }

  /** SPEC 8's refusals a toast cannot settle get their dialog here, whichever page made the call. */
  function refusalDialog(code: number, msg: string, options: RequestOptions): boolean {
    if (options.dialog === false || !deps.ui.refusalDialog || !hasRefusalDialog(code)) return false
    deps.ui.refusalDialog(code, msg || (resultMessages as Record<number, string>)[code] || '')
    return true
  }

  async function withLoading<T>(options: RequestOptions, run: () => Promise<T>): Promise<T> {
    const exempt =
      options.loading === false || LOADING_EXEMPT_PATHS.some((p) => pathOf(options.url) === p)
    if (!exempt) {
      if (inFlight === 0) deps.ui.showLoading(options.loading || LOADING_TEXT)
      inFlight += 1
    }
    try {
      return await run()
    } finally {
      if (!exempt) {
        inFlight -= 1
        if (inFlight === 0) deps.ui.hideLoading()
      }
    }
  }

  /** Resolves with the whole body of a code 200 answer, rejects with ApiError (soft codes too). */
  const request = <T = unknown>(options: RequestOptions): Promise<ApiEnvelope<T>> =>
    send<T>(options, false)

  /** For a route that can answer a soft code: the data, or the refusal with its code and message. */
  async function outcome<T = unknown>(options: RequestOptions): Promise<Outcome<T>> {
    const body = await send<T>(options, true)
    if (body.code === ResultCode.RESULT_OK) return { ok: true, data: body.data }
    return {
      ok: false,
      code: body.code,
      msg: body.msg || (resultMessages as Record<number, string>)[body.code] || '',
    }
  }

  function send<T>(options: RequestOptions, soft: boolean): Promise<ApiEnvelope<T>> {
    const method = options.method ?? 'GET'
    const form = options.contentType === 'form'
    return withLoading(options, async () => {
      const header = headers({
        'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
        ...options.header,
      })
      let res: TransportResponse
      try {
        res = await deps.transport({
          url: fullUrl(options.url),
          method,
          data: form ? formEncode(options.data) : options.data,
          header,
          timeout: options.timeout ?? (form ? FORM_REQUEST_TIMEOUT_MS : REQUEST_TIMEOUT_MS),
        })
      } catch {
        throw fail(new ApiError(NETWORK_ERROR_CODE, NETWORK_ERROR_MESSAGE), options.url, method)
      }
      return settle<T>(res, options, Boolean(header.token), soft)
    })
  }

  const get = <T = unknown>(url: string, params?: unknown, options?: Partial<RequestOptions>) =>
    request<T>({ ...options, url, method: 'GET', data: params })

  const post = <T = unknown>(url: string, data?: unknown, options?: Partial<RequestOptions>) =>
    request<T>({ ...options, url, method: options?.method ?? 'POST', data })

  const getOutcome = <T = unknown>(
    url: string,
    params?: unknown,
    options?: Partial<RequestOptions>,
  ) => outcome<T>({ ...options, url, method: 'GET', data: params })

  const postOutcome = <T = unknown>(
    url: string,
    data?: unknown,
    options?: Partial<RequestOptions>,
  ) => outcome<T>({ ...options, url, method: options?.method ?? 'POST', data })

  /** Form-encoded POST (or PUT via options.method) with the 10 s timeout. */
  const postForm = <T = unknown>(url: string, data?: unknown, options?: Partial<RequestOptions>) =>
    request<T>({ ...options, url, method: options?.method ?? 'POST', data, contentType: 'form' })

  /** Paged list: sends page, rows and params; reads records, page and totalPage from data. */
  async function fetchPage<T>(options: FetchPageOptions): Promise<PageResult<T>> {
    const rows = options.rows ?? PAGE_SIZE
    const payload = { ...options.params, page: options.page, rows }
    const body = await request<Partial<PageResult<T>> | null>({
      url: options.url,
      method: options.method ?? 'GET',
      data: payload,
      loading: options.loading,
    })
    const data = body.data ?? {}
    return {
      records: data.records ?? [],
      page: Number(data.page ?? options.page),
      totalPage: Number(data.totalPage ?? 0),
      total: Number(data.total ?? 0),
    }
  }

  /** Multipart upload of a local file through the same headers and code table. */
  function upload<T = unknown>(
    url: string,
    filePath: string,
    options: { name?: string; formData?: Record<string, string>; loading?: string | false } = {},
  ): Promise<ApiEnvelope<T>> {
    const opts: RequestOptions = { url, method: 'POST', loading: options.loading ?? '上传中' }
    return withLoading(opts, async () => {
      const header = headers()
      let res: TransportResponse
      try {
        res = await deps.upload({
          url: fullUrl(url),
          filePath,
          name: options.name ?? 'file',
          header,
          formData: options.formData,
          timeout: REQUEST_TIMEOUT_MS,
        })
      } catch {
        throw fail(new ApiError(NETWORK_ERROR_CODE, NETWORK_ERROR_MESSAGE), url, 'POST')
      }
      return settle<T>(res, opts, Boolean(header.token))
    })
  }

  /** Relative paths get the file host; absolute http(s) URLs get their origin swapped for it. */
  function fileUrl(path: string | null | undefined): string {
    if (!path) return ''
    const host = deps.fileHost.replace(/\/$/, '')
    if (/^https?:\/\//i.test(path)) return `${host}${path.replace(/^https?:\/\/[^/]+/i, '')}` || '/'
    if (/^[a-z][a-z\d+.-]*:/i.test(path)) return path // data:, blob:, wxfile:// …
    return `${host}${path.startsWith('/') ? '' : '/'}${path}`
  }

  return {
    request,
    get,
    post,
    outcome,
    getOutcome,
    postOutcome,
    postForm,
    fetchPage,
    upload,
    fileUrl,
    headers,
    /** calls currently counted for the loading overlay */
    inFlight: () => inFlight,
    deps,
  }
}

export type RequestClient = ReturnType<typeof createRequest>
