import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

/** A build `npm start` makes when its output is missing or older than its sources (DESIGN 1). */
export interface StartBuild {
  name: string
  /** the package.json script that makes it (it also writes the precompressed .br/.gz copies served) */
  script: string
  /** its output's index.html */
  index: string
  /** the folders (from the repository root) whose files it is built from */
  sources: string[]
}

/**
 * The H5 app served at `/`, the operator console served at `/admin` and the control page each
 * supplier serves (CONTROL_DIST, default dist/control); a null folder is not served.
 */
export function startBuilds(dirs: {
  h5Dist: string | null
  adminDist: string | null
  controlDist?: string | null
}): StartBuild[] {
  const controlDist =
    dirs.controlDist === undefined
      ? path.resolve(process.env.CONTROL_DIST || 'dist/control')
      : dirs.controlDist
  const builds: (StartBuild | null)[] = [
    dirs.h5Dist
      ? {
          name: 'H5 app',
          script: 'build:h5',
          index: path.join(dirs.h5Dist, 'index.html'),
          sources: ['src', 'config'],
        }
      : null,
    dirs.adminDist
      ? {
          name: 'operator console',
          script: 'build:admin',
          index: path.join(dirs.adminDist, 'index.html'),
          // the console imports the shared rules of src/domain and src/constants
          sources: ['admin', 'src/domain', 'src/constants'],
        }
      : null,
    controlDist
      ? {
          name: 'control page',
          script: 'build:control',
          index: path.join(controlDist, 'index.html'),
          // the page imports its vocabulary from src/domain (control-page.ts)
          sources: ['control', 'src/domain'],
        }
      : null,
  ]
  return builds.filter((build) => build !== null)
}

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

export function isStale(repoRoot: string, build: StartBuild): boolean {
  if (!fs.existsSync(build.index)) return true
  const built = fs.statSync(build.index).mtimeMs
  return Math.max(...build.sources.map((dir) => newestMtime(path.join(repoRoot, dir)))) > built
}

export function runBuild(repoRoot: string, build: StartBuild): void {
  const result = spawnSync('npm', ['run', build.script], { cwd: repoRoot, stdio: 'inherit' })
  if (result.status !== 0)
    throw new Error(`${build.name} build failed (exit ${result.status ?? result.signal})`)
}
