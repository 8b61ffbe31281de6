import { defineCustomElement } from '@tarojs/components/dist/components/taro-view-core.js'
import { component } from './component.js'

export const View = /*@__PURE__*/ component('taro-view-core', defineCustomElement)
