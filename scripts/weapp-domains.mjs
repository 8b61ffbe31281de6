#!/usr/bin/env node
/**
 * `node scripts/weapp-domains.mjs [--mode production] [--json]` — prints the appid and the domain
 * whitelists a mini-program release needs, for the operator to paste into 微信公众平台 → 开发管理 →
 * 开发设置 → 服务器域名 / 业务域名 (docs/deploy.md, "Releasing the mini-program"). It reads the build's
 * variables the way `taro build` does (Taro's own .env loader: .env, .env.local, .env.<mode>,
 * .env.<mode>.local, the process environment over them; TARO_APP_ID over project.config.json's appid),
 * and exits 1, naming each problem, when the build would not work in a released mini-program
 * (no appid, an http or IP or localhost API base).
 */
import fs from 'node:fs'
import path from 'node:path'
import { createRequire } from 'node:module'
import { weappDomains } from './lib/weapp-domains.mjs'

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const args = process.argv.slice(2)
const modeAt = args.indexOf('--mode')
const mode = modeAt >= 0 ? args[modeAt + 1] : 'production'
const asJson = args.includes('--json')

const { dotenvParse } = createRequire(import.meta.url)('@tarojs/helper')
const fromFiles = dotenvParse(repoRoot, 'TARO_APP_', mode)
const env = { ...fromFiles }
for (const name of [
  'TARO_APP_ID',
  'TARO_APP_API_BASE',
  'TARO_APP_FILE_HOST',
  'WEAPP_WEBVIEW_ORIGINS',
])
  if (process.env[name] !== undefined) env[name] = process.env[name]
const project = JSON.parse(fs.readFileSync(path.join(repoRoot, 'project.config.json'), 'utf8'))

const release = weappDomains(env, project.appid)
if (asJson) {
  console.log(JSON.stringify(release, null, 2))
} else {
  const list = (entries) => (entries.length > 0 ? entries.join(' ') : '(none)')
  console.log(`Mini-program release: appid ${release.appid || '(none)'}, API ${release.apiBase}`)
  console.log('微信公众平台 → 开发管理 → 开发设置 → 服务器域名:')
  console.log(`  request合法域名       ${list(release.request)}`)
  console.log(`  uploadFile合法域名    ${list(release.uploadFile)}`)
  console.log(`  downloadFile合法域名  ${list(release.downloadFile)}`)
  console.log(`  socket合法域名        ${list(release.socket)}`)
  console.log('业务域名 (web-view; WeChat checks a file it gives you at the root of each):')
  console.log(`  ${list(release.webView)}`)
}
if (release.problems.length > 0) {
  console.error(`Not releasable:\n- ${release.problems.join('\n- ')}`)
  process.exit(1)
}
