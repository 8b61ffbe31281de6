/** Signed in: the shell; not signed in (or the session ended on any call): the sign-in page. */
import { lazy, Suspense, useCallback, useEffect } from 'react'
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Button, Result, Spin } from 'antd'
import type { AdminSession } from '#console-contract'
import { adminApi, ApiError, setSignedOutHandler } from './api'
import SignInPage from './pages/SignInPage'

export const SESSION_KEY = ['session'] as const

/** The shell and its pages (ProComponents) load after sign-in: the sign-in page needs antd only. */
const Shell = lazy(() => import('./Shell'))

const Loading = () => (
  <div style={{ display: 'grid', placeItems: 'center', minHeight: '100vh' }}>
    <Spin size="large" tip="加载中">
      <div style={{ width: 120, height: 80 }} />
    </Spin>
  </div>
)

/** The session, or null when nobody is signed in. */
async function currentSession(): Promise<AdminSession | null> {
  try {
    return await adminApi.session()
  } catch (error) {
    if (error instanceof ApiError && error.signedOut) return null
    throw error
  }
}

export default function App() {
  const queryClient = useQueryClient()
  const session = useQuery({
    queryKey: SESSION_KEY,
    queryFn: currentSession,
    staleTime: Infinity,
    meta: { inlineError: true },
  })

  // every page's data belonged to the ended session
  const forgetSession = useCallback(() => {
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== SESSION_KEY[0] })
    queryClient.setQueryData(SESSION_KEY, null)
  }, [queryClient])
  useEffect(() => setSignedOutHandler(forgetSession), [forgetSession])

  if (session.isPending) return <Loading />
  if (session.isError) {
    return (
      <Result
        status="error"
        title="无法连接运营后台"
        subTitle={session.error.message}
        extra={
          <Button type="primary" onClick={() => void session.refetch()}>
            重试
          </Button>
        }
      />
    )
  }
  if (!session.data) {
    return <SignInPage onSignedIn={(signedIn) => queryClient.setQueryData(SESSION_KEY, signedIn)} />
  }
  return (
    <Suspense fallback={<Loading />}>
      <Shell session={session.data} onSignedOut={forgetSession} />
    </Suspense>
  )
}
