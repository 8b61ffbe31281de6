import path from 'node:path'
import { defineConfig, type UserConfigExport } from '@tarojs/cli'
import HtmlInlineCssPlugin from 'html-inline-css-webpack-plugin'
import type Chain from 'webpack-chain'
import { scopedClassName } from './css-module-names'
import devConfig from './dev'
import prodConfig from './prod'

/**
 * NutUI's icon index declares itself side-effectful, so webpack keeps it whole wherever it is first
 * imported, with every icon the app uses anywhere. Its one side effect is importing the icons'
 * stylesheet, which app.tsx imports instead; marked free of side effects, each page's chunk gets the
 * icons that page uses.
 */
function splitNutIcons(chain: Chain) {
  chain.module
    .rule('nutui-icons-index')
    .test(/@nutui[\\/]icons-react-taro[\\/]dist[\\/]es[\\/]index\.es\.js$/)
    .set('sideEffects', false) // webpack-chain's types lack the sideEffects shorthand
}

// TARO_OUTPUT_DIR lets parallel builds (bench, a second checkout) write elsewhere than dist/
const outputRoot = process.env.TARO_OUTPUT_DIR || `dist/${process.env.TARO_ENV}`

// https://taro-docs.jd.com/docs/next/config#defineconfig-辅助函数
export default defineConfig<'webpack5'>(async (merge, { mode }) => {
  const baseConfig: UserConfigExport<'webpack5'> = {
    projectName: 'cloud-phone',
    date: '2026-11-22',
    // NutUI is designed at 375, everything else at 750
    designWidth(input?: string | number | { file?: string }) {
      const file = typeof input === 'object' ? (input.file ?? '').replace(/\\+/g, '/') : ''
      return file && file.includes('@nutui') ? 375 : 750
    },
    deviceRatio: { 640: 2.34 / 2, 750: 1, 375: 2, 828: 1.81 / 2 },
    sourceRoot: 'src',
    outputRoot,
    plugins: ['@tarojs/plugin-html'],
    alias: { '@': path.resolve(__dirname, '..', 'src') },
    defineConstants: {},
    // the site's icon (browsers ask for one on every load); the mini-program has none
    copy: {
      patterns:
        process.env.TARO_ENV === 'h5'
          ? [{ from: 'src/assets/favicon.svg', to: `${outputRoot}/favicon.svg` }]
          : [],
      options: {},
    },
    framework: 'react',
    compiler: {
      type: 'webpack5',
      // NutUI must not be prebundled: prebundle writes require("…css.wxss") into app.js (TOOLCHAIN)
      prebundle: { exclude: ['@nutui/nutui-react-taro', '@nutui/icons-react-taro'] },
    },
    cache: { enable: false },
    mini: {
      webpackChain: splitNutIcons,
      // CSS modules and NutUI's per-component stylesheets do not depend on each other's order
      miniCssExtractPluginOption: { ignoreOrder: true },
      postcss: {
        pxtransform: { enable: true, config: {} },
        cssModules: {
          enable: true,
          config: {
            namingPattern: 'module',
            generateScopedName: '[name]__[local]___[hash:base64:5]',
          },
        },
      },
    },
    h5: {
      publicPath: '/',
      staticDirectory: 'static',
      output: {
        filename: 'js/[name].[contenthash:8].js',
        chunkFilename: 'js/[name].[contenthash:8].js',
        chunkLoadTimeout: 120_000, // SPEC 9 script chunk load timeout (only here: the bundler reads it)
        // app.tsx awaits at its top level; every browser in package.json's browserslist has async
        // functions (Safari and iOS 11, Chrome 55), which webpack cannot tell from Taro's es5 target
        environment: { asyncFunction: true },
      },
      miniCssExtractPluginOption: {
        ignoreOrder: true,
        filename: 'css/[name].[contenthash:8].css',
        chunkFilename: 'css/[name].[contenthash:8].css',
      },
      router: { mode: 'browser' },
      webpackChain(chain) {
        splitNutIcons(chain)
        // one module per Taro component, so a page's chunk carries only the components it renders
        const components = path.resolve(__dirname, 'h5-components')
        chain.resolve.alias.set('@tarojs/components$', components)
        chain.module.rule('h5-components').include.add(components).end().set('sideEffects', false)
        // Taro injects its components' stylesheet from JS with style-loader, at the top of <head> so that
        // the app's styles override it. Extracted instead, it leads the app's stylesheet inside index.html
        // (below), in the same order, and style-loader's runtime leaves app.js: about 2 KiB gzip. The
        // loader must be the copy of the plugin Taro's runner adds.
        const runner = path.dirname(require.resolve('@tarojs/webpack5-runner/package.json'))
        chain.module
          .rule('taroStyle')
          .uses.clear()
          .end()
          .use('extract')
          .loader(require.resolve('mini-css-extract-plugin/dist/loader', { paths: [runner] }))
        // mobx-react adds class components, which the app has none of, to mobx-react-lite's observer,
        // which is what our function components get from it: 1.7 KiB gzip in every page's chunk (an
        // observer class component would need mobx-react back; jest and the mini-program use it).
        chain.resolve.alias.set('mobx-react$', 'mobx-react-lite')
        // Taro's components stylesheet without the WeUI icon font and rules (config/h5-loaders)
        chain.module
          .rule('drop-weui-icons')
          .test(/@tarojs[\\/]components[\\/]dist[\\/]taro-components[\\/]taro-components\.css$/)
          .enforce('pre')
          .use('drop-weui-icons')
          .loader(path.resolve(__dirname, 'h5-loaders', 'drop-weui-icons.js'))
        // Taro.request on H5 always bundles fetch and AbortController polyfills and a JSONP client.
        // Every browser in package.json's browserslist (iOS 12.2+, Chrome 66+) has fetch and
        // AbortController, and we never send JSONP: about 6 KiB gzip off the first route.
        const shims = path.resolve(__dirname, 'h5-shims')
        chain.resolve.alias
          .set('whatwg-fetch$', path.join(shims, 'none.js'))
          .set(
            'abortcontroller-polyfill/dist/abortcontroller-polyfill-only$',
            path.join(shims, 'none.js'),
          )
          .set('jsonp-retry$', path.join(shims, 'no-jsonp.js'))
        // The app's stylesheet (5 KiB gzip, Taro's first) goes into index.html: as a <link> it blocked the
        // first paint for a round trip of its own (Lighthouse: first paint ~140 ms earlier without it).
        // Pages' stylesheets still load with their chunks.
        chain.plugin('inlineAppCss').use(HtmlInlineCssPlugin, [
          {
            filter: (file: string) =>
              file === 'index.html' || /^\/?css\/app\.[0-9a-f]+\.css$/.test(file),
          },
        ])
      },
      postcss: {
        autoprefixer: { enable: true, config: {} },
        cssModules: {
          enable: true,
          config: {
            namingPattern: 'module',
            generateScopedName: scopedClassName,
          },
        },
      },
    },
  }
  if (mode === 'development' || process.env.NODE_ENV === 'development') {
    return merge({}, baseConfig, devConfig)
  }
  return merge({}, baseConfig, prodConfig)
})
