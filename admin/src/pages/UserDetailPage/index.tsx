/**
 * One user (/admin/users/<id>): the profile, then a recent list of each thing hanging off the account
 * (tabs, each with its count). Freeze and unfreeze with a reason after a confirmation naming what it does;
 * a company request waiting for a decision is verified or rejected here. Actions show by the role's
 * permissions, the same table the server enforces.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Button, Space, Tabs } from 'antd'
import type { OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode } from '#domain/result-codes'
import { adminApi } from '../../api'
import { navigate } from '../../router'
import { CONSOLE_PATHS } from '../../paths'
import { DetailUnavailable } from '../../components/detail-parts'
import UserActions from './components/UserActions'
import UserFacts from './components/UserFacts'
import { tabsOf } from './components/user-history'

function BackButton() {
  return <Button onClick={() => navigate(CONSOLE_PATHS.users)}>返回用户列表</Button>
}

export default function UserDetailPage({ id, role }: { id: number; role: OperatorRole }) {
  const queryClient = useQueryClient()
  const key = ['user', id] as const
  const detail = useQuery({
    queryKey: key,
    queryFn: () => adminApi.user(id),
    meta: { inlineError: true },
  })
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: key })
    void queryClient.invalidateQueries({ queryKey: ['users'] })
  }

  if (detail.isPending || detail.isError) {
    return (
      <DetailUnavailable
        query={detail}
        notFoundCode={OperatorCode.USER_NOT_FOUND}
        notFound="用户不存在"
        failed="无法读取该用户"
        back={<BackButton />}
      />
    )
  }

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <UserActions
        id={id}
        user={detail.data.user}
        role={role}
        back={<BackButton key="back" />}
        refresh={refresh}
      />
      <UserFacts user={detail.data.user} />
      <Tabs items={tabsOf(detail.data)} />
    </Space>
  )
}
