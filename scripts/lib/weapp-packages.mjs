/**
 * Sizes of a built mini-program's packages, as WeChat counts them: every file under a sub-package's
 * root belongs to that sub-package, everything else to the main package (__APP__); project config
 * files and source maps are not uploaded. Used by check-weapp (budgets) and bench/package-size.
 */
import fs from 'node:fs'
import path from 'node:path'

export const KiB = 1024
export const MAIN = '__APP__'

/** All files under dir (recursive), as absolute paths. */
export function walk(dir) {
  const out = []
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) out.push(...walk(full))
    else if (entry.isFile()) out.push(full)
  }
  return out
}

/** app.json's sub-packages with normalised roots ('pages/user'). */
export function subPackagesOf(appJson) {
  return (appJson.subPackages || appJson.subpackages || []).map((sp) => ({
    ...sp,
    root: String(sp.root)
      .replace(/^\.?\/+/, '')
      .replace(/\/+$/, ''),
  }))
}

/** @returns {{ sizes: Map<string, number>, total: number }} bytes per package (MAIN first) */
export function weappPackageSizes(distDir) {
  const appJson = JSON.parse(fs.readFileSync(path.join(distDir, 'app.json'), 'utf8'))
  const subPackages = subPackagesOf(appJson)
  const sizes = new Map([[MAIN, 0], ...subPackages.map((sp) => [sp.root, 0])])
  for (const file of walk(distDir)) {
    const rel = path.relative(distDir, file).split(path.sep).join('/')
    if (/(^|\/)project(\.private)?\.config\.json$/.test(rel) || rel.endsWith('.map')) continue
    const owner = subPackages.find((sp) => rel.startsWith(`${sp.root}/`))?.root ?? MAIN
    sizes.set(owner, sizes.get(owner) + fs.statSync(file).size)
  }
  const total = [...sizes.values()].reduce((a, b) => a + b, 0)
  return { sizes, total }
}
