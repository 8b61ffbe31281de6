/**
 * The control page (docs/control-page.md): vanilla TypeScript, built into dist/control. The server
 * serves index.html for each supplier's `${prefix}/control` with the session and settings written in
 * as a JSON element, and the files under assets/ (named by their hash) at `${prefix}/assets/…`, hence
 * the relative base. The sandbox supplier's stand-in for Volcengine's SDK is a second entry
 * (assets/sandbox-sdk-<hash>.js), found through the manifest.
 */
import path from 'node:path'
import { defineConfig } from 'vite'

const REPO_ROOT = path.resolve(import.meta.dirname, '..')

export default defineConfig({
  root: import.meta.dirname,
  base: './',
  resolve: { alias: { '#domain': path.join(REPO_ROOT, 'src/domain') } },
  build: {
    outDir: process.env.CONTROL_DIST
      ? path.resolve(process.env.CONTROL_DIST)
      : path.join(REPO_ROOT, 'dist/control'),
    emptyOutDir: true,
    assetsDir: 'assets',
    manifest: true,
    // iOS 12.2 Safari and WeChat's web-view (package.json browserslist)
    target: ['es2019', 'safari12'],
    rollupOptions: {
      input: {
        index: path.join(import.meta.dirname, 'index.html'),
        'sandbox-sdk': path.join(import.meta.dirname, 'src/sandbox-sdk.ts'),
      },
    },
  },
})
