import { defineCustomElement } from '@tarojs/components/dist/components/taro-text-core.js'
import { component } from './component.js'

export const Text = /*@__PURE__*/ component('taro-text-core', defineCustomElement)
