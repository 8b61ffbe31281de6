/**
 * What an operator may do to the user, by the role's permissions: freeze or unfreeze with a reason after a
 * confirmation naming what it does, and verify or reject a company request waiting for a decision.
 */
import type { ReactNode } from 'react'
import { useMutation } from '@tanstack/react-query'
import { ModalForm, ProFormTextArea } from '@ant-design/pro-components'
import { Button, Popconfirm, Space, Typography } from 'antd'
import { mayDo, type OperatorRole } from '#domain/console/operator-roles'
import type { AdminUserDetail } from '#console-contract/users'
import { adminApi } from '../../../api'
import ReasonDialog from '../../../components/ReasonDialog'
import { userLabel } from '../../../components/record-links'

/** The confirmations name what the action does to the user. */
const FREEZE_CONSEQUENCE = '该用户将无法登录和使用云手机，直到解冻。'
const UNFREEZE_CONSEQUENCE = '该用户可以重新登录，并继续使用名下的云手机。'

export default function UserActions({
  id,
  user,
  role,
  back,
  refresh,
}: {
  id: number
  user: AdminUserDetail['user']
  role: OperatorRole
  back: ReactNode
  /** Reads the user and the user list again. */
  refresh: () => void
}) {
  const freeze = useMutation({
    mutationFn: (input: { frozen: boolean; reason: string }) =>
      adminApi.setFrozen(id, input.frozen, input.reason),
    onSuccess: refresh,
  })
  const decide = useMutation({
    mutationFn: (input: { verified: boolean; reason?: string }) =>
      adminApi.decideCompany(id, input.verified, input.reason),
    onSuccess: refresh,
  })

  const live = user.deletedAt === null
  const actions: ReactNode[] = [back]
  if (live && mayDo(role, 'freezeUsers')) {
    actions.push(
      <ReasonDialog
        key="freeze"
        title={user.frozen ? `解冻用户 ${userLabel(user)}？` : `冻结用户 ${userLabel(user)}？`}
        trigger={
          <Button danger={!user.frozen} type={user.frozen ? 'default' : 'primary'}>
            {user.frozen ? '解冻' : '冻结'}
          </Button>
        }
        okText={user.frozen ? '解冻' : '冻结'}
        danger={!user.frozen}
        submit={(reason) => freeze.mutateAsync({ frozen: !user.frozen, reason })}
      >
        <Typography.Paragraph type={user.frozen ? undefined : 'danger'}>
          {user.frozen ? UNFREEZE_CONSEQUENCE : FREEZE_CONSEQUENCE}
        </Typography.Paragraph>
      </ReasonDialog>,
    )
  }
  if (live && user.companyStatus === 1 && mayDo(role, 'verifyCompanies')) {
    actions.push(
      <Popconfirm
        key="verify"
        title={`通过「${user.companyName ?? ''}」的企业认证？`}
        description="该用户将成为企业用户，可以使用企业采购，并会收到系统消息。"
        okText="通过"
        cancelText="取消"
        onConfirm={() => decide.mutateAsync({ verified: true }).catch(() => undefined)}
      >
        <Button type="primary">通过企业认证</Button>
      </Popconfirm>,
      <ModalForm<{ reason?: string }>
        key="reject"
        title={`驳回「${user.companyName ?? ''}」的企业认证？`}
        width={480}
        trigger={<Button danger>驳回企业认证</Button>}
        modalProps={{ destroyOnClose: true, okText: '驳回', okButtonProps: { danger: true } }}
        onFinish={async ({ reason }) => {
          try {
            await decide.mutateAsync({ verified: false, reason })
            return true
          } catch {
            return false
          }
        }}
      >
        <Typography.Paragraph>
          该用户保持个人用户，并会收到“未通过企业认证”的系统消息，可修改公司信息后重新提交。
        </Typography.Paragraph>
        <ProFormTextArea
          name="reason"
          label="原因（记入操作日志，选填）"
          fieldProps={{ maxLength: 200, showCount: true }}
        />
      </ModalForm>,
    )
  }
  return <Space wrap>{actions}</Space>
}
