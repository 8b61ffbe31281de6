import { defineCustomElement } from '@tarojs/components/dist/components/taro-input-core.js'
import { component } from './component.js'

export const Input = /*@__PURE__*/ component('taro-input-core', defineCustomElement)
