/**
 * The empty Taro app (empty-taro-app.mjs) built for H5 and served as our server serves our build, for
 * benches that load both in a browser.
 */
import { execFileSync } from 'node:child_process'
import path from 'node:path'
import Fastify from 'fastify'
import { REPO_ROOT } from '../../e2e/harness.ts'
import { isSpaNavigation, registerH5, sendSpaIndex } from '../../server/src/plugins/h5-static.ts'
import { emptyH5Output, finishEmptyH5, writeEmptyTaroApp } from './empty-taro-app.mjs'

/** Our page → the empty app's page of the same kind. */
export const PAGES = [
  ['Home (tab)', '/pages/Home/index', '/pages/index/index'],
  ['Login (sub-package)', '/pages/login/login', '/pages/sub/first/index'],
  ['Create (tab)', '/pages/Home/create', '/pages/create/index'],
]

/**
 * Writes the empty app under `work`, builds it for H5 (precompressed) and returns the build's directory
 * (in a smoke run, the run's build once made: emptyH5Output).
 */
export function buildEmptyH5(work) {
  const { out, built } = emptyH5Output(path.join(work, 'empty-h5'))
  if (built) return out
  const dir = writeEmptyTaroApp(REPO_ROOT, path.join(work, 'empty-app'))
  const env = { ...process.env, TARO_OUTPUT_DIR: out, NODE_ENV: 'production' }
  execFileSync(path.join(REPO_ROOT, 'node_modules/.bin/taro'), ['build', '--type', 'h5'], {
    cwd: dir,
    env,
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  finishEmptyH5(REPO_ROOT, out)
  return out
}

/** A build behind our H5 static plugin; page URLs get index.html, as on our server. */
export async function serveBuild(dir) {
  const app = Fastify()
  await registerH5(app, dir)
  app.setNotFoundHandler((request, reply) =>
    isSpaNavigation(request) ? sendSpaIndex(request, reply, dir) : reply.code(404).send(),
  )
  const url = await app.listen({ host: '127.0.0.1', port: 0 })
  return { url, close: () => app.close() }
}
