import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import type { FastifyInstance, FastifyReply } from 'fastify'
import { fenToYuan } from '#domain/formatters'
import { SANDBOX_SIGNATURE_HEADER } from '../adapters/payment/sandbox/protocol'
import { SandboxPaymentProvider } from '../adapters/payment/sandbox/sandbox-payment'
import { Envelope } from '../contract/common'
import {
  SandboxActBody,
  SandboxActResult,
  SandboxCheckoutQuery,
  type SandboxAction,
} from '../contract/payment'
import { isBizError } from '../domain/biz-error'
import { escapeHtml } from '../domain/html'
import { ok } from '../plugins/envelope'
import type { ApiRouteOptions } from './route-options'

const ACT_PATH = '/vmcloud/api/sandbox/pay/act'

const BUTTONS: { action: SandboxAction; label: string; style: string }[] = [
  { action: 'pay', label: '确认支付', style: 'background:#0e5fd8;color:#fff' },
  {
    action: 'cancel',
    label: '取消支付',
    style: 'background:#fff;color:#333;border:1px solid #ddd',
  },
  {
    action: 'fail',
    label: '模拟失败',
    style: 'background:#fff;color:#cc1f2e;border:1px solid #cc1f2e',
  },
]

function page(title: string, body: string): string {
  return `<!doctype html><html lang="zh-CN"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>body{margin:0;font-family:-apple-system,"PingFang SC","Microsoft YaHei",sans-serif;background:#f5f6f8;color:#333}
main{max-width:420px;margin:0 auto;padding:24px 16px}h1{font-size:18px;text-align:center}
.card{background:#fff;border-radius:12px;padding:20px;margin-bottom:16px}
.amount{font-size:32px;font-weight:600;text-align:center;margin:8px 0 16px}
.row{display:flex;justify-content:space-between;padding:6px 0;font-size:14px}.row span:first-child{color:#888}
.note{font-size:12px;color:#646a78;text-align:center}button{width:100%;height:44px;border-radius:22px;font-size:16px;margin-bottom:12px;cursor:pointer}
a{color:#0e5fd8}</style></head><body><main>${body}</main></body></html>`
}

function sendHtml(reply: FastifyReply, status: number, html: string) {
  return reply.code(status).type('text/html; charset=utf-8').send(html)
}

const messagePage = (message: string) =>
  page('收银台', `<h1>收银台</h1><div class="card">${escapeHtml(message)}</div>`)

/** The sandbox's signed notifications reach our callbacks as a real provider's HTTP call would. */
function connectOutbox(app: FastifyInstance, sandbox: SandboxPaymentProvider) {
  sandbox.outbox.connect(async (url, body, signature) => {
    const response = await app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/json', [SANDBOX_SIGNATURE_HEADER]: signature },
      payload: body,
    })
    if (response.statusCode !== 200) {
      app.log.warn({ url, status: response.statusCode }, 'sandbox notification refused')
    }
    return response.statusCode
  })
  sandbox.outbox.onError = (error) => app.log.error({ err: error }, 'sandbox notification failed')
  app.addHook('onClose', async () => {
    sandbox.outbox.connect(null)
    await sandbox.outbox.close()
  })
}

/**
 * The sandbox payment provider's own pages: a checkout page (pay / cancel / fail) and its action
 * endpoint, which also serves the mini-program's action sheet as JSON. Only registered when a sandbox
 * provider is in use; it is public because the buyer's browser comes here without our token. Each
 * trade is served by the sandbox that opened it (two sandboxes, in tests, share the books).
 */
const sandboxPayRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const sandboxes = app.services.ctx.paymentProviders.all.filter(
    (provider): provider is SandboxPaymentProvider => provider instanceof SandboxPaymentProvider,
  )
  if (sandboxes.length === 0) return
  const tags = ['sandbox']
  for (const sandbox of sandboxes) connectOutbox(app, sandbox)

  /** The trade's view from the sandbox that opened it, and that sandbox; BizError 交易不存在 otherwise. */
  const opened = async (tradeNo: string) => {
    for (const sandbox of sandboxes.slice(0, -1)) {
      try {
        return { sandbox, view: await sandbox.checkoutView(tradeNo) }
      } catch (error) {
        if (!isBizError(error)) throw error
      }
    }
    const last = sandboxes[sandboxes.length - 1]
    return { sandbox: last, view: await last.checkoutView(tradeNo) }
  }

  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string' },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(body as string))),
  )

  app.get(
    '/sandbox/pay/checkout',
    {
      config: { public: true },
      schema: {
        tags,
        description: 'Sandbox checkout page (HTML).',
        querystring: SandboxCheckoutQuery,
      },
    },
    async (request, reply) => {
      let view
      try {
        view = (await opened(request.query.tradeNo)).view
      } catch (error) {
        if (!isBizError(error)) throw error
        return sendHtml(reply, 404, messagePage(error.message))
      }
      const rows = [
        ['订单号', view.orderNo],
        ['交易号', view.tradeNo],
        ['支付方式', view.payMethodText],
      ]
        .map(([k, v]) => `<div class="row"><span>${k}</span><span>${escapeHtml(v)}</span></div>`)
        .join('')
      const actions =
        view.status === 'pending'
          ? BUTTONS.map(
              (b) =>
                `<form method="post" action="${ACT_PATH}"><input type="hidden" name="tradeNo" value="${escapeHtml(view.tradeNo)}"><input type="hidden" name="action" value="${b.action}"><button type="submit" style="${b.style}">${b.label}</button></form>`,
            ).join('')
          : `<div class="card">该笔交易已处理。<a href="${escapeHtml(view.returnUrl)}">返回应用</a></div>`
      return sendHtml(
        reply,
        200,
        page(
          '收银台（沙箱）',
          `<h1>收银台（沙箱）</h1><div class="card"><div class="amount">¥${fenToYuan(view.amount)}</div>${rows}</div>${actions}<p class="note">沙箱环境：不会产生真实扣款</p>`,
        ),
      )
    },
  )

  /** Written to the sandbox's books at once; its signed notification reaches our callback a moment later. */
  const act = async (tradeNo: string, action: SandboxAction) =>
    (await opened(tradeNo)).sandbox.confirm(tradeNo, action)

  app.post(
    '/sandbox/pay/act',
    {
      config: { public: true },
      schema: {
        tags,
        description:
          'The buyer’s choice on the checkout page. A form post is redirected to the returnUrl; JSON (the mini-program’s action sheet) gets an envelope.',
        body: SandboxActBody,
        response: { 200: Envelope(SandboxActResult) },
      },
    },
    async (request, reply) => {
      const fromForm = request.headers['content-type']?.startsWith(
        'application/x-www-form-urlencoded',
      )
      const { tradeNo, action } = request.body
      if (!fromForm) {
        const choice = await act(tradeNo, action)
        return ok({ tradeNo, action, returnUrl: choice.returnUrl })
      }
      try {
        const choice = await act(tradeNo, action)
        return reply.redirect(choice.returnUrl, 303)
      } catch (error) {
        if (!isBizError(error)) throw error
        return sendHtml(reply, 409, messagePage(error.message))
      }
    },
  )
}

export default sandboxPayRoutes
