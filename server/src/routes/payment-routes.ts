import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { PaymentNotificationError } from '../adapters/payment/payment-provider'
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

const paymentRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const { payments, refunds, beans } = app.services
  const provider = app.services.ctx.payment
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

  // The provider's callback: no login, the signature over the exact bytes received is what counts.
  await app.register(async (notify) => {
    notify.addContentTypeParser(
      'application/json',
      { parseAs: 'string' },
      (request, body, done) => {
        request.rawBody = body as string
        try {
          done(null, JSON.parse(body as string))
        } catch {
          done(null, {})
        }
      },
    )
    const refuse = (request: FastifyRequest, reply: FastifyReply, error: unknown) => {
      if (!(error instanceof PaymentNotificationError)) throw error
      request.log.warn({ err: error.message }, 'payment notification refused')
      return sendEnvelope(reply, error.httpStatus, error.httpStatus, error.message)
    }
    notify.post(
      `/pay/notify/${provider.name}`,
      {
        config: { public: true },
        schema: {
          tags,
          description: `${provider.name} provider notifications (signed); a replay changes nothing.`,
          body: Type.Any(),
          response: { 200: Envelope(Type.Object({ outcome: Type.String() })) },
        },
      },
      async (request, reply) => {
        try {
          const outcome = await payments.handleNotification(
            request.headers as Record<string, unknown>,
            request.rawBody ?? '',
          )
          return ok({ outcome })
        } catch (error) {
          return refuse(request, reply, error)
        }
      },
    )
    notify.post(
      `/pay/notify/${provider.name}/refund`,
      {
        config: { public: true },
        schema: {
          tags,
          description: `${provider.name} provider refund notifications (signed); a replay changes nothing.`,
          body: Type.Any(),
          response: { 200: Envelope(Type.Object({ outcome: Type.String() })) },
        },
      },
      async (request, reply) => {
        try {
          const outcome = await refunds.handleNotification(
            request.headers as Record<string, unknown>,
            request.rawBody ?? '',
          )
          return ok({ outcome })
        } catch (error) {
          return refuse(request, reply, error)
        }
      },
    )
  })
}

export default paymentRoutes
