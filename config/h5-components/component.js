// Makes one of Taro's React wrappers for its H5 web components, as Taro's own
// @tarojs/components/lib/react/components.js does for every component in one module (see index.js).
import { manipulatePropsFunction } from '@tarojs/components/lib/react/helper.js'
import { createReactComponent } from '@tarojs/components/lib/react/react-component-lib/createComponent.js'

export const component = (tagName, defineCustomElement) =>
  createReactComponent(tagName, undefined, manipulatePropsFunction, defineCustomElement)
