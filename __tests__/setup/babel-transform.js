/**
 * The Babel transform of the client tests, with its own config so the Taro build preset does not leak
 * into tests. NutUI components are imported one by one, as the app build does (babel.config.js).
 */
const babelJest = require('babel-jest').default

module.exports = babelJest.createTransformer({
  configFile: false,
  babelrc: false,
  presets: [
    ['@babel/preset-env', { targets: { node: 'current' }, modules: 'commonjs' }],
    ['@babel/preset-react', { runtime: 'automatic' }],
    ['@babel/preset-typescript', { isTSX: true, allExtensions: true }],
  ],
  plugins: [
    [
      'import',
      {
        libraryName: '@nutui/nutui-react-taro',
        customName: (name) =>
          `@nutui/nutui-react-taro/dist/es/packages/${name.toLowerCase().replace(/-/g, '')}`,
        style: false,
      },
      'nutui-react-taro',
    ],
  ],
})
