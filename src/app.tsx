import { useEffect, type PropsWithChildren } from 'react'
import Taro, { useDidHide, useDidShow, useLaunch, usePageNotFound } from '@tarojs/taro'
import { createAppStores, StoresProvider } from '@/stores'
import platform from '@/platform'
import { url } from '@/constants/routes'
import { planLaunch } from './app-launch'
import './app.scss'

const stores = createAppStores()

function App({ children }: PropsWithChildren) {
  useLaunch(({ path, query }) => {
    platform.setupUpdateManager()
    const { session } = stores
    const steps = planLaunch({
      path: path ?? '',
      query: (query ?? {}) as Record<string, string>,
      isLoggedIn: session.isLoggedIn,
      isWeChatBrowser: platform.isWeChatBrowser(),
      hasOpenId: Boolean(session.openId),
    })
    for (const step of steps) {
      if (step.kind === 'saveChannelCode') session.setChannel(step.channelCode)
      if (step.kind === 'authorizeOfficialAccount')
        platform.officialAccountAuthorize(step.channelCode, step.redirect)
      if (step.kind === 'redirectToLogin') Taro.redirectTo({ url: step.url })
    }
  })

  useDidShow(() => stores.usage.onShow())
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

export default App
