/**
 * Bundles src/pages/Home/parts/catalogue/render-level-goods.tsx for Node (esbuild), into the H5 build beside
 * the prerendered pages: the server renders 创建云机's opening level into the page's document with it.
 * The page's own components, which are HTML elements, with each CSS module as the class names the H5
 * build gives it (config/css-module-names.js). A Taro component among them fails the build: on H5 it
 * is a web component the browser draws, which Node cannot render.
 */
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import esbuild from 'esbuild'
import cssModuleNames from '../../config/css-module-names.js'
import { levelGoodsRenderer } from '../../shared/prerendered.mjs'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** The classes a stylesheet defines (a selector's `.name`), each with the name the build gives it. */
function classNames(file) {
  const source = fs.readFileSync(file, 'utf8').replace(/\/\*[\s\S]*?\*\/|\/\/.*$/gm, '')
  const locals = new Set([...source.matchAll(/\.(-?[_a-zA-Z][\w-]*)/g)].map((match) => match[1]))
  return Object.fromEntries(
    [...locals].map((local) => [local, cssModuleNames.scopedClassName(local, file)]),
  )
}

const noTaroComponents = {
  name: 'no-taro-components',
  setup(build) {
    build.onResolve({ filter: /^@tarojs\// }, (args) => ({
      errors: [
        { text: `${args.importer} imports ${args.path}: the server renders HTML elements only` },
      ],
    }))
  },
}

const cssModules = {
  name: 'css-modules',
  setup(build) {
    build.onLoad({ filter: /\.module\.scss$/ }, (args) => ({
      contents: JSON.stringify(classNames(args.path)),
      loader: 'json',
    }))
  },
}

export async function buildLevelGoodsRenderer(distDir) {
  const outfile = levelGoodsRenderer(distDir)
  await esbuild.build({
    absWorkingDir: ROOT,
    entryPoints: ['src/pages/Home/parts/catalogue/render-level-goods.tsx'],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    jsx: 'automatic',
    plugins: [noTaroComponents, cssModules],
    define: { 'process.env.NODE_ENV': '"production"', 'process.env.TARO_ENV': '"h5"' },
    logLevel: 'warning',
  })
  return outfile
}
