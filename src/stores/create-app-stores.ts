/** The app's RootStore on the real API modules, wired to the request layer's token-invalid hook. */
import platform from '@/platform'
import { api } from '@/api'
import { currentRoute } from '@/runtime/navigation'
import { client, configureRequest } from '@/runtime/request'
import { systemClock, systemTimers } from './deps'
import { RootStore } from './root-store'

export function createAppStores(): RootStore {
  const stores = new RootStore({
    api,
    storage: platform.storage,
    clock: systemClock,
    timers: systemTimers,
    platform,
    currentPath: currentRoute,
  })
  const redirectToLogin = client.deps.hooks.onTokenInvalid
  configureRequest({
    hooks: {
      onTokenInvalid: (hadToken, msg) => {
        stores.session.handleTokenInvalid()
        redirectToLogin(hadToken, msg)
      },
    },
  })
  return stores
}
