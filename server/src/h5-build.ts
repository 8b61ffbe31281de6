import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

function newestMtime(dir: string): number {
  if (!fs.existsSync(dir)) return 0
  let newest = 0
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) newest = Math.max(newest, newestMtime(full))
    else if (entry.isFile()) newest = Math.max(newest, fs.statSync(full).mtimeMs)
  }
  return newest
}

/** DESIGN 1: `npm start` builds the H5 app when it is missing or older than its sources. */
export function h5BuildIsStale(repoRoot: string, h5Dist: string): boolean {
  const index = path.join(h5Dist, 'index.html')
  if (!fs.existsSync(index)) return true
  const built = fs.statSync(index).mtimeMs
  const sources = Math.max(
    newestMtime(path.join(repoRoot, 'src')),
    newestMtime(path.join(repoRoot, 'config')),
  )
  return sources > built
}

export function buildH5(repoRoot: string): void {
  // the npm script also writes the precompressed (.br/.gz) copies the server sends
  const result = spawnSync('npm', ['run', 'build:h5'], {
    cwd: repoRoot,
    stdio: 'inherit',
  })
  if (result.status !== 0)
    throw new Error(`H5 build failed (exit ${result.status ?? result.signal})`)
}
