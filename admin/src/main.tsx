import { StrictMode } from 'react'
import { createRoot } from 'react-dom/client'
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query'
import { App as AntApp, ConfigProvider, message } from 'antd'
import zhCN from 'antd/locale/zh_CN'
import dayjs from 'dayjs'
import 'dayjs/locale/zh-cn'
import App from './App'
import { ApiError } from './api'

dayjs.locale('zh-cn')

/**
 * A refusal nobody handles where it happened shows its message; a signed-out answer is handled by App
 * (back to sign-in). A call whose page shows its own error sets `meta: { inlineError: true }`.
 */
function showRefusal(error: unknown, meta: Record<string, unknown> | undefined) {
  if (meta?.inlineError) return
  if (error instanceof ApiError && error.signedOut) return
  void message.error(error instanceof Error ? error.message : String(error))
}

/**
 * antd's default blue, red, gold and grey help text fall short of WCAG AA's 4.5:1 on white (axe: 4.2,
 * 3.1, 1.9, 3.4), and its hover blue is lighter still: darker steps of the same palettes (blue-7,
 * hovered blue-8, red-7, gold-9) and a darker grey.
 */
const THEME = {
  token: {
    colorPrimary: '#0958d9',
    colorPrimaryHover: '#003eb3',
    colorLink: '#0958d9',
    colorLinkHover: '#003eb3',
    colorInfo: '#0958d9',
    colorError: '#cf1322',
    // derived, a hovered danger link or button was a lighter red (4.34:1): red-8
    colorErrorHover: '#a8071a',
    colorWarning: '#874d00',
    // antd derives a warning's background from colorWarning: the darker gold gave an olive box
    colorWarningBg: '#fffbe6',
    colorWarningBorder: '#ffe58f',
    colorTextSecondary: 'rgba(0, 0, 0, 0.62)',
    colorTextDescription: 'rgba(0, 0, 0, 0.62)',
  },
}

const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: (error, query) => showRefusal(error, query.meta) }),
  mutationCache: new MutationCache({
    onError: (error, _variables, _context, mutation) => showRefusal(error, mutation.meta),
  }),
  defaultOptions: {
    queries: { retry: false, refetchOnWindowFocus: false },
    mutations: { retry: false },
  },
})

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <ConfigProvider locale={zhCN} theme={THEME}>
      <AntApp>
        <QueryClientProvider client={queryClient}>
          <App />
        </QueryClientProvider>
      </AntApp>
    </ConfigProvider>
  </StrictMode>,
)
