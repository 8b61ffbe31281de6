import { ResultCode, resultMessages, type ResultCodeValue } from '#domain/result-codes'

/** A business outcome the client must see as a result code (HTTP 200); services throw it, one handler maps it. */
export class BizError extends Error {
  readonly code: ResultCodeValue
  /** What the envelope's data carries with the refusal (e.g. which phones cannot move and why). */
  readonly data: unknown

  constructor(code: ResultCodeValue, msg?: string, data: unknown = null) {
    super(msg ?? resultMessages[code])
    this.name = 'BizError'
    this.code = code
    this.data = data
  }
}

/** A refusal whose message the page shows as it is (1080 SHOW_ERROR_TIPS): `throw tip('分组不存在')`. */
export const tip = (msg: string) => new BizError(ResultCode.SHOW_ERROR_TIPS, msg)

export const isBizError = (error: unknown): error is BizError => error instanceof BizError
