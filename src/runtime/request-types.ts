/**
 * The request layer's contract: what the factory in request-client.ts is given (transport, session, UI,
 * hooks, logger, platform facts) and what its callers pass and get back (RequestOptions, Outcome, pages).
 * Kept apart from the factory so an API module or a test fake reads the shapes without the machinery.
 */
import type { ApiError } from './api-error'
export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE'
export type ToastKind = 'text' | 'success' | 'danger' | 'warn'

export interface RequestUi {
  showLoading(text: string): void
  hideLoading(): void
  toast(msg: string, kind?: ToastKind): void
  /** the dialog of a refusal a toast cannot settle (refusal-dialogs.ts: 1015, 1025, 1057) */
  refusalDialog?(code: number, msg: string): void
}

/** Read access to the stored session; `clear` forgets the stored token and user id. */
export interface RequestSession {
  token(): string | undefined
  userId(): string | undefined
  channel(): string | undefined
  clear(): void
}

export interface RequestHooks {
  /** after a 2017 answer and the session was cleared: toast (if hadToken) and go to login */
  onTokenInvalid(hadToken: boolean, msg: string): void
}

export interface RequestLogger {
  report(error: ApiError, context: { url: string; method: Method }): void
}

export interface RequestPlatformInfo {
  clientType: string
  defaultChannel: string
  terminalType(): string
}

export interface TransportRequest {
  url: string
  method: Method
  data?: unknown
  header: Record<string, string>
  timeout: number
}

export interface TransportResponse {
  statusCode: number
  data: unknown
}

export type Transport = (options: TransportRequest) => Promise<TransportResponse>
export type UploadTransport = (options: {
  url: string
  filePath: string
  name: string
  header: Record<string, string>
  formData?: Record<string, string>
  timeout: number
}) => Promise<TransportResponse>

export interface RequestDeps {
  baseUrl: string
  /** '' = same origin */
  fileHost: string
  appVersion: string
  session: RequestSession
  ui: RequestUi
  hooks: RequestHooks
  logger: RequestLogger
  platform: RequestPlatformInfo
  transport: Transport
  upload: UploadTransport
  now: () => number
}

export interface RequestOptions {
  url: string
  method?: Method
  data?: unknown
  /** extra headers for this call */
  header?: Record<string, string>
  /** loading overlay text (default 加载中); false: no overlay and not counted as in flight */
  loading?: string | false
  timeout?: number
  contentType?: 'json' | 'form'
  /**
   * false: a 2017 answer only rejects, without clearing the session or going to login
   * (used to verify a stored account before switching to it)
   */
  authRedirect?: boolean
  /** false: a 1015/1025/1057 answer only rejects (or resolves), without the request layer's dialog */
  dialog?: boolean
}

/**
 * What a call whose route can answer one of SPEC 8's soft codes (1017, 1025, 1026) resolves with: the
 * data on success, else the code and its message. `data` exists only after checking `ok`, so a page
 * cannot read a refusal as a success.
 */
export type Outcome<T> = { ok: true; data: T } | { ok: false; code: number; msg: string }

export interface PageResult<T> {
  records: T[]
  page: number
  totalPage: number
  total: number
}

export interface FetchPageOptions {
  url: string
  page: number
  rows?: number
  params?: Record<string, unknown>
  method?: Method
  loading?: string | false
}
