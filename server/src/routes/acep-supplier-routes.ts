import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { AcepSupplier } from '../adapters/supplier/acep/acep-supplier'
import type { ApiRouteOptions } from './route-options'

/** A screen URL's frame time and its pass (services/screen-access.ts). */
const CoverQuery = Type.Object({
  t: Type.Optional(Type.String({ maxLength: 20 })),
  d: Type.Optional(Type.String({ maxLength: 20 })),
  v: Type.Optional(Type.String({ maxLength: 20 })),
  e: Type.Optional(Type.String({ maxLength: 20 })),
  s: Type.Optional(Type.String({ maxLength: 64 })),
})

/** The biggest screenshot we relay. */
const MAX_SCREEN_BYTES = 4 * 1024 * 1024

/**
 * Our own routes for the ACEP supplier (registered only when it runs): ACEP's callback service, which
 * is verified before anything is read, and the screen relay, which admits a viewer's pass before it
 * fetches the pod's last screenshot from ACEP's storage (the storage address never reaches a browser).
 * Public: ACEP and the image tags arrive without our login headers.
 */
const acepSupplierRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const supplier = app.services.ctx.supplier
  if (!(supplier instanceof AcepSupplier)) return
  const acep: AcepSupplier = supplier
  const { screens } = app.services
  const tags = ['supplier']

  // The signature covers the exact bytes ACEP sent: keep the body as a string here.
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  )

  app.post(
    '/supplier/acep/callback',
    {
      config: { public: true },
      schema: {
        tags,
        description: "ACEP's callback service (回调服务): task and screenshot events.",
      },
    },
    async (request, reply) => {
      const raw = typeof request.body === 'string' ? request.body : ''
      if (!(await acep.acceptCallback(request.headers, raw))) {
        request.log.warn('ACEP callback refused: bad or missing iPaaS-Auth')
        return reply.code(401).send({ code: 401, msg: 'unauthorized' })
      }
      // What ACEP's Ping (连通性测试) expects back.
      return reply.send({ code: 0, msg: 'success' })
    },
  )

  app.get(
    '/supplier/acep/cover/:podId',
    {
      config: { public: true },
      schema: {
        tags,
        description:
          "A pod's last screenshot, for the viewer its signed pass names, while they may see the phone.",
        params: Type.Object({ podId: Type.String({ pattern: '^[0-9A-Za-z_-]{1,40}$' }) }),
        querystring: CoverQuery,
      },
    },
    async (request, reply) => {
      const plain = (code: number, text: string) =>
        reply
          .code(code)
          .type('text/plain; charset=utf-8')
          .header('cache-control', 'no-store')
          .send(text)
      if (!(await screens.admits(request.params.podId, request.query)))
        return plain(403, 'forbidden')
      const address = await acep.screenAddress(request.params.podId)
      if (!address) return plain(404, 'not found')
      const upstream = await fetch(address, { signal: AbortSignal.timeout(10_000) }).catch(
        () => null,
      )
      const type = upstream?.headers.get('content-type') ?? ''
      if (!upstream?.ok || !/^image\/(png|jpeg|webp)$/.test(type)) return plain(502, 'unavailable')
      const bytes = Buffer.from(await upstream.arrayBuffer())
      if (bytes.length > MAX_SCREEN_BYTES) return plain(502, 'unavailable')
      return reply.type(type).header('cache-control', 'private, max-age=5').send(bytes)
    },
  )
}

export default acepSupplierRoutes
