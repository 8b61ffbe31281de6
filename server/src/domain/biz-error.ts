import {
  operatorMessages,
  ResultCode,
  resultMessages,
  type OperatorCodeValue,
  type ResultCodeValue,
} from '#domain/result-codes'

const MESSAGES: Readonly<Record<number, string>> = { ...resultMessages, ...operatorMessages }

/** A business outcome the client must see as a result code (HTTP 200); services throw it, one handler maps it. */
export class BizError extends Error {
  /** A SPEC 8 code, or on /vmcloud/admin/api an operator console code. */
  readonly code: ResultCodeValue | OperatorCodeValue
  /** What the envelope's data carries with the refusal (e.g. which phones cannot move and why). */
  readonly data: unknown

  constructor(code: ResultCodeValue | OperatorCodeValue, msg?: string, data: unknown = null) {
    super(msg ?? MESSAGES[code])
    this.name = 'BizError'
    this.code = code
    this.data = data
  }
}

/** A refusal whose message the page shows as it is (1080 SHOW_ERROR_TIPS): `throw tip('分组不存在')`. */
export const tip = (msg: string) => new BizError(ResultCode.SHOW_ERROR_TIPS, msg)

export const isBizError = (error: unknown): error is BizError => error instanceof BizError
