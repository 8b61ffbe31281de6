import type {
  FastifyError,
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  FastifyServerOptions,
} from 'fastify'
import fp from 'fastify-plugin'
import { ResultCode } from '#domain/result-codes'
import { isBizError, type BizError } from '../domain/biz-error'
import { sendEnvelope } from './envelope'
import { BARE_ANSWER_HEADERS } from './security-headers'

export const SERVER_ERROR_MESSAGE = '服务器开小差了，请稍后重试'
export const TOO_MANY_REQUESTS_MESSAGE = '请求过于频繁，请稍后再试'
export const API_PREFIX = '/vmcloud/api'
export const BAD_URL_MESSAGE = '请求地址不正确'

interface AjvError {
  keyword: string
  instancePath: string
  params: Record<string, unknown>
}

/** '/workTypes/0/industryId' → 'workTypes[0].industryId' */
export function fieldName(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('')
}

/** Turns the first AJV error into a Chinese message that names the field. */
export function describeValidationError(errors: AjvError[]): string {
  const error = errors[0]
  if (!error) return '请求参数不正确'
  if (error.keyword === 'required')
    return `缺少参数 ${fieldName(`${error.instancePath}/${String(error.params.missingProperty)}`)}`
  const field = fieldName(error.instancePath)
  if (!field) return '请求参数格式不正确'
  const limit = error.params.limit
  switch (error.keyword) {
    case 'type':
      return `${field} 类型不正确`
    case 'minLength':
      return limit === 1 ? `${field} 不能为空` : `${field} 长度不能少于${String(limit)}个字符`
    case 'maxLength':
      return `${field} 长度不能超过${String(limit)}个字符`
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return `${field} 超出允许范围`
    case 'maxItems':
      return `${field} 数量不能超过${String(limit)}个`
    default:
      return `${field} 格式不正确`
  }
}

/** The single place that turns errors into envelopes; 5xx details stay in the log. */
export default fp(async function errorHandling(app: FastifyInstance) {
  app.setErrorHandler(
    (error: FastifyError | BizError, request: FastifyRequest, reply: FastifyReply) => {
      if (isBizError(error)) {
        return sendEnvelope(reply, 200, error.code, error.message, error.data)
      }
      const fastifyError = error as FastifyError
      if (fastifyError.validation) {
        return sendEnvelope(
          reply,
          400,
          400,
          describeValidationError(fastifyError.validation as AjvError[]),
        )
      }
      if (fastifyError.code === 'FST_REQ_FILE_TOO_LARGE') {
        return sendEnvelope(reply, 200, ResultCode.ILLEGAL_FILE, '图片不能超过2MB')
      }
      const status = fastifyError.statusCode ?? 500
      if (status === 429) return sendEnvelope(reply, 429, 429, TOO_MANY_REQUESTS_MESSAGE)
      if (status >= 400 && status < 500) {
        // the code only: a parser's message quotes the body it refused (a password, a token)
        request.log.info(
          { code: fastifyError.code ?? fastifyError.name, status },
          'rejected request',
        )
        const msg = fastifyError.code?.startsWith('FST_ERR_CTP') ? '请求体格式不正确' : '请求不正确'
        return sendEnvelope(reply, status, status, msg)
      }
      // the logger's err serializer (log-redaction.ts) keeps a database error's SQL and values out
      request.log.error({ err: error, errorId: request.id }, 'unhandled error')
      return sendEnvelope(reply, 500, 500, SERVER_ERROR_MESSAGE, { errorId: request.id })
    },
  )
})

/**
 * Fastify's answer to a URL it cannot route (bad percent-encoding such as /%c0%ae, a parameter over
 * the length limit) is its own JSON; this makes it our envelope. Passed as the `frameworkErrors`
 * option when the app is created.
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  error,
  request,
  reply,
) => {
  // no hook runs for these answers, so no security header is set unless set here
  reply.headers(BARE_ANSWER_HEADERS)
  if (error.code === 'FST_ERR_BAD_URL') return sendEnvelope(reply, 400, 400, BAD_URL_MESSAGE)
  if (error.code === 'FST_ERR_MAX_PARAM_LENGTH')
    return sendEnvelope(reply, 414, 414, '请求地址过长')
  request.log.error({ code: error.code }, 'framework error')
  return sendEnvelope(reply, 500, 500, SERVER_ERROR_MESSAGE, { errorId: request.id })
}
