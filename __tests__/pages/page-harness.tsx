/**
 * Rendering a page outside a Taro page instance: the page lifecycle hooks become plain effects, the
 * route params come from `setRouteParams`, and stores are whatever fake the test passes.
 */
import { useEffect, useRef, type ReactElement } from 'react'
import { fireEvent, render } from '@testing-library/react'
import { Current } from '@tarojs/runtime'
import { StoresContext } from '@/stores/context'
import type { RootStore } from '@/stores'

let routeParams: Record<string, string> = {}
export const setRouteParams = (params: Record<string, string>) => {
  routeParams = params
}

const shown = new Set<{ current: () => void }>()
const hidden = new Set<{ current: () => void }>()
/** Registers the latest `cb` of a mounted component in `set` until it unmounts. */
function useLifecycle(set: Set<{ current: () => void }>, cb: () => void) {
  const ref = useRef(cb)
  ref.current = cb
  useEffect(() => {
    set.add(ref)
    return () => void set.delete(ref)
  }, [set])
}
/** The page goes under another one (or its tab is left): its useDidHide callbacks run. */
export const hidePage = () => hidden.forEach((ref) => ref.current())
/** The page is shown again: its useDidShow callbacks run. */
export const showPage = () => shown.forEach((ref) => ref.current())

/** For `jest.mock('@tarojs/taro', () => jest.requireActual(<this file>).mockTaro())`. */
export function mockTaro() {
  const actual = jest.requireActual('@tarojs/taro')
  // a page is loaded and shown once per render in a test
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const useOnMount = (cb: () => void) => useEffect(() => void cb(), [])
  const hooks = {
    useLoad: useOnMount,
    // shown on mount, and again by showPage(); hidden by hidePage()
    useDidShow: (cb: () => void) => {
      useOnMount(cb)
      useLifecycle(shown, cb)
    },
    useDidHide: (cb: () => void) => useLifecycle(hidden, cb),
    useRouter: () => ({ params: routeParams }),
  }
  Object.assign(actual.default, hooks)
  return { __esModule: true, ...actual, ...hooks, default: actual.default }
}

const PAGE_PATH = 'test-page'

/**
 * Mounted as Taro H5 mounts a page: in an element whose id is the current page's path, where Taro's
 * DOM queries look (NutUI's InfiniteLoading measures itself with one 200 ms after mounting; without a
 * current page that throws, failing whichever test is still running then).
 */
export function renderPage(page: ReactElement, stores: unknown) {
  const container = document.body.appendChild(document.createElement('div'))
  container.id = PAGE_PATH
  Current.page = { path: PAGE_PATH } as typeof Current.page
  return render(
    <StoresContext.Provider value={stores as RootStore}>{page}</StoresContext.Provider>,
    {
      container,
    },
  )
}

/** Taro's <Input> renders <taro-input-core>; NutUI reads `detail.value` of its input event. */
export function typeInto(container: HTMLElement, label: string, value: string) {
  const input = container.querySelector(`taro-input-core[aria-label="${label}"]`)
  if (!input) throw new Error(`no input labelled ${label}`)
  const event = new Event('input', { bubbles: true })
  Object.assign(event, { detail: { value } })
  fireEvent(input, event)
}

export const flush = () => new Promise((resolve) => setTimeout(resolve, 0))
