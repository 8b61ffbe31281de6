/**
 * One autocannon run for bench/api-throughput.ts, in a process of its own (the load generator must not
 * share the server's event loop). Reads a JSON spec from argv[2] and prints autocannon's result as JSON:
 *
 *   { url, method?, headers?, body?, connections, duration, sessions?: [{ token, userId }] }
 *
 * `[<id>]` in the body becomes a fresh id per request. With `sessions`, each connection signs in as one
 * of them (round robin), so a write that locks its user's row is measured across users; a session's
 * `body`, if any, is merged into the request body (each buyer orders its own goods, say).
 */
import autocannon from 'autocannon'

const spec = JSON.parse(process.argv[2])
const body = spec.body === undefined ? undefined : JSON.stringify(spec.body)
let next = 0

const result = await autocannon({
  url: spec.url,
  method: spec.method ?? 'GET',
  headers: spec.headers,
  body,
  idReplacement: body?.includes('[<id>]') ?? false,
  connections: spec.connections,
  duration: spec.duration,
  requests: spec.sessions
    ? [
        {
          setupRequest(request, context) {
            context.session ??= spec.sessions[next++ % spec.sessions.length]
            request.headers = {
              ...request.headers,
              token: context.session.token,
              userid: String(context.session.userId),
            }
            if (context.session.body) {
              request.body = JSON.stringify({ ...spec.body, ...context.session.body })
            }
            return request
          },
        },
      ]
    : undefined,
})
process.stdout.write(JSON.stringify(result))
