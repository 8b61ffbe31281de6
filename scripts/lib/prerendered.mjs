/**
 * Where scripts/prerender-h5.mjs writes a page's HTML, and where the server (server/src/plugins/
 * h5-static.ts) and the build checks look for it: `/` → prerendered/index.html, `/a/b` →
 * prerendered/a/b.html. Plain .mjs, so the build scripts (run without tsx) and the server share it.
 */
import path from 'node:path'

export const PRERENDERED_DIR = 'prerendered'

export const prerenderedFile = (distDir, pathname) =>
  path.join(
    distDir,
    PRERENDERED_DIR,
    pathname === '/' ? 'index.html' : `${pathname.replace(/^\/|\/$/g, '')}.html`,
  )
