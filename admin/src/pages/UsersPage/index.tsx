/**
 * 用户 (every role): search by number (full or its last digits), user id or company name, or list the
 * company requests waiting for a decision; a row opens the user's page (/admin/users/<id>).
 */
import { useState } from 'react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { ProTable, type ProColumns } from '@ant-design/pro-components'
import { Button, Result } from 'antd'
import type { OperatorRole } from '#domain/console/operator-roles'
import type { AdminUserRow, UserSearchQuery } from '#console-contract/users'
import { adminApi } from '../../api'
import { navigate, usePathname } from '../../router'
import { CONSOLE_PATHS, recordIdAt } from '../../paths'
import ConsoleLink from '../../components/ConsoleLink'
import UserDetailPage from '../UserDetailPage'
import { COMPANY_STATUS_LABELS, FrozenBadge, USER_TYPE_LABELS } from '../../components/user-labels'
import { beijingTime, inBeijing } from '../../components/beijing-time'

interface SearchForm {
  q?: string
  companyStatus?: string
}

export default function UsersPage({ role }: { role: OperatorRole }) {
  const pathname = usePathname()
  const id = recordIdAt(CONSOLE_PATHS.users, pathname, 10)
  if (pathname !== CONSOLE_PATHS.users) {
    return id !== undefined ? <UserDetailPage id={id} role={role} /> : <UserNotFound />
  }
  return <UserSearch />
}

function UserNotFound() {
  return (
    <Result
      status="404"
      title="没有这个页面"
      extra={
        <Button type="primary" onClick={() => navigate(CONSOLE_PATHS.users)}>
          返回用户列表
        </Button>
      }
    />
  )
}

function UserSearch() {
  const [params, setParams] = useState<UserSearchQuery>({ page: 1, rows: 20 })
  const users = useQuery({
    queryKey: ['users', params],
    queryFn: () => adminApi.users(params),
    placeholderData: keepPreviousData,
  })

  const columns: ProColumns<AdminUserRow>[] = [
    {
      title: '手机号 / 用户ID / 公司名称',
      dataIndex: 'q',
      hideInTable: true,
      fieldProps: { placeholder: '完整手机号、尾号、用户ID或公司名称', maxLength: 64 },
    },
    { title: '用户ID', dataIndex: 'id', search: false, width: 100 },
    {
      title: '手机号',
      dataIndex: 'mobile',
      search: false,
      render: (_, row) => row.mobile ?? '（已注销）',
    },
    { title: '昵称', dataIndex: 'name', search: false, render: (_, row) => row.name || '—' },
    {
      title: '类型',
      dataIndex: 'userType',
      search: false,
      render: (_, row) => USER_TYPE_LABELS[row.userType] ?? row.userType,
    },
    {
      title: '公司',
      dataIndex: 'companyName',
      search: false,
      render: (_, row) => row.companyName ?? '—',
    },
    {
      title: '企业认证',
      dataIndex: 'companyStatus',
      valueType: 'select',
      valueEnum: Object.fromEntries(
        Object.entries(COMPANY_STATUS_LABELS).map(([value, text]) => [value, { text }]),
      ),
    },
    {
      title: '状态',
      dataIndex: 'frozen',
      search: false,
      render: (_, row) => <FrozenBadge frozen={row.frozen} />,
    },
    {
      title: inBeijing('注册时间'),
      dataIndex: 'createdAt',
      search: false,
      render: (_, row) => beijingTime(row.createdAt),
    },
    {
      title: '操作',
      valueType: 'option',
      render: (_, row) => (
        <ConsoleLink key="open" to={`${CONSOLE_PATHS.users}/${row.id}`}>
          查看
        </ConsoleLink>
      ),
    },
  ]

  return (
    <ProTable<AdminUserRow, SearchForm>
      rowKey="id"
      headerTitle="用户"
      columns={columns}
      dataSource={users.data?.records}
      loading={users.isFetching}
      search={{ labelWidth: 'auto', searchText: '搜索', resetText: '重置' }}
      onSubmit={(form) =>
        setParams({
          q: form.q?.trim() || undefined,
          companyStatus: form.companyStatus === undefined ? undefined : Number(form.companyStatus),
          page: 1,
          rows: params.rows,
        })
      }
      onReset={() => setParams({ page: 1, rows: params.rows })}
      options={{ reload: () => void users.refetch(), density: false, setting: false }}
      pagination={{
        current: params.page,
        pageSize: params.rows,
        total: users.data?.total ?? 0,
        showSizeChanger: true,
        onChange: (page, rows) =>
          setParams({ ...params, page: rows === params.rows ? page : 1, rows }),
      }}
    />
  )
}
