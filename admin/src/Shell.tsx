/**
 * The signed-in console: ProLayout's menu holds the pages the operator's role may open, the header the
 * operator's name and role and 退出登录.
 */
import { useEffect } from 'react'
import { useMutation } from '@tanstack/react-query'
import { PageContainer, ProLayout } from '@ant-design/pro-components'
import { Button, Result, Space, Typography } from 'antd'
import { OPERATOR_ROLE_LABELS } from '#domain/console/operator-roles'
import type { AdminSession } from '#console-contract'
import { adminApi } from './api'
import OwnPassword from './OwnPassword'
import { CONSOLE_PAGES, isPageOf, pagesFor } from './pages'
import { CONSOLE_ROOT } from './paths'
import { navigate, usePathname } from './router'

export default function Shell({
  session,
  onSignedOut,
}: {
  session: AdminSession
  onSignedOut: () => void
}) {
  const { operator } = session
  const pathname = usePathname()
  const pages = pagesFor(operator.role)
  const page = pages.find((candidate) => isPageOf(candidate, pathname))
  const home = pages[0]?.path
  const notAllowed = !page && CONSOLE_PAGES.some((candidate) => isPageOf(candidate, pathname))

  // /admin (or a page this role may not open) → the first page it may
  useEffect(() => {
    if (!page && home && (pathname === CONSOLE_ROOT || pathname === `${CONSOLE_ROOT}/`)) {
      navigate(home, { replace: true })
    }
  }, [page, home, pathname])

  // signed out on the server or not (a session already gone), the console forgets it
  const signOut = useMutation({
    mutationFn: adminApi.signOut,
    onSettled: onSignedOut,
    meta: { inlineError: true },
  })

  return (
    <ProLayout
      title="云手机运营后台"
      logo={false}
      layout="mix"
      fixSiderbar
      location={{ pathname }}
      route={{ path: CONSOLE_ROOT, children: pages.map(({ path, name }) => ({ path, name })) }}
      menuItemRender={(item, dom) => (
        <a
          href={item.path}
          onClick={(event) => {
            event.preventDefault()
            if (item.path) navigate(item.path)
          }}
        >
          {dom}
        </a>
      )}
      actionsRender={() => [
        <Space key="operator" size="middle">
          <Typography.Text>
            {operator.name}（{OPERATOR_ROLE_LABELS[operator.role]}）
          </Typography.Text>
          <OwnPassword />
          <Button loading={signOut.isPending} onClick={() => signOut.mutate()}>
            退出登录
          </Button>
        </Space>,
      ]}
    >
      {page ? (
        <PageContainer title={page.name}>{page.render(session)}</PageContainer>
      ) : (
        <Result
          status={notAllowed ? '403' : pages.length > 0 ? '404' : 'info'}
          title={
            notAllowed
              ? '你的角色无权打开此页面'
              : pages.length > 0
                ? '没有这个页面'
                : '你的角色暂时没有可用的页面'
          }
          extra={
            home ? (
              <Button type="primary" onClick={() => navigate(home)}>
                返回首页
              </Button>
            ) : undefined
          }
        />
      )}
    </ProLayout>
  )
}
