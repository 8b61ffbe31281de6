/**
 * One autocannon run for the API benches, in a process of its own (the load generator must not share
 * the server's event loop). Reads a JSON spec from the file argv[2] names (a thousand sessions are too
 * long for a command line) and prints autocannon's result as JSON, with
 * `codes`: how many answers carried each envelope code (a refusal is HTTP 200 too):
 *
 *   { url, method?, headers?, body?, connections, duration, sessions?: [{ token, userId, body? }] }
 *
 * `[<id>]` in the body becomes a fresh id per request. With `sessions`, each request is sent as the next
 * of them in turn (autocannon starts each request of a one-request list with a fresh context), so a
 * write that locks its user's row is measured across users; a session's `body`, if any, is merged into
 * the request body (each buyer orders its own goods, say).
 */
import fs from 'node:fs'
import autocannon from 'autocannon'

const spec = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'))
const body = spec.body === undefined ? undefined : JSON.stringify(spec.body)
let next = 0
const codes = {}

const result = await autocannon({
  url: spec.url,
  method: spec.method ?? 'GET',
  headers: spec.headers,
  body,
  idReplacement: body?.includes('[<id>]') ?? false,
  connections: spec.connections,
  duration: spec.duration,
  requests: [
    {
      setupRequest(request) {
        if (!spec.sessions) return request
        const session = spec.sessions[next++ % spec.sessions.length]
        request.headers = {
          ...request.headers,
          token: session.token,
          userid: String(session.userId),
        }
        if (session.body) request.body = JSON.stringify({ ...spec.body, ...session.body })
        return request
      },
      onResponse(status, text) {
        // the envelope's code, without parsing every answer (a list answer is large)
        const code = /^\{"code":(\d+)/.exec(text)?.[1] ?? `HTTP ${status}`
        codes[code] = (codes[code] ?? 0) + 1
      },
    },
  ],
})
process.stdout.write(JSON.stringify({ ...result, codes }))
