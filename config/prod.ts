import type { UserConfigExport } from '@tarojs/cli'

export default {
  mini: {},
  h5: {
    // hashed assets are served with long cache headers by the server
    enableExtract: true,
  },
} satisfies UserConfigExport<'webpack5'>
