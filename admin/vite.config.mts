/**
 * The operator console (issue 28): its own Vite build, served by the API server at /admin
 * (server/src/plugins/admin-console.ts). Nothing here is part of the user site: the H5 and weapp builds
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
    // the shared rules, spelt as the server spells them
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
    chunkSizeWarningLimit: 1536,
  },
})
