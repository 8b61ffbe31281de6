#!/usr/bin/env node
/**
 * Package sizes against an empty Taro app built in the same run with the same config:
 * the weapp main package, every sub-package and the total, and the H5 first route's JS+CSS (gzip,
 * measured in Chromium, see scripts/lib/h5-first-route.mjs), as bytes and as a ratio to the empty app.
 *
 *   node bench/package-size.mjs
 *
 * Builds four times (ours and the empty app, weapp and H5) into a temporary folder: ~3 minutes here.
 * The budgets themselves are checked in CI by check:weapp and check:h5.
 *
 * BENCH_SHORT=1 (scripts/bench-smoke.mjs): our builds are the ones `npm run build:h5` and
 * `npm run build:weapp` left in dist/h5 and dist/weapp (H5_DIST, WEAPP_DIST), when they are there,
 * instead of builds of its own: only the empty app is built, about a third of the time.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { emptyH5Output, finishEmptyH5, writeEmptyTaroApp } from './lib/empty-taro-app.mjs'
import { KiB, MAIN, weappPackageSizes } from '../scripts/lib/weapp-packages.mjs'
import { measureH5FirstRoute } from '../scripts/lib/h5-first-route.mjs'

const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const taro = path.join(repoRoot, 'node_modules/.bin/taro')
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'package-size-'))
const SHORT = process.env.BENCH_SHORT === '1'
const builtH5 = path.resolve(repoRoot, process.env.H5_DIST || 'dist/h5')
const builtWeapp = path.resolve(repoRoot, process.env.WEAPP_DIST || 'dist/weapp')

function build(projectDir, type, outDir) {
  const started = Date.now()
  execFileSync(taro, ['build', '--type', type], {
    cwd: projectDir,
    env: { ...process.env, TARO_OUTPUT_DIR: outDir, NODE_ENV: 'production' },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  console.log(
    `  built ${type} of ${path.basename(projectDir)} in ${((Date.now() - started) / 1000).toFixed(0)} s`,
  )
  return outDir
}

const kib = (bytes) => `${(bytes / KiB).toFixed(1)} KiB`
const ratio = (ours, empty) => (empty ? `${(ours / empty).toFixed(2)}×` : '')
const row = (cells) => console.log(`| ${cells.join(' | ')} |`)

try {
  const emptyDir = writeEmptyTaroApp(repoRoot, path.join(work, 'empty-app'))
  console.log(`building in ${work}`)
  const reuseH5 = SHORT && fs.existsSync(path.join(builtH5, 'index.html'))
  const reuseWeapp = SHORT && fs.existsSync(path.join(builtWeapp, 'app.json'))
  const ours = {
    weapp: reuseWeapp ? builtWeapp : build(repoRoot, 'weapp', path.join(work, 'ours-weapp')),
    h5: reuseH5 ? builtH5 : build(repoRoot, 'h5', path.join(work, 'ours-h5')),
  }
  if (reuseWeapp) {
    console.log(
      `  weapp of ${path.basename(repoRoot)}: ${builtWeapp}, by npm run build:weapp (short mode)`,
    )
  }
  if (reuseH5) {
    console.log(`  h5 of ${path.basename(repoRoot)}: ${builtH5}, by npm run build:h5 (short mode)`)
  } else {
    // as `npm run build:h5` does: the server sends / as its prerendered copy of index.html
    execFileSync('node', [path.join(repoRoot, 'scripts/prerender-h5.mjs'), ours.h5], {
      stdio: ['ignore', 'ignore', 'inherit'],
    })
  }
  // in a smoke run, built once for the benches after this one too (emptyH5Output)
  const emptyOut = emptyH5Output(path.join(work, 'empty-h5'))
  const empty = {
    weapp: build(emptyDir, 'weapp', path.join(work, 'empty-weapp')),
    h5: emptyOut.built ? emptyOut.out : build(emptyDir, 'h5', emptyOut.out),
  }
  if (!emptyOut.built) finishEmptyH5(repoRoot, empty.h5)

  const oursWeapp = weappPackageSizes(ours.weapp)
  const emptyWeapp = weappPackageSizes(empty.weapp)
  const oursH5 = await measureH5FirstRoute(ours.h5)
  const emptyH5 = await measureH5FirstRoute(empty.h5)

  console.log(
    `\n${new Date().toISOString().slice(0, 10)}, ${os.cpus().length} cores, Node ${process.version}\n`,
  )
  row(['', 'ours', 'empty Taro app', 'ratio', 'budget'])
  row(['---', '---:', '---:', '---:', '---:'])
  const emptyMain = emptyWeapp.sizes.get(MAIN)
  row([
    'weapp main package',
    kib(oursWeapp.sizes.get(MAIN)),
    kib(emptyMain),
    ratio(oursWeapp.sizes.get(MAIN), emptyMain),
    '600 KiB',
  ])
  const biggestEmptySub = Math.max(
    ...[...emptyWeapp.sizes].filter(([k]) => k !== MAIN).map(([, v]) => v),
  )
  for (const [root, size] of [...oursWeapp.sizes]
    .filter(([k]) => k !== MAIN)
    .sort((a, b) => b[1] - a[1])) {
    row([`weapp ${root}`, kib(size), kib(biggestEmptySub), ratio(size, biggestEmptySub), '400 KiB'])
  }
  row([
    'weapp total',
    kib(oursWeapp.total),
    kib(emptyWeapp.total),
    ratio(oursWeapp.total, emptyWeapp.total),
    '4 MiB',
  ])
  row([
    'H5 first route, raw',
    kib(oursH5.bytes),
    kib(emptyH5.bytes),
    ratio(oursH5.bytes, emptyH5.bytes),
    '',
  ])
  row([
    'H5 first route, gzip',
    kib(oursH5.gzip),
    kib(emptyH5.gzip),
    ratio(oursH5.gzip, emptyH5.gzip),
    '152 KiB',
  ])
  console.log('\nH5 first route files (ours):')
  for (const f of oursH5.files)
    console.log(
      `  ${f.file.padEnd(44)} ${kib(f.bytes).padStart(10)} ${kib(f.gzip).padStart(10)} gzip`,
    )
  const markup = (h5) => `${kib(h5.markup.bytes)}, ${kib(h5.markup.gzip)} gzip`
  console.log(
    `  not counted: the document's markup, ours ${markup(oursH5)}; empty ${markup(emptyH5)}`,
  )
} finally {
  fs.rmSync(work, { recursive: true, force: true })
}
