import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'

/**
 * A call that sends no body means "no fields", for every route. The client's request layer sends its
 * usual `content-type: application/json` even when a call has no data (退出登录's POST /user/exitLogin),
 * and Fastify refuses an empty JSON body with 400 before the handler runs, so the app cleared its token
 * while the server kept the session. Here an empty body (no content-type, or a JSON type
 * with nothing in it) reaches the route as `{}`: a schema whose fields are all optional accepts
 * it, and one with required fields names the missing one.
 */
export default fp(async function emptyBody(app: FastifyInstance) {
  app.addHook('preParsing', async (request, _reply, payload) => {
    const { headers } = request.raw
    // Without content-length or transfer-encoding a request has no body (RFC 9112 §6.3).
    const noBody =
      headers['transfer-encoding'] === undefined &&
      (headers['content-length'] === undefined || headers['content-length'] === '0')
    if (noBody && /^application\/json\s*(;|$)/i.test(headers['content-type'] ?? '')) {
      // Without a content-type Fastify skips parsing a body that is not there.
      delete headers['content-type']
    }
    return payload
  })
  app.addHook('preValidation', async (request) => {
    if (request.body === undefined && request.method !== 'GET' && request.method !== 'HEAD') {
      request.body = {}
    }
  })
})
