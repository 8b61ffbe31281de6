import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type, type Static } from '@sinclair/typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { notifyRoute, PaymentNotificationError } from '../adapters/payment/payment-provider'
import { Envelope } from '../contract/common'
import { BeanBalance, CreatePaymentBody, CreatePaymentResult } from '../contract/payment'
import { currentUser } from '../plugins/auth'
import { ok, sendEnvelope } from '../plugins/envelope'
import { bearer, type ApiRouteOptions } from './route-options'

declare module 'fastify' {
  interface FastifyRequest {
    rawBody?: string
  }
}

const NotifyParams = Type.Object({ provider: Type.String({ maxLength: 32 }) })
type NotifyParams = Static<typeof NotifyParams>
type ParserDone = (error: Error | null, body?: unknown) => void

const paymentRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { payments, paymentSettlement, refunds, beans } = app.services
  const tags = ['支付']
  const security = bearer

  app.post(
    '/pay/createPayment',
    {
      schema: {
        tags,
        security,
        description:
          'payMethod 3 (beans) settles at once (paid: true, 1015 when short); 1/2 return the provider checkoutUrl, ' +
          'or wxPayParams for wechatPay in the miniProgram/wechatBrowser scene (1004 when wxCode is missing or refused).',
        body: CreatePaymentBody,
        response: { 200: Envelope(CreatePaymentResult) },
      },
    },
    async (request) =>
      ok(await payments.createPayment(currentUser(request).userId, request.body, request.ip)),
  )

  app.get(
    '/pay/beanBalance',
    { schema: { tags, security, response: { 200: Envelope(BeanBalance) } } },
    async (request) =>
      ok({ balance: await beans.balance(currentUser(request).userId, app.services.ctx.db) }),
  )

  // The providers' callbacks: no login, the signature over the exact bytes received is what counts.
  // WeChat Pay posts JSON, Alipay a form; both bodies reach the provider as received.
  await app.register(async (notify) => {
    const keepRaw = (request: FastifyRequest, body: string | Buffer, done: ParserDone) => {
      request.rawBody = body as string
      done(null, {})
    }
    notify.addContentTypeParser('application/json', { parseAs: 'string' }, keepRaw)
    notify.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, keepRaw)
    const headersOf = (request: FastifyRequest) => request.headers as Record<string, unknown>
    /** The provider's own reply when it has one (notifyReply), else our envelope with the outcome. */
    const handled = (reply: FastifyReply, providerName: string, outcome: string) => {
      const own = app.services.ctx.paymentProviders.running(providerName).notifyReply
      if (!own) return ok({ outcome })
      return reply.code(200).type(own.contentType).send(own.body)
    }
    const refuse = (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
      if (!(error instanceof PaymentNotificationError)) throw error
      request.log.warn({ err: error.message }, 'payment notification refused')
      return sendEnvelope(reply, error.httpStatus, error.httpStatus, error.message)
    }
    const route = (kind: 'trade' | 'refund') => ({
      config: { public: true },
      schema: {
        tags,
        description:
          `${kind === 'trade' ? 'Trade' : 'Refund'} notifications of the payment provider named in the path ` +
          `(${providerNames}), verified by it (signature over the raw JSON or form body); a replay changes nothing. ` +
          'Answered with the provider’s own reply (Alipay: success; WeChat Pay: {"code":"SUCCESS"}), the sandbox with the envelope; ' +
          'refused with 4xx and nothing written.',
        params: NotifyParams,
        body: Type.Any(),
      },
    })
    const providerNames = app.services.ctx.paymentProviders.names.join(', ')
    notify.post(notifyRoute(':provider'), route('trade'), async (request, reply) => {
      const { provider } = request.params as NotifyParams
      try {
        const outcome = await paymentSettlement.handleNotification(
          provider,
          headersOf(request),
          request.rawBody ?? '',
        )
        return handled(reply, provider, outcome)
      } catch (error) {
        return refuse(request, reply, error)
      }
    })
    notify.post(notifyRoute(':provider', 'refund'), route('refund'), async (request, reply) => {
      const { provider } = request.params as NotifyParams
      try {
        const outcome = await refunds.handleNotification(
          provider,
          headersOf(request),
          request.rawBody ?? '',
        )
        return handled(reply, provider, outcome)
      } catch (error) {
        return refuse(request, reply, error)
      }
    })
  })
}

export default paymentRoutes
