/**
 * Section 6's nginx on this machine: found, given a throwaway certificate and free ports, and started
 * with docs/deploy.md's block as its site.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

import { expect, fail } from './check.mjs'
import { API, PUBLIC_HOST } from './context.mjs'
import { documentedNginxBlock } from './deploy-doc.mjs'
import { children, freePort, run, sleep, work } from './processes.mjs'
import { viaProxy } from './proxy-requests.mjs'

/** NGINX_BIN, else the PATH's nginx or /usr/sbin's (not on a user's PATH); null when none runs. */
export function findNginx() {
  const candidates = process.env.NGINX_BIN
    ? [process.env.NGINX_BIN]
    : [...(process.env.PATH ?? '').split(':').filter(Boolean), '/usr/sbin'].map((dir) =>
        path.join(dir, 'nginx'),
      )
  return (
    candidates.find((file) => {
      try {
        fs.accessSync(file, fs.constants.X_OK)
        return fs.statSync(file).isFile()
      } catch {
        return false
      }
    }) ?? null
  )
}

/**
 * Section 6's certificate and ports, made before the fakes start so that they can trust it: a throwaway
 * self-signed certificate for the public name, and for 127.0.0.1, where the fakes reach nginx.
 */
export async function prepareProxy() {
  const dir = path.join(work, 'nginx')
  fs.mkdirSync(dir)
  const cert = path.join(dir, 'fullchain.pem')
  run('openssl', [
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    `/CN=${PUBLIC_HOST}`,
    '-addext',
    `subjectAltName=DNS:${PUBLIC_HOST},IP:127.0.0.1`,
    '-keyout',
    path.join(dir, 'privkey.pem'),
    '-out',
    cert,
  ])
  return {
    dir,
    cert,
    ca: fs.readFileSync(cert),
    plainPort: await freePort(),
    tlsPort: await freePort(),
    log: (name) => fs.readFileSync(path.join(dir, name), 'utf8'),
  }
}

/**
 * Starts nginx (one process, in the foreground) in front of the two instances with deploy.md's block, and
 * waits for it to answer; `proxy` gains its process and exit.
 */
export async function startNginx(nginx, proxy, [one, two]) {
  const { dir, plainPort, tlsPort } = proxy
  // Only addresses and certificate paths change; every directive is the page's own.
  let site = documentedNginxBlock()
  for (const [from, to] of [
    ['127.0.0.1:3001', `127.0.0.1:${one.env.PORT}`],
    ['127.0.0.1:3002', `127.0.0.1:${two.env.PORT}`],
    ['listen 80;', `listen 127.0.0.1:${plainPort};`],
    ['listen 443 ssl', `listen 127.0.0.1:${tlsPort} ssl`],
    ['/etc/ssl/cloudphone/', `${dir}/`],
  ]) {
    expect(site.includes(from), `deploy.md's nginx block no longer has "${from}"`)
    site = site.replaceAll(from, to)
  }
  fs.writeFileSync(path.join(dir, 'cloudphone.conf'), site)
  const temp = ['client_body', 'proxy', 'fastcgi', 'uwsgi', 'scgi']
    .map((kind) => `${kind}_temp_path ${dir}/${kind};`)
    .join(' ')
  fs.writeFileSync(
    path.join(dir, 'nginx.conf'),
    `pid ${dir}/nginx.pid; error_log ${dir}/error.log;\nevents {}\n` +
      `http { access_log ${dir}/access.log; ${temp}\ninclude ${dir}/cloudphone.conf;\n}\n`,
  )
  const conf = ['-p', dir, '-e', path.join(dir, 'error.log'), '-c', path.join(dir, 'nginx.conf')]
  run(nginx, ['-t', ...conf])
  // One process (no master and workers), so that the clean-up's SIGKILL leaves nothing listening
  proxy.process = spawn(nginx, [...conf, '-g', 'daemon off; master_process off;'], {
    stdio: 'ignore',
  })
  proxy.exited = new Promise((resolve) =>
    proxy.process.on('exit', (code, signal) => resolve({ code, signal })),
  )
  children.add(proxy.process)
  for (let i = 0; ; i++) {
    try {
      await viaProxy(tlsPort, 'GET', `${API}/health`)
      break
    } catch (error) {
      if (i > 40) fail(`nginx does not answer: ${error.message}\n${proxy.log('error.log')}`)
      await sleep(250)
    }
  }
}
