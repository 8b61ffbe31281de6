/**
 * Requests to nginx as a client sends them (https to the public name, its throwaway certificate
 * verified), and what the servers' logs say of them.
 */
import { request as httpRequest } from 'node:http'
import http2 from 'node:http2'
import { request as httpsRequest } from 'node:https'

import { expect } from './check.mjs'
import { API, PUBLIC_HOST, state } from './context.mjs'

/**
 * One request to nginx as a client would send it: https with SNI and Host the public name, the certificate
 * verified (against the throwaway one: any other fails).
 */
export function viaProxy(port, method, route, { body, headers = {}, tls = true } = {}) {
  return new Promise((resolve, reject) => {
    const request = (tls ? httpsRequest : httpRequest)(
      {
        host: '127.0.0.1',
        port,
        method,
        path: route,
        servername: PUBLIC_HOST,
        ca: state.proxy.ca,
        headers: { host: PUBLIC_HOST, ...headers },
        timeout: 10_000,
      },
      (response) => {
        const chunks = []
        response.on('data', (chunk) => chunks.push(chunk))
        response.on('end', () =>
          resolve({
            status: response.statusCode,
            headers: response.headers,
            body: Buffer.concat(chunks).toString(),
          }),
        )
      },
    )
    request.on('error', reject)
    request.on('timeout', () => request.destroy(new Error(`${method} ${route}: no answer in 10 s`)))
    request.end(body)
  })
}

/** One HTTP/2 GET to nginx (the block's `listen 443 ssl http2`), the certificate verified likewise. */
export function viaHttp2(port, route) {
  return new Promise((resolve, reject) => {
    const session = http2.connect(`https://127.0.0.1:${port}`, {
      servername: PUBLIC_HOST,
      ca: state.proxy.ca,
    })
    session.on('error', reject)
    session.setTimeout(10_000, () =>
      session.destroy(new Error(`HTTP/2 ${route}: no answer in 10 s`)),
    )
    const request = session.request({ ':path': route, ':authority': PUBLIC_HOST })
    const chunks = []
    let status = 0
    request.on('response', (headers) => (status = headers[':status']))
    request.on('data', (chunk) => chunks.push(chunk))
    request.on('end', () => {
      session.close()
      resolve({ status, body: Buffer.concat(chunks).toString() })
    })
    request.on('error', reject)
    request.end()
  })
}

/** A forged notification on each of section 6's notify paths (a trade's and a refund's). */
export const FORGED_NOTIFICATIONS = [
  {
    route: `${API}/pay/notify/alipay`,
    body: 'trade_status=TRADE_SUCCESS&sign_type=RSA2&sign=forged',
    type: 'application/x-www-form-urlencoded; charset=utf-8',
  },
  {
    route: `${API}/pay/notify/wechatpay/refund`,
    body: JSON.stringify({ id: 'forged', event_type: 'REFUND.SUCCESS', resource: {} }),
    type: 'application/json',
  },
]

/** Posts it through nginx: the server itself must refuse it (its envelope), not nginx (404, 502, …). */
export async function notifyThroughProxy({ route, body, type }) {
  const reply = await viaProxy(state.proxy.tlsPort, 'POST', route, {
    body,
    headers: { 'content-type': type },
  })
  let envelope = null
  try {
    envelope = JSON.parse(reply.body)
  } catch {
    /* an nginx error page */
  }
  expect(
    reply.status >= 400 && typeof envelope?.ts === 'number' && typeof envelope?.msg === 'string',
    `POST ${route} (forged) through nginx was not refused by the server: ${reply.status} ${reply.body.slice(0, 200)}`,
  )
}

/** Lines of the server's log for GET /health from 127.0.0.1 (nginx's address, as X-Forwarded-For says). */
export const healthLines = (server) =>
  server
    .log()
    .split('\n')
    .filter(
      (line) =>
        line.includes('"/vmcloud/api/health"') && line.includes('"remoteAddress":"127.0.0.1"'),
    ).length
