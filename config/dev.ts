import type { UserConfigExport } from '@tarojs/cli'

export default {
  logger: { quiet: false, stats: true },
  mini: {},
  h5: {
    devServer: {
      proxy: { '/vmcloud/api': 'http://127.0.0.1:3000', '/files': 'http://127.0.0.1:3000' },
    },
  },
} satisfies UserConfigExport<'webpack5'>
