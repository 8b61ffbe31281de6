/**
 * 操作员 (admin): every operator account; create one (its TOTP secret and QR code are shown once),
 * disable or enable one after a confirmation that names the consequence.
 */
import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  ModalForm,
  ProFormSelect,
  ProFormText,
  ProTable,
  type ProColumns,
} from '@ant-design/pro-components'
import { Badge, Button, Modal, Popconfirm, QRCode, Space, Typography } from 'antd'
import {
  OPERATOR_NAME_PATTERN,
  OPERATOR_PASSWORD_MIN,
  OPERATOR_PASSWORD_WEAK,
  OPERATOR_ROLE_LABELS,
  OPERATOR_ROLES,
} from '#domain/console/operator-roles'
import type { CreatedOperator, CreateOperatorBody, OperatorRow } from '#console-contract'
import { adminApi } from '../../api'
import { beijingTime, inBeijing } from '../../components/beijing-time'

const OPERATORS_KEY = ['operators'] as const

export default function OperatorsPage() {
  const queryClient = useQueryClient()
  const operators = useQuery({ queryKey: OPERATORS_KEY, queryFn: adminApi.operators })
  const [created, setCreated] = useState<CreatedOperator | null>(null)
  const refresh = () => queryClient.invalidateQueries({ queryKey: OPERATORS_KEY })

  const create = useMutation({
    mutationFn: adminApi.createOperator,
    onSuccess: (result) => {
      setCreated(result)
      void refresh()
    },
  })
  const toggle = useMutation({
    mutationFn: (row: OperatorRow) =>
      row.disabledAt === null ? adminApi.disableOperator(row.id) : adminApi.enableOperator(row.id),
    onSuccess: () => void refresh(),
  })

  const columns: ProColumns<OperatorRow>[] = [
    { title: '账号', dataIndex: 'name' },
    { title: '角色', dataIndex: 'role', render: (_, row) => OPERATOR_ROLE_LABELS[row.role] },
    {
      title: '状态',
      dataIndex: 'disabledAt',
      render: (_, row) =>
        row.disabledAt === null ? (
          <Badge status="success" text="正常" />
        ) : (
          <Badge status="default" text="已停用" />
        ),
    },
    {
      title: inBeijing('创建时间'),
      dataIndex: 'createdAt',
      render: (_, row) => beijingTime(row.createdAt),
    },
    {
      title: '操作',
      valueType: 'option',
      render: (_, row) => {
        const enabled = row.disabledAt === null
        return (
          <Popconfirm
            key="toggle"
            title={enabled ? `停用 ${row.name}？` : `启用 ${row.name}？`}
            description={
              enabled
                ? `${row.name} 的登录立即失效，并且不能再登录运营后台，直到重新启用。`
                : `${row.name} 可以用原来的密码和动态码再次登录运营后台。`
            }
            okText={enabled ? '停用' : '启用'}
            okButtonProps={{ danger: enabled }}
            cancelText="取消"
            onConfirm={() => toggle.mutateAsync(row)}
          >
            <Button type="link" danger={enabled} style={{ padding: 0 }}>
              {enabled ? '停用' : '启用'}
            </Button>
          </Popconfirm>
        )
      },
    },
  ]

  return (
    <>
      <ProTable<OperatorRow>
        rowKey="id"
        headerTitle="操作员账号"
        columns={columns}
        dataSource={operators.data}
        loading={operators.isFetching}
        search={false}
        pagination={false}
        options={{ reload: () => void operators.refetch(), density: false, setting: false }}
        toolBarRender={() => [
          <ModalForm<CreateOperatorBody>
            key="create"
            title="新建操作员"
            width={480}
            trigger={<Button type="primary">新建操作员</Button>}
            modalProps={{ destroyOnClose: true, okText: '创建' }}
            onFinish={async (values) => {
              try {
                await create.mutateAsync(values)
                return true
              } catch {
                return false // the refusal's message is shown; the form stays for a correction
              }
            }}
          >
            <ProFormText
              name="name"
              label="账号"
              placeholder="字母、数字、. _ -，最多 32 位"
              rules={[
                { required: true, message: '请输入账号' },
                {
                  pattern: new RegExp(OPERATOR_NAME_PATTERN),
                  message: '账号只能用字母、数字和 . _ -',
                },
              ]}
            />
            <ProFormSelect
              name="role"
              label="角色"
              options={OPERATOR_ROLES.map((role) => ({
                value: role,
                label: OPERATOR_ROLE_LABELS[role],
              }))}
              rules={[{ required: true, message: '请选择角色' }]}
            />
            <ProFormText.Password
              name="password"
              label="初始密码"
              extra="新操作员首次登录后请修改密码"
              fieldProps={{ autoComplete: 'new-password' }}
              rules={[
                { required: true, message: '请输入初始密码' },
                { min: OPERATOR_PASSWORD_MIN, message: OPERATOR_PASSWORD_WEAK },
              ]}
            />
          </ModalForm>,
        ]}
      />
      <Modal
        open={created !== null}
        title={created ? `${created.operator.name} 的动态码密钥` : ''}
        onCancel={() => setCreated(null)}
        footer={
          <Button type="primary" onClick={() => setCreated(null)}>
            我已保存
          </Button>
        }
        maskClosable={false}
      >
        {created && (
          <Space direction="vertical" size="middle" style={{ width: '100%' }}>
            <Typography.Paragraph type="warning" style={{ marginBottom: 0 }}>
              密钥只显示这一次：请新操作员用身份验证器扫码，或手动输入密钥。
            </Typography.Paragraph>
            <QRCode value={created.otpauthUrl} size={200} aria-label="动态码密钥的二维码" />
            <Typography.Text>
              密钥：
              <Typography.Text code copyable data-testid="totp-secret">
                {created.totpSecret}
              </Typography.Text>
            </Typography.Text>
          </Space>
        )}
      </Modal>
    </>
  )
}
