/**
 * Where scripts/prerender-h5.mjs writes a page's HTML, and where the server (server/src/plugins/
 * h5-static.ts) and the build checks look for it: `/` → prerendered/index.html, `/a/b` →
 * prerendered/a/b.html. Plain .mjs in shared/ (the home of what the build, which runs on plain node,
 * and the server both import), so the server never reaches into scripts/.
 */
import path from 'node:path'

export const PRERENDERED_DIR = 'prerendered'

/**
 * A page whose document the server completes for each request (创建云机, with the live catalogue)
 * has a template instead, `prerendered/a/b.template.html`, with LEVEL_GOODS_SLOT where the catalogue
 * goes; it is never sent as it is.
 */
export const LEVEL_GOODS_SLOT = 'level-goods'
export const prerenderedTemplate = (distDir, pathname) =>
  prerenderedFile(distDir, pathname).replace(/\.html$/, '.template.html')
/** What renders it: src/pages/Home/parts/catalogue/render-level-goods.tsx for Node. */
export const levelGoodsRenderer = (distDir) =>
  path.join(distDir, PRERENDERED_DIR, 'level-goods.cjs')

export const prerenderedFile = (distDir, pathname) =>
  path.join(
    distDir,
    PRERENDERED_DIR,
    pathname === '/' ? 'index.html' : `${pathname.replace(/^\/|\/$/g, '')}.html`,
  )
