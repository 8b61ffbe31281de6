/**
 * scripts/lib/inert-snapshot.mjs: the prerendered pages' custom elements are renamed so the app never
 * upgrades them (a second, unconfigured tab bar hung the first page change), and
 * the stylesheet follows the rename without touching anything else.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import {
  INERT_PREFIX,
  inertSelectors,
  liveCustomElements,
} from '../../../scripts/lib/inert-snapshot.mjs'

test('a snapshot that still holds a Taro component is found out; an inert one is not', () => {
  const live =
    '<div class="taro-tabbar__container"><taro-view-core class="hydrated">a</taro-view-core>' +
    '<taro-tabbar class="taro-tabbar__tabbar"><a href="/pages/Home/user">我的</a></taro-tabbar>' +
    '<taro-view-core>b</taro-view-core><taro-input-core/></div>'
  assert.deepEqual(liveCustomElements(live), ['taro-input-core', 'taro-tabbar', 'taro-view-core'])
  const inert = live.replace(/<(\/?)taro-/g, `<$1${INERT_PREFIX}taro-`)
  assert.deepEqual(liveCustomElements(inert), [])
  // text that reads like markup is escaped in HTML, and plain elements are no custom elements
  assert.deepEqual(liveCustomElements('<p>&lt;taro-tabbar&gt;</p><svg><path d="M0 0"/></svg>'), [])
})

test('type selectors of the renamed elements select the inert copies, nothing else changes', () => {
  const names = ['taro-view-core', 'taro-button-core']
  const css = [
    'taro-view-core{display:block}',
    'taro-button-core:not([disabled]):active,.x>taro-button-core:after{opacity:.6}',
    '.a taro-view-core+taro-view-core~taro-button-core{margin:0}',
    ':is(taro-view-core,p) .b{color:red}',
    'taro-button-core.primary[type=submit]{color:#fff}',
    '@media (min-width:600px){taro-view-core{padding:1px}}',
    // a class, an id, an attribute value, a longer name, another element and a value stay
    '.taro-view-core,#taro-view-core,[class~="taro-view-core"],taro-view-core-x,taro-text-core{background:url(taro-view-core.png)}',
  ].join('')
  const out = inertSelectors(css, names)
  const p = INERT_PREFIX
  assert.equal(
    out,
    [
      `${p}taro-view-core{display:block}`,
      `${p}taro-button-core:not([disabled]):active,.x>${p}taro-button-core:after{opacity:.6}`,
      `.a ${p}taro-view-core+${p}taro-view-core~${p}taro-button-core{margin:0}`,
      `:is(${p}taro-view-core,p) .b{color:red}`,
      `${p}taro-button-core.primary[type=submit]{color:#fff}`,
      `@media (min-width:600px){${p}taro-view-core{padding:1px}}`,
      '.taro-view-core,#taro-view-core,[class~="taro-view-core"],taro-view-core-x,taro-text-core{background:url(taro-view-core.png)}',
    ].join(''),
  )
  assert.equal(inertSelectors(css, []), css)
})

test('a name that is not a custom element name is refused, not put into a pattern', () => {
  assert.throws(() => inertSelectors('a{}', ['taro-view-core|.*']), /not a custom element's name/)
  assert.throws(() => inertSelectors('a{}', ['div']), /not a custom element's name/)
})
