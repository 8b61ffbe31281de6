// A webpack loader for Taro's components stylesheet on H5 (config/index.ts, h5.webpackChain). That
// stylesheet carries WeUI's icon font (a 6 KB base64 TrueType) and the icon rules of Taro's own
// Checkbox, Radio and Icon, which this app does not render (NutUI's are used; .eslintrc.js refuses
// imports of Taro's). Inlined into index.html it was 3.7 KiB of the first route's 160 KiB gzip.
const postcss = require('postcss')

module.exports = function dropWeuiIcons(source) {
  const root = postcss.parse(source)
  root.walkAtRules('font-face', (rule) => {
    rule.walkDecls('font-family', (decl) => {
      if (/^["']?weui["']?$/.test(decl.value.trim())) rule.remove()
    })
  })
  root.walkRules((rule) => {
    if (rule.selectors.every((selector) => selector.includes('weui-'))) rule.remove()
  })
  return root.toString()
}
