/**
 * The operator console: its own Vite build, served by the API server at /admin
 * (server/src/console/plugins/static.ts). Nothing here is part of the user site: the H5 and weapp builds
 * never see admin/.
 */
import path from 'node:path'
import react from '@vitejs/plugin-react'
import { defineConfig } from 'vite'

const REPO_ROOT = path.resolve(import.meta.dirname, '..')

export default defineConfig({
  root: import.meta.dirname,
  base: '/admin/',
  plugins: [react()],
  resolve: {
    // the shared rules, spelt as the server spells them. #console-contract (tsconfig.json) has no alias
    // here on purpose: the console imports its API contract as types only, and a value import fails the build
    alias: {
      '#domain': path.join(REPO_ROOT, 'src/domain'),
      '#constants': path.join(REPO_ROOT, 'src/constants'),
    },
  },
  build: {
    outDir: path.join(REPO_ROOT, 'dist/admin'),
    emptyOutDir: true,
    // every file under assets/ is named by its content hash: the server caches them for a year
    assetsDir: 'assets',
    target: 'es2020',
    // The largest chunk is 概览's chart (@ant-design/plots with all of @antv/g2: its components look charts
    // up by name, so nothing is shaken out): 1,639 kB minified, 477 kB gzip, measured 2026-11-27. It is
    // loaded lazily, only when 概览 draws the chart. The first load is as before (764 kB: index 624 kB plus
    // React split out to share it with the chart chunk), and the shell 1,402 kB (1,387 kB before 概览).
    chunkSizeWarningLimit: 1700,
  },
})
