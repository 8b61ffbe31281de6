import { resultMessages, type ResultCodeValue } from '#domain/result-codes'

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

export const isBizError = (error: unknown): error is BizError => error instanceof BizError
