import type { UserConfigExport } from '@tarojs/cli'

export default {
  // Taro's mini-program terser settings turn most compress passes off and print ES5 (choices from old
  // terser bugs and the iOS 9 era). Our browserslist is ES2017-capable (iOS 12.2+, Chrome 66+), so we give
  // terser its own defaults back: about 10 KiB less in the mini-program's main package.
  terser: {
    enable: true,
    config: {
      compress: {
        ecma: 2017,
        arrows: true,
        collapse_vars: true,
        comparisons: true,
        computed_props: true,
        hoist_props: true,
        inline: true,
        loops: true,
        reduce_vars: true,
        switches: true,
        // a second pass finds what the first one's inlining exposed: 4.7 KiB gzip off the H5 first route
        passes: 2,
      },
      // Taro's H5 defaults keep every function's name and quote every object key (ES3-era choices; the
      // mini-program's defaults do neither). The bundle reads names only of built-ins (Map, Set,
      // GeneratorFunction) and in React's error messages: 6.7 KiB gzip off the H5 first route
      // (docs/performance.md). The mini-program build is unchanged: these are terser's defaults.
      output: { ecma: 2017, quote_keys: false, keep_quoted_props: false },
      keep_fnames: false,
    },
  },
  mini: {},
  h5: {
    // hashed assets are served with long cache headers by the server
    enableExtract: true,
  },
} satisfies UserConfigExport<'webpack5'>
