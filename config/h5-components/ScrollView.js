import { defineCustomElement } from '@tarojs/components/dist/components/taro-scroll-view-core.js'
import { component } from './component.js'

export const ScrollView = /*@__PURE__*/ component('taro-scroll-view-core', defineCustomElement)
