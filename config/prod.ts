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
      },
      output: { ecma: 2017 },
    },
  },
  mini: {},
  h5: {
    // hashed assets are served with long cache headers by the server
    enableExtract: true,
  },
} satisfies UserConfigExport<'webpack5'>
