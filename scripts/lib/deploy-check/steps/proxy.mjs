/**
 * Section 6's nginx: step 0 finds it (required under CI), 3b puts deploy.md's block in front of both
 * instances and checks it, 3d stops instance 2 behind it.
 */
import { spawnSync } from 'node:child_process'

import { expect, step } from '../check.mjs'
import { API, FORGED_IP, IN_CI, PUBLIC_HOST, state } from '../context.mjs'
import { findNginx, startNginx } from '../nginx.mjs'
import { children, exitWithin, stopServer } from '../processes.mjs'
import {
  FORGED_NOTIFICATIONS,
  healthLines,
  notifyThroughProxy,
  viaHttp2,
  viaProxy,
} from '../proxy-requests.mjs'

export const nginxForSection6 = step('0. nginx, for section 6', async () => {
  const explicit = process.env.NGINX_BIN
  state.nginx = findNginx()
  expect(!explicit || state.nginx, `NGINX_BIN=${explicit} is not an executable file`)
  if (!state.nginx) {
    expect(
      !IN_CI,
      "no nginx (NGINX_BIN, the PATH, /usr/sbin), and under CI section 6's nginx block must be " +
        "checked, not skipped: install it (.ci/run installs Debian's nginx package)",
    )
    console.log(
      '   none on this machine: 3b and 3d will be SKIPPED (install nginx, or set NGINX_BIN)',
    )
    return
  }
  const version = spawnSync(state.nginx, ['-v'], { encoding: 'utf8' })
  expect(version.status === 0, `${state.nginx} -v exited ${version.status}: ${version.stderr}`)
  console.log(`   ${state.nginx}: ${version.stderr.trim()}`)
})

export const nginxInFrontOfBoth = step(
  "3b. section 6's nginx in front of both instances",
  async () => {
    const { nginx, proxy } = state
    if (!proxy) {
      console.log('   SKIPPED: no nginx on this machine (install it, or set NGINX_BIN)')
      return
    }
    const [one, two] = state.servers
    const { plainPort, tlsPort } = proxy
    await startNginx(nginx, proxy, state.servers)

    const h2 = await viaHttp2(tlsPort, `${API}/health`)
    expect(
      h2.status === 200 && JSON.parse(h2.body).data?.db === 'ok',
      `health over HTTP/2 through nginx: ${h2.status} ${h2.body}`,
    )
    const plain = await viaProxy(plainPort, 'GET', `${API}/health`, { tls: false })
    expect(
      plain.status === 301 && plain.headers.location === `https://${PUBLIC_HOST}${API}/health`,
      `http is not sent to https: ${plain.status} ${plain.headers.location}`,
    )
    const before = [healthLines(one), healthLines(two)]
    for (let i = 0; i < 6; i++) {
      const reply = await viaProxy(tlsPort, 'GET', `${API}/health`, {
        headers: { 'x-forwarded-for': FORGED_IP },
      })
      expect(
        reply.status === 200 && JSON.parse(reply.body).data?.db === 'ok',
        `health through nginx: ${reply.status} ${reply.body}`,
      )
    }
    for (const server of [one, two])
      expect(
        !server.log().includes(FORGED_IP),
        `a client's own X-Forwarded-For (${FORGED_IP}) reached ${server.name}`,
      )
    const after = [healthLines(one), healthLines(two)]
    expect(
      after[0] > before[0] && after[1] > before[1],
      `requests through nginx did not reach both instances (health lines from 127.0.0.1 before ${before}, after ${after})`,
    )
    for (const notification of FORGED_NOTIFICATIONS) await notifyThroughProxy(notification)
    const huge = await viaProxy(tlsPort, 'POST', `${API}/file/upload`, {
      body: Buffer.alloc(5 * 1024 * 1024),
      headers: { 'content-type': 'application/octet-stream' },
    })
    expect(huge.status === 413, `a 5 MB body was not stopped by nginx (status ${huge.status})`)
    // nginx stays up: 3c's notifications and callbacks come through it, 3d stops an instance behind it
    console.log(
      `   TLS verified for ${PUBLIC_HOST}, HTTP/2, http → https, both upstreams (${after[0] - before[0]} + ${after[1] - before[1]} of 6), ` +
        `X-Forwarded-For replaced, forged notifications on both notify paths refused by the server, 413 over 4 MB`,
    )
  },
)

export const instanceOneAloneBehindNginx = step(
  '3d. instance 2 stops; nginx sends requests and notifications to instance 1',
  async () => {
    const { proxy } = state
    if (!proxy) {
      console.log('   SKIPPED: no nginx on this machine')
      return
    }
    const [one, two] = state.servers
    await stopServer(two) // as systemd stops one instance of a rolling restart (section 4)
    const refused = () => (proxy.log('error.log').match(/connect\(\) failed/g) ?? []).length
    const before = [refused(), healthLines(one)]
    // Notifications first, while nginx still counts instance 2 as up (max_fails): some are sent to it
    for (let i = 0; i < 4; i++) await notifyThroughProxy(FORGED_NOTIFICATIONS[i % 2])
    for (let i = 0; i < 4; i++) {
      const reply = await viaProxy(proxy.tlsPort, 'GET', `${API}/health`)
      expect(
        reply.status === 200,
        `health through nginx with instance 2 stopped: ${reply.status} ${reply.body}`,
      )
    }
    const retried = refused() - before[0]
    expect(
      retried > 0,
      `nginx never tried the stopped instance 2, so its failover went unchecked:\n${proxy.log('error.log')}`,
    )
    expect(
      healthLines(one) - before[1] === 4,
      `instance 1 did not answer the 4 health checks through nginx`,
    )
    proxy.process.kill('SIGQUIT')
    const exit = await exitWithin(proxy.exited, 10_000)
    expect(exit?.code === 0, `nginx did not quit within 10 s of SIGQUIT: ${JSON.stringify(exit)}`)
    children.delete(proxy.process)
    console.log(
      `   instance 2 stopped; 4 notifications and 4 requests answered by instance 1 (nginx moved ${retried} refused connections over)`,
    )
  },
)
