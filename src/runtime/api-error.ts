import type { ApiEnvelope } from '../domain/result-codes'

/** Every rejection of the request layer. Pages show `err.msg`. */
export class ApiError extends Error {
  readonly code: number
  readonly msg: string
  /** the whole response body, for the codes SPEC 8 rejects with the body (1090, 1057, 1330) */
  readonly body?: ApiEnvelope
  /** the request layer already showed this refusal's dialog (1015, 1025, 1057): no toast on top */
  dialogShown = false

  constructor(code: number, msg: string, body?: ApiEnvelope) {
    super(msg)
    this.name = 'ApiError'
    this.code = code
    this.msg = msg
    this.body = body
  }
}

/** The code of a failed call's ApiError (null: not an answer of the server's, e.g. a TypeError). */
export const failureCode = (error: unknown): number | null =>
  error instanceof ApiError ? error.code : null

export const NETWORK_ERROR_CODE = -1
export const NETWORK_ERROR_MESSAGE = '网络异常，请检查网络后重试'
export const NOT_FOUND_MESSAGE = 'Not Found'

/** The message to show for any thrown value. */
export function errorMessage(error: unknown, fallback = '操作失败，请稍后重试'): string {
  if (error instanceof ApiError) return error.msg
  if (error instanceof Error && error.message) return error.message
  if (typeof error === 'string' && error) return error
  return fallback
}
