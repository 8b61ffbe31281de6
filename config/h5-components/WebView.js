import { defineCustomElement } from '@tarojs/components/dist/components/taro-web-view-core.js'
import { component } from './component.js'

export const WebView = /*@__PURE__*/ component('taro-web-view-core', defineCustomElement)
