import { resultMessages, type ResultCodeValue } from '../../../src/domain/result-codes'

/** A business outcome the client must see as a result code (HTTP 200); services throw it, one handler maps it. */
export class BizError extends Error {
  readonly code: ResultCodeValue

  constructor(code: ResultCodeValue, msg?: string) {
    super(msg ?? resultMessages[code])
    this.name = 'BizError'
    this.code = code
  }
}

export const isBizError = (error: unknown): error is BizError => error instanceof BizError
