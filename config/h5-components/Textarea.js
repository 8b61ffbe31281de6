import { defineCustomElement } from '@tarojs/components/dist/components/taro-textarea-core.js'
import { component } from './component.js'

export const Textarea = /*@__PURE__*/ component('taro-textarea-core', defineCustomElement)
