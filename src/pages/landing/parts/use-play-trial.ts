import { useState } from 'react'
import { useStores } from '@/stores'
import Taro, { useLoad, useShareAppMessage } from '@tarojs/taro'
import { getPlayTrialConfig } from '@/api/engagement'
import { openPath, loginUrl } from '@/runtime/navigation'
import { url, type RouteName } from '@/constants/routes'
import { toastError, toastSuccess } from '@/runtime/feedback'
import type { PlayTrialConfig } from '@/types/api'

/** The game trial both landing pages show, loaded once (public: no session needed). */
export function usePlayTrialConfig() {
  const [config, setConfig] = useState<PlayTrialConfig | null>(null)
  const [failed, setFailed] = useState(false)
  useLoad(() => {
    getPlayTrialConfig()
      .then(setConfig)
      .catch((error: unknown) => {
        setFailed(true)
        toastError(error)
      })
  })
  return { config, failed }
}

/** Sharing: the mini-program share card; H5 offers 复制链接 (see ShareBar) instead. */
export function useShareLanding(route: RouteName, config: PlayTrialConfig | null) {
  useShareAppMessage(() => ({
    title: config ? `免费试玩《${config.gameName}》，云手机24小时挂机` : '免费试玩',
    path: url(route),
  }))
}

export const isH5 = process.env.TARO_ENV === 'h5'

/** H5: the address of this landing page (browser router), for pasting into a chat. */
export function copyLandingLink(route: RouteName) {
  const link = `${window.location.origin}${url(route)}`
  return Taro.setClipboardData({ data: link }).then(() => toastSuccess('链接已复制，快去分享吧'))
}

/** Logged out: log in and come back to this landing page. */
export function loginAndReturn(route: RouteName) {
  return openPath(loginUrl(url(route)))
}

/**
 * A landing-page button that needs an account: logged out, it goes to login and back here;
 * logged in, it runs `action` with a busy flag and shows any error.
 */
export function useLandingAction(route: RouteName) {
  const { session } = useStores()
  const [busy, setBusy] = useState(false)
  const run = async (action: () => Promise<unknown>) => {
    if (!session.isLoggedIn) {
      await loginAndReturn(route)
      return
    }
    setBusy(true)
    try {
      await action()
    } catch (error) {
      toastError(error)
    } finally {
      setBusy(false)
    }
  }
  return { busy, run, loggedIn: session.isLoggedIn }
}
