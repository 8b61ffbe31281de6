// Stands in for @tarojs/components on H5 (config/index.ts, h5.webpackChain). Taro's React wrappers for
// its web components are all made in one module, and a module goes whole into one chunk: Home's chunk,
// the first route, carried every component any page uses (Textarea, Input, ScrollView…) and each page
// chunk a copy. Here each component the app uses is a module of its own, so a chunk gets only the
// components its pages render; any other component still comes from Taro's module.
export * from '@tarojs/components/lib/react/components.js'
export { Button } from './Button.js'
export { Image } from './Image.js'
export { Input } from './Input.js'
export { ScrollView } from './ScrollView.js'
export { Text } from './Text.js'
export { Textarea } from './Textarea.js'
export { View } from './View.js'
export { WebView } from './WebView.js'
