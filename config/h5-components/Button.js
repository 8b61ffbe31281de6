import { defineCustomElement } from '@tarojs/components/dist/components/taro-button-core.js'
import { component } from './component.js'

export const Button = /*@__PURE__*/ component('taro-button-core', defineCustomElement)
