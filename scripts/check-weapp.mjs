#!/usr/bin/env node
/**
 * `npm run check:weapp [-- <dir>]` — checks a built mini-program (default dist/weapp, after
 * `npm run build:weapp`) with WeChat's own tools, offline:
 *
 *   1. pages:    every page in app.json (main package and sub-packages) has its .js and .wxml, and
 *                the main package's scripts hold no webpack async module (src/app.tsx awaits only
 *                on H5: App() must run as app.js loads);
 *   2. wcc:      every .wxml compiles with Tencent's WXML compiler (the `wcc` binary shipped in
 *                miniprogram-compiler, a dependency of miniprogram-simulate), with all .wxs files;
 *   3. budgets:  our budgets: main package ≤ 600 KiB, each sub-package ≤ 400 KiB, all
 *                ≤ 4 MiB; and WeChat's limit on what a preloadRule entry (and all entries of one
 *                package together) may preload, 2048 KiB;
 *   4. compile:  miniprogram-ci `getCompiledResult` (JS/WXSS syntax, app.json fields, missing
 *                pages/components, unknown preloadRule packages).
 *
 * Every check runs even when an earlier one failed; the exit code is 1 when any failed.
 */
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { createRequire } from 'node:module'
import { KiB, MAIN, subPackagesOf, walk, weappPackageSizes } from './lib/weapp-packages.mjs'

const MiB = 1024 * KiB
const MAIN_LIMIT = 600 * KiB
const SUB_PACKAGE_LIMIT = 400 * KiB
const TOTAL_LIMIT = 4 * MiB
const PRELOAD_LIMIT = 2048 * KiB
const CI_TIMEOUT_MS = 5 * 60 * 1000

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const require = createRequire(path.join(repoRoot, 'package.json'))
const distDir = path.resolve(process.argv[2] || path.join(repoRoot, 'dist/weapp'))

let wccSource = ''
const failures = []
const passed = []
const fail = (check, message) => {
  failures.push(`${check}: ${message}`)
  console.error(`  ✗ ${message}`)
}
const ok = (check, message) => {
  passed.push(check)
  console.log(`  ✓ ${message}`)
}
const banner = (title) => console.log(`\n== ${title}`)
const rel = (file) => path.relative(distDir, file).split(path.sep).join('/')
const fmtKiB = (bytes) => `${(bytes / KiB).toFixed(1)} KiB`

function readJson(file) {
  return JSON.parse(fs.readFileSync(file, 'utf8'))
}

// ---------------------------------------------------------------------------------------------------
console.log(`check:weapp — checking ${distDir}`)
if (!fs.existsSync(path.join(distDir, 'app.json'))) {
  console.error(
    `\n✗ ${path.join(distDir, 'app.json')} not found: run \`npm run build:weapp\` first.`,
  )
  process.exit(1)
}
const appJson = readJson(path.join(distDir, 'app.json'))
const subPackages = subPackagesOf(appJson)
const files = walk(distDir)

// 1. pages ------------------------------------------------------------------------------------------
banner('1. pages listed in app.json exist (.js and .wxml)')
{
  const pages = [
    ...(appJson.pages || []),
    ...subPackages.flatMap((sp) => (sp.pages || []).map((p) => `${sp.root}/${p}`)),
  ]
  const missing = []
  for (const page of pages) {
    for (const ext of ['.js', '.wxml']) {
      if (!fs.existsSync(path.join(distDir, page + ext))) missing.push(page + ext)
    }
  }
  if (pages.length === 0) fail('pages', 'app.json lists no pages')
  for (const file of missing) fail('pages', `missing ${file}`)
  // webpack's runtime for modules that await at their top level keeps them in Symbol("webpack queues")
  const asyncModules = files
    .filter((f) => f.endsWith('.js') && path.dirname(f) === distDir)
    .filter((f) => fs.readFileSync(f, 'utf8').includes('webpack queues'))
  for (const file of asyncModules) fail('pages', `${rel(file)} holds an async module`)
  if (pages.length > 0 && missing.length === 0) {
    ok(
      'pages',
      `${pages.length} pages (${appJson.pages?.length ?? 0} main, ${subPackages.length} sub-packages)`,
    )
  }
}

// 2. wcc ---------------------------------------------------------------------------------------------
banner('2. WXML compiles with wcc')
{
  const wcc = findWcc()
  if (!wcc) {
    fail('wcc', 'wcc binary not found (is miniprogram-simulate installed?)')
  } else {
    const wxml = files
      .filter((f) => f.endsWith('.wxml'))
      .map(rel)
      .sort()
    const wxs = files
      .filter((f) => f.endsWith('.wxs'))
      .map(rel)
      .sort()
    // Custom-component table as WeChat DevTools passes it: count, then per file: path, n, tag names.
    const components = []
    for (const file of wxml) {
      const json = path.join(distDir, file.replace(/\.wxml$/, '.json'))
      const using = fs.existsSync(json) ? readJson(json).usingComponents : null
      if (using && Object.keys(using).length > 0) {
        components.push(file, Object.keys(using).length, ...Object.keys(using))
      }
    }
    const componentArg = [components.length ? countEntries(components) : 0, ...components].join(' ')
    const args = ['-d', '-cc', componentArg, ...wxml, ...wxs, '-gn', '$gwx']
    const res = spawnSync(wcc, args, { cwd: distDir, maxBuffer: 256 * MiB, encoding: 'utf8' })
    if (res.error) {
      fail('wcc', `could not run ${wcc}: ${res.error.message}`)
    } else if (res.status !== 0) {
      const detail = (res.stderr || '').trim() || (res.stdout || '').slice(-2000).trim()
      fail('wcc', `wcc exited ${res.status}:\n${indent(detail)}`)
    } else if (wxml.length === 0) {
      fail('wcc', 'no .wxml files found')
    } else {
      ok('wcc', `${wxml.length} .wxml + ${wxs.length} .wxs compiled (${wccSource})`)
    }
  }
}

// 3. budgets -----------------------------------------------------------------------------------------
banner('3. package size budgets')
{
  const { sizes, total } = weappPackageSizes(distDir)

  const rows = [['package', 'size', 'limit', '']]
  for (const [key, size] of sizes) {
    const limit = key === MAIN ? MAIN_LIMIT : SUB_PACKAGE_LIMIT
    const over = size > limit
    rows.push([
      key === MAIN ? 'main (__APP__)' : key,
      fmtKiB(size),
      fmtKiB(limit),
      over ? 'OVER' : 'ok',
    ])
    if (over) fail('budget', `${key} is ${fmtKiB(size)} > ${fmtKiB(limit)}`)
  }
  rows.push(['total', fmtKiB(total), fmtKiB(TOTAL_LIMIT), total > TOTAL_LIMIT ? 'OVER' : 'ok'])
  if (total > TOTAL_LIMIT) fail('budget', `total ${fmtKiB(total)} > ${fmtKiB(TOTAL_LIMIT)}`)

  // Preload quota. A package name in preloadRule is a root, a sub-package `name`, or __APP__.
  const resolvePkg = (name) => {
    if (name === MAIN) return MAIN
    const clean = String(name)
      .replace(/^\.?\/+/, '')
      .replace(/\/+$/, '')
    return subPackages.find((sp) => sp.root === clean || sp.name === name)?.root
  }
  const pageOwner = (page) => subPackages.find((sp) => page.startsWith(`${sp.root}/`))?.root ?? MAIN
  const byOwner = new Map()
  for (const [page, rule] of Object.entries(appJson.preloadRule || {})) {
    const pkgs = new Set()
    for (const name of rule.packages || []) {
      const key = resolvePkg(name)
      if (key === undefined)
        fail('preload', `preloadRule["${page}"] names unknown package "${name}"`)
      else pkgs.add(key)
    }
    const sum = [...pkgs].reduce((a, k) => a + sizes.get(k), 0)
    const over = sum > PRELOAD_LIMIT
    rows.push([`preload ${page}`, fmtKiB(sum), fmtKiB(PRELOAD_LIMIT), over ? 'OVER' : 'ok'])
    if (over)
      fail('preload', `preloadRule["${page}"] preloads ${fmtKiB(sum)} > ${fmtKiB(PRELOAD_LIMIT)}`)
    const owner = pageOwner(page)
    byOwner.set(owner, new Set([...(byOwner.get(owner) || []), ...pkgs]))
  }
  // WeChat's quota is per package: pages of one package share it.
  for (const [owner, pkgs] of byOwner) {
    const sum = [...pkgs].reduce((a, k) => a + sizes.get(k), 0)
    const name = owner === MAIN ? 'main' : owner
    const over = sum > PRELOAD_LIMIT
    rows.push([
      `preload quota of ${name}`,
      fmtKiB(sum),
      fmtKiB(PRELOAD_LIMIT),
      over ? 'OVER' : 'ok',
    ])
    if (over)
      fail('preload', `pages of ${name} together preload ${fmtKiB(sum)} > ${fmtKiB(PRELOAD_LIMIT)}`)
  }
  printTable(rows)
  if (!failures.some((f) => f.startsWith('budget') || f.startsWith('preload'))) {
    ok('budget', `${sizes.size} packages, ${byOwner.size} preload quotas within limits`)
  }
}

// 4. miniprogram-ci ----------------------------------------------------------------------------------
banner('4. miniprogram-ci getCompiledResult')
{
  const projectConfig = [
    path.join(distDir, 'project.config.json'),
    path.join(repoRoot, 'project.config.json'),
  ]
    .filter((f) => fs.existsSync(f))
    .map(readJson)
  const appid = projectConfig.find((c) => c.appid)?.appid
  if (!appid) {
    fail('ci', 'no appid in dist or root project.config.json')
  } else {
    const started = Date.now()
    console.log(
      '  (offline: miniprogram-ci logs failed requests to servicewechat.com; they are harmless)',
    )
    try {
      const count = await withTimeout(compileWithCi(appid), CI_TIMEOUT_MS)
      ok(
        'ci',
        `compiled ${count} files as ${appid} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
      )
    } catch (error) {
      fail('ci', `getCompiledResult failed:\n${indent(formatError(error))}`)
    }
  }
}

// ---------------------------------------------------------------------------------------------------
console.log('')
if (failures.length > 0) {
  console.error(`✗ check:weapp FAILED — ${failures.length} problem(s):`)
  for (const f of failures)
    console.error(
      `  - ${f
        .split('\n')
        .slice(0, 2)
        .map((l) => l.trim())
        .join(' ')}`,
    )
  process.exit(1)
}
console.log(`✓ check:weapp passed: ${[...new Set(passed)].join(', ')}`)
process.exit(0)

// ---------------------------------------------------------------------------------------------------
function countEntries(list) {
  // components = [file, n, ...names, file, n, ...names]; count the files.
  let count = 0
  for (let i = 0; i < list.length; i += 2 + Number(list[i + 1])) count++
  return count
}

/** The wcc binary for this platform, copied to a temp dir and made executable (npm drops the +x bit). */
function findWcc() {
  const sub = { darwin: 'mac/wcc', win32: 'windows/wcc.exe' }[process.platform] || 'linux/wcc'
  const candidates = []
  try {
    const simulate = path.dirname(require.resolve('miniprogram-simulate/package.json'))
    const compiler = path.dirname(
      createRequire(path.join(simulate, 'package.json')).resolve(
        'miniprogram-compiler/package.json',
      ),
    )
    candidates.push(path.join(compiler, 'bin', sub))
  } catch {
    // fall through to the hoisted location
  }
  candidates.push(path.join(repoRoot, 'node_modules/miniprogram-compiler/bin', sub))
  const found = candidates.find((c) => fs.existsSync(c))
  if (!found) return null
  wccSource = path.relative(repoRoot, found)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wcc-'))
  const target = path.join(dir, path.basename(found))
  fs.copyFileSync(found, target)
  fs.chmodSync(target, 0o755)
  process.on('exit', () => fs.rmSync(dir, { recursive: true, force: true }))
  return target
}

async function compileWithCi(appid) {
  // miniprogram-ci leaves an empty hash-named folder in the working directory: keep it out of the repo.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'mp-ci-'))
  process.chdir(scratch)
  process.on('exit', () => fs.rmSync(scratch, { recursive: true, force: true }))
  const ci = require('miniprogram-ci')
  const project = new ci.Project({
    appid,
    type: 'miniProgram',
    projectPath: distDir,
    privateKey: 'offline-check-no-upload',
    ignores: ['node_modules/**/*', '**/*.map'],
  })
  // Offline: skip the network call that fetches the app's attributes.
  project.attr = async () => ci.DefaultProjectAttr
  const result = await ci.getCompiledResult({
    project,
    desc: 'check:weapp',
    // minifyWXSS makes the compiler parse every .wxss, so WXSS syntax errors are caught too.
    setting: { useProjectConfig: true, minifyWXSS: true },
    onProgressUpdate: () => {},
  })
  return Object.keys(result).length
}

function withTimeout(promise, ms) {
  let timer
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise((_, reject) => {
      timer = setTimeout(() => reject(new Error(`timed out after ${ms / 1000} s`)), ms)
    }),
  ])
}

function formatError(error) {
  if (error instanceof Error) return error.message || String(error)
  if (typeof error === 'object') return JSON.stringify(error, null, 2)
  return String(error)
}

function indent(text) {
  return text
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n')
}

function printTable(rows) {
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => String(r[i]).length)))
  const line = (r) =>
    r
      .map((c, i) =>
        i === 1 || i === 2 ? String(c).padStart(widths[i]) : String(c).padEnd(widths[i]),
      )
      .join('  ')
  console.log(`  ${line(rows[0])}`)
  console.log(`  ${widths.map((w) => '-'.repeat(w)).join('  ')}`)
  for (const r of rows.slice(1)) console.log(`  ${line(r)}`)
}
