// babel-preset-taro: https://docs.taro.zone/docs/next/babel-config
module.exports = {
  presets: [['taro', { framework: 'react', ts: true, compiler: 'webpack5' }]],
  plugins: [
    [
      'import',
      {
        libraryName: '@nutui/nutui-react-taro',
        libraryDirectory: 'dist/es/packages',
        // per-component JS and CSS (the full stylesheet would add ~229 KB to app.wxss)
        customName: (name) => `@nutui/nutui-react-taro/dist/es/packages/${name.toLowerCase().replace(/-/g, '')}`,
        customStyleName: (name) =>
          `@nutui/nutui-react-taro/dist/es/packages/${name.toLowerCase().replace(/-/g, '')}/style/css`,
      },
      'nutui-react-taro',
    ],
  ],
}
