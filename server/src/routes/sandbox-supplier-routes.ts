import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox'
import { Type } from '@sinclair/typebox'
import { controlPage } from '../adapters/supplier/sandbox/control-page'
import { renderScreen } from '../adapters/supplier/sandbox/screen'
import { SandboxSupplier } from '../adapters/supplier/sandbox/sandbox-supplier'
import type { ApiRouteOptions } from './route-options'
import { registerControlRoutes } from './supplier-control-routes'

/** A screen URL's frame time and its pass (services/devices/screen-access.ts). */
const CoverQuery = Type.Object({
  t: Type.Optional(Type.String({ maxLength: 20 })),
  d: Type.Optional(Type.String({ maxLength: 20 })),
  v: Type.Optional(Type.String({ maxLength: 20 })),
  e: Type.Optional(Type.String({ maxLength: 20 })),
  s: Type.Optional(Type.String({ maxLength: 64 })),
})

/**
 * The sandbox supplier's own pages, as a real supplier would host them: the control page web_instance
 * opens with its state and command calls (supplier-control-routes.ts), and the screen images.
 * Public: the browser arrives without our login headers.
 */
const sandboxSupplierRoutes: FastifyPluginAsyncTypebox<ApiRouteOptions> = async (app) => {
  const supplier = app.services.ctx.supplier
  if (!(supplier instanceof SandboxSupplier)) return
  const sandbox: SandboxSupplier = supplier
  const { screens } = app.services
  const { clock } = app.services.ctx
  const tags = ['sandbox']
  const config = { public: true }

  registerControlRoutes(app, {
    prefix: '/sandbox/supplier',
    tags,
    page: (view) => controlPage(view),
    screenUrl: async ({ instanceId, screenPass }) =>
      instanceId && screenPass ? sandbox.coverUrl(instanceId, clock.now(), screenPass) : null,
  })

  app.get(
    '/sandbox/supplier/cover/:instanceId',
    {
      config,
      schema: {
        tags,
        description:
          'Screen image of an instance (SVG), for the viewer its signed pass names, while they may see the phone.',
        params: Type.Object({ instanceId: Type.String({ pattern: '^sbx_[0-9a-f]{20}$' }) }),
        querystring: CoverQuery,
      },
    },
    async (request, reply) => {
      // the instance id is no credential: only a live pass of someone who may see the phone now
      if (!(await screens.admits(request.params.instanceId, request.query))) {
        return reply
          .code(403)
          .type('text/plain; charset=utf-8')
          .header('cache-control', 'no-store')
          .send('forbidden')
      }
      const snapshot = await sandbox.snapshot(request.params.instanceId)
      if (!snapshot) return reply.code(404).type('text/plain; charset=utf-8').send('not found')
      return reply
        .type('image/svg+xml; charset=utf-8')
        .header('cache-control', 'private, max-age=5')
        .send(renderScreen(snapshot, clock.now().getTime()))
    },
  )
}

export default sandboxSupplierRoutes
