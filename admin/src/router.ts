/** The console's pages are /admin/<page> URLs (history routing; the server answers index.html for them). */
import { useSyncExternalStore } from 'react'

const listeners = new Set<() => void>()

function subscribe(listener: () => void) {
  listeners.add(listener)
  window.addEventListener('popstate', listener)
  return () => {
    listeners.delete(listener)
    window.removeEventListener('popstate', listener)
  }
}

export function navigate(path: string, options: { replace?: boolean } = {}) {
  if (path === window.location.pathname) return
  if (options.replace) window.history.replaceState(null, '', path)
  else window.history.pushState(null, '', path)
  listeners.forEach((listener) => listener())
}

export const usePathname = () => useSyncExternalStore(subscribe, () => window.location.pathname)
