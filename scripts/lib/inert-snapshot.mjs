/**
 * A prerendered page is a picture of the app's page, never a second copy of its components.
 * Taro's H5 components are custom elements (taro-view-core, taro-button-core, taro-tabbar…):
 * left under their own names in the snapshot, each copy is upgraded into a live component the moment
 * the app defines that name. The tab bar's copy then runs with no configuration: it throws (tabBar
 * 配置错误, then TypeErrors reading map and mode) and subscribes to the router's events all the same;
 * the next page change before the snapshot goes reaches it, it throws reading basename inside the
 * router's own handler, and the page never arrives: 加载中 for good. So every custom element of the
 * snapshot is renamed (taro-view-core → prerendered-taro-view-core), a name nothing defines, and the
 * selectors that name it are renamed with it. Plain .mjs: the build script and the server share it.
 */
import postcss from 'postcss'

export const INERT_PREFIX = 'prerendered-'

/** An element whose name holds a hyphen: a custom element's (Taro's are lowercase letters and digits). */
const CUSTOM_ELEMENT = /<([a-z][a-z0-9]*-[a-z0-9-]*)[\s/>]/g

/** The custom elements an HTML fragment holds that are not inert (an empty list for a picture). */
export function liveCustomElements(html) {
  const names = new Set()
  for (const [, name] of html.matchAll(CUSTOM_ELEMENT))
    if (!name.startsWith(INERT_PREFIX)) names.add(name)
  return [...names].sort()
}

/**
 * The stylesheet with every type selector for one of `names` made to select its inert copy instead.
 * Only selectors change (a value such as url(taro-x.png) stays), and only a name standing as a type
 * selector: at the start of a compound selector, never inside a class, id, attribute or longer name.
 */
export function inertSelectors(css, names) {
  if (names.length === 0) return css
  const odd = names.find((name) => !/^[a-z][a-z0-9]*-[a-z0-9-]*$/.test(name))
  if (odd !== undefined) throw new Error(`inertSelectors: "${odd}" is not a custom element's name`)
  const typeSelector = new RegExp(`(^|[\\s>+~,(])(${names.join('|')})(?![\\w-])`, 'g')
  const root = postcss.parse(css)
  root.walkRules((rule) => {
    rule.selector = rule.selector.replace(typeSelector, `$1${INERT_PREFIX}$2`)
  })
  return root.toString()
}
