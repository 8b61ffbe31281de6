import { defineCustomElement } from '@tarojs/components/dist/components/taro-image-core.js'
import { component } from './component.js'

export const Image = /*@__PURE__*/ component('taro-image-core', defineCustomElement)
