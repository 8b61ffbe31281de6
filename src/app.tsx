import { useEffect, type PropsWithChildren } from 'react'
import Taro, { useDidHide, useDidShow, useLaunch, usePageNotFound } from '@tarojs/taro'
import { createAppStores, StoresProvider } from '@/stores'
import platform from '@/platform'
import { allRoutes, ROUTES, url } from '@/constants/routes'
import { prefetchGoodsList } from '@/api/goods'
import { goLogin } from '@/runtime/navigation'
import { client } from '@/runtime/request'
import { handOverPrerender } from '@/runtime/prerender'
import { keepScriptLinksUnfollowed } from '@/runtime/script-links'
import { installRouteWatch } from '@/runtime/route-events'
import { currentUrl, planLaunch, type LaunchStep } from './app-launch'
import { launchLoginContext } from './launch-context'
// NutUI icons' sizing and spin (their index imports it, but config/index.ts lets webpack skip the index)
import '@nutui/icons-react-taro/dist/style_icon.css'
import './app.scss'

/**
 * H5: ends the task here and goes on in a new one. The app's start-up (evaluating its modules,
 * building the stores, then the router mounting the first page) was one task of ~100 ms, 4× that on a
 * throttled phone: while it ran the page took no input, and under a prerendered page it counted whole
 * in Lighthouse's blocking time. The awaits below cut it in three (docs/performance.md). In the
 * mini-program the condition is false at build time and webpack drops the branch, so its app module
 * stays synchronous, as its App() must be.
 */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0))

if (process.env.TARO_ENV === 'h5') await nextTask()

const stores = createAppStores()

// before the H5 router starts: it announces the first route as it starts
installRouteWatch({
  isLoggedIn: () => stores.session.isLoggedIn,
  overlayBusy: () => client.inFlight() > 0,
})

type LoginStep = Extract<LaunchStep, { kind: 'redirectToLogin' }>

/** Runs the launch plan (SPEC 2); `toLogin` replaces the page being opened with the login page. */
function launch(path: string, query: Record<string, string>, toLogin: (step: LoginStep) => void) {
  const { session } = stores
  const steps = planLaunch({
    path,
    query,
    isLoggedIn: session.isLoggedIn,
    isWeChatBrowser: platform.isWeChatBrowser(),
    hasOpenId: Boolean(session.openId),
  })
  // what the launch link and the device tell the next login (SPEC 3 "Login request")
  const { preGroup, shareUser } = launchLoginContext(query)
  if (preGroup) session.setPreGroup(preGroup)
  if (shareUser !== undefined) session.setShareUser(shareUser)
  const device = platform.getDeviceInfo()
  session.setDeviceInfo(device.deviceId, device.deviceModel)
  for (const step of steps) {
    if (step.kind === 'saveChannelCode') session.setChannel(step.channelCode)
    if (step.kind === 'saveInvite') session.setInviteInfo(step.inviteType, step.inviteCode)
    if (step.kind === 'authorizeOfficialAccount')
      platform.officialAccountAuthorize(step.channelCode, step.redirect)
    if (step.kind === 'redirectToLogin') toLogin(step)
  }
}

// H5: decide before the router reads the location. Navigating from the launch hook leaves a blank
// page, and an unknown path renders an empty page (the not-found event does not reach the app).
if (process.env.TARO_ENV === 'h5' && typeof window !== 'undefined') {
  handOverPrerender()
  keepScriptLinksUnfollowed()
  const replace = (target: string) => window.history.replaceState(null, '', target)
  const path = window.location.pathname.replace(/^\/+|\/+$/g, '')
  if (path && !allRoutes.some((route) => route.path === path)) {
    replace(url('notFound', { path: `/${path}` }))
  } else {
    const query = Object.fromEntries(new URLSearchParams(window.location.search))
    launch(path, query, (step) => replace(step.url))
    if (path === ROUTES.create.path) prefetchGoodsList()
  }
}

function App({ children }: PropsWithChildren) {
  useLaunch(({ path, query }) => {
    platform.setupUpdateManager()
    if (process.env.TARO_ENV === 'h5') return
    // the mini-program's first page must exist before it can be replaced
    launch(path ?? '', (query ?? {}) as Record<string, string>, (step) =>
      setTimeout(() => goLogin(step.redirect)),
    )
  })

  useDidShow((options) => {
    // the mini-program shows the app before its first page exists: WeChat names that page here
    const shown = options?.path
      ? currentUrl(options.path, (options.query ?? {}) as Record<string, string>)
      : undefined
    stores.usage.onShow(shown)
    // a relaunch with a stored session never logs in: the configured texts are fetched here
    void stores.session.refreshCommonConfig()
  })
  useDidHide(() => stores.usage.onHide())

  usePageNotFound(({ path }) => {
    Taro.redirectTo({ url: url('notFound', { path }) })
  })

  useEffect(() => {
    if (process.env.TARO_ENV !== 'h5') return
    const onExit = () => void stores.usage.onExit()
    window.addEventListener('pagehide', onExit)
    return () => window.removeEventListener('pagehide', onExit)
  }, [])

  return <StoresProvider stores={stores}>{children}</StoresProvider>
}

// H5: the router starts and mounts the first page in a task of its own
if (process.env.TARO_ENV === 'h5') await nextTask()

export default App
