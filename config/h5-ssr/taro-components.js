// Taro's View and Text as the elements they are on H5, for rendering a page's parts outside the
// browser (scripts/lib/level-goods-renderer.mjs): Taro's own React wrappers (config/h5-components)
// define web components and set the class from the browser. Like theirs, only string, number and
// boolean props become attributes (camelCase to dash-case); handlers have nothing to do here.
import { createElement } from 'react'

const dashCase = (name) => name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase()

const element = (tagName) =>
  function TaroElement({ className, style, children, ...props }) {
    const attributes = { class: className ?? '', style }
    for (const [name, value] of Object.entries(props)) {
      if (['string', 'number', 'boolean'].includes(typeof value)) attributes[dashCase(name)] = value
    }
    return createElement(tagName, attributes, children)
  }

export const View = element('taro-view-core')
export const Text = element('taro-text-core')
