/**
 * One user (/admin/users/<id>): the profile, then a recent list of each thing hanging off the account
 * (tabs, each with its count). Freeze and unfreeze with a reason after a confirmation naming what it does;
 * a company request waiting for a decision is verified or rejected here. Actions show by the role's
 * permissions, the same table the server enforces.
 */
import type { ReactNode } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ModalForm, ProDescriptions, ProFormTextArea } from '@ant-design/pro-components'
import { Button, Popconfirm, Space, Tabs, Typography, type TableColumnsType } from 'antd'
import { deviceStatusLabels, type DeviceStatus } from '#domain/device-lifecycle'
import { couponStatusLabels, type CouponStatus } from '#domain/enums'
import { formatYuan } from '#domain/formatters'
import { GRANT_PERMISSION_LABELS, GrantPermission } from '#domain/grants'
import { mayDo, type OperatorRole } from '#domain/console/operator-roles'
import {
  orderKindLabels,
  orderStatusLabels,
  type OrderKind,
  type OrderStatus,
} from '#domain/order-status'
import { OperatorCode } from '#domain/result-codes'
import type { AdminUserDetail } from '#console-contract/users'
import { adminApi } from '../../api'
import { navigate } from '../../router'
import { CONSOLE_PATHS } from '../../paths'
import { COMPANY_STATUS_LABELS, FrozenBadge, USER_TYPE_LABELS } from '../../components/user-labels'
import { beijingOrDash, inBeijing } from '../../components/beijing-time'
import { DetailUnavailable, HistoryTable } from '../../components/detail-parts'
import { DeviceLink, OrderLink, toOrFrom, userLabel } from '../../components/record-links'

type Detail = AdminUserDetail
type Row<K extends keyof Detail> = Detail[K] extends { records: (infer R)[] } ? R : never

/** The confirmations name what the action does to the user. */
const FREEZE_CONSEQUENCE = '该用户将无法登录和使用云手机，直到解冻。'
const UNFREEZE_CONSEQUENCE = '该用户可以重新登录，并继续使用名下的云手机。'

const time = beijingOrDash

const LEDGER_REASONS: Record<string, string> = {
  order: '订单支付',
  recharge: '充值',
  refund: '退款',
  grant: '赠送',
  timeToMonth: '时长兑换',
}

/** Beans are counted (1 bean pays 1 fen), the company account in yuan. */
const ledgerColumns = (amount: (value: number) => string): TableColumnsType<Row<'beanLedger'>> => [
  { title: inBeijing('时间'), dataIndex: 'createdAt', render: time },
  {
    title: '原因',
    dataIndex: 'reason',
    render: (reason: string) => LEDGER_REASONS[reason] ?? reason,
  },
  {
    title: '变动',
    dataIndex: 'change',
    render: (change: number) => `${change > 0 ? '+' : ''}${amount(change)}`,
  },
  { title: '变动后余额', dataIndex: 'balanceAfter', render: amount },
  {
    title: '订单',
    dataIndex: 'orderId',
    render: (id: number | null, row) => (id ? <OrderLink id={id} orderNo={row.orderNo} /> : '—'),
  },
]
const beans = (count: number) => `${count} 云豆`

/** A grant's or transfer's other user (the server names them: otherMobile, otherName). */
const other = (
  words: string,
  id: number,
  row: { otherMobile: string | null; otherName: string | null },
) => toOrFrom(words, { id, mobile: row.otherMobile, name: row.otherName })

function tabsOf(detail: Detail): { key: string; label: string; children: ReactNode }[] {
  return [
    {
      key: 'phones',
      label: `云手机（${detail.phones.total}）`,
      children: (
        <HistoryTable
          rows={detail.phones.records}
          total={detail.phones.total}
          empty="没有云手机"
          columns={[
            {
              title: '名称',
              dataIndex: 'name',
              render: (name: string, row) => <DeviceLink id={row.id} name={name} />,
            },
            {
              title: '状态',
              dataIndex: 'status',
              render: (status: number) => deviceStatusLabels[status as DeviceStatus] ?? status,
            },
            { title: inBeijing('到期时间'), dataIndex: 'expireAt', render: time },
            { title: '失败原因', dataIndex: 'failReason', render: (reason) => reason ?? '—' },
          ]}
        />
      ),
    },
    {
      key: 'orders',
      label: `订单（${detail.orders.total}）`,
      children: (
        <HistoryTable
          rows={detail.orders.records}
          total={detail.orders.total}
          empty="没有订单"
          columns={[
            {
              title: '订单号',
              dataIndex: 'orderNo',
              render: (orderNo: string, row) => <OrderLink id={row.id} orderNo={orderNo} />,
            },
            {
              title: '类型',
              dataIndex: 'kind',
              render: (kind: string) => orderKindLabels[kind as OrderKind] ?? kind,
            },
            {
              title: '状态',
              dataIndex: 'status',
              render: (status: number) => orderStatusLabels[status as OrderStatus] ?? status,
            },
            { title: '金额', dataIndex: 'amount', render: formatYuan },
            { title: '数量', dataIndex: 'quantity' },
            { title: inBeijing('下单时间'), dataIndex: 'createdAt', render: time },
            { title: inBeijing('支付时间'), dataIndex: 'paidAt', render: time },
          ]}
        />
      ),
    },
    {
      key: 'beans',
      label: `云豆明细（${detail.beanLedger.total}）`,
      children: (
        <HistoryTable
          rows={detail.beanLedger.records}
          total={detail.beanLedger.total}
          empty="没有云豆记录"
          columns={ledgerColumns(beans)}
        />
      ),
    },
    {
      key: 'account',
      label: `账户明细（${detail.accountLedger.total}）`,
      children: (
        <HistoryTable
          rows={detail.accountLedger.records}
          total={detail.accountLedger.total}
          empty="没有账户记录"
          columns={ledgerColumns(formatYuan)}
        />
      ),
    },
    {
      key: 'coupons',
      label: `优惠券（${detail.coupons.total}）`,
      children: (
        <HistoryTable
          rows={detail.coupons.records}
          total={detail.coupons.total}
          empty="没有优惠券"
          columns={[
            { title: '名称', dataIndex: 'templateName' },
            {
              title: '状态',
              dataIndex: 'status',
              render: (status: number) => couponStatusLabels[status as CouponStatus] ?? status,
            },
            { title: inBeijing('发放时间'), dataIndex: 'issuedAt', render: time },
            { title: inBeijing('有效期至'), dataIndex: 'validUntil', render: time },
            { title: inBeijing('使用时间'), dataIndex: 'usedAt', render: time },
          ]}
        />
      ),
    },
    {
      key: 'grants',
      label: `授权（${detail.grants.total}）`,
      children: (
        <HistoryTable
          rows={detail.grants.records}
          total={detail.grants.total}
          empty="没有授权记录"
          columns={[
            {
              title: '方向',
              dataIndex: 'direction',
              render: (direction: string, row) =>
                direction === 'given'
                  ? other('授权给', row.granteeId, row)
                  : other('来自', row.ownerId, row),
            },
            {
              title: '云手机',
              dataIndex: 'deviceId',
              render: (id: number) => <DeviceLink id={id} name={null} />,
            },
            {
              title: '权限',
              dataIndex: 'permission',
              render: (permission: number) =>
                GRANT_PERMISSION_LABELS[
                  permission === GrantPermission.control
                    ? GrantPermission.control
                    : GrantPermission.view
                ],
            },
            { title: inBeijing('到期时间'), dataIndex: 'expiresAt', render: time },
            { title: inBeijing('撤销时间'), dataIndex: 'revokedAt', render: time },
          ]}
        />
      ),
    },
    {
      key: 'transfers',
      label: `转移（${detail.transfers.total}）`,
      children: (
        <HistoryTable
          rows={detail.transfers.records}
          total={detail.transfers.total}
          empty="没有转移记录"
          columns={[
            { title: inBeijing('时间'), dataIndex: 'createdAt', render: time },
            {
              title: '方向',
              dataIndex: 'direction',
              render: (direction: string, row) =>
                direction === 'out'
                  ? other('转给', row.toUserId, row)
                  : other('来自', row.fromUserId, row),
            },
            {
              title: '云手机',
              dataIndex: 'deviceName',
              render: (name: string, row) => <DeviceLink id={row.deviceId} name={name} />,
            },
          ]}
        />
      ),
    },
  ]
}

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

  const { user } = detail.data
  const live = user.deletedAt === null
  const actions: ReactNode[] = [<BackButton key="back" />]
  if (live && mayDo(role, 'freezeUsers')) {
    actions.push(
      <ModalForm<{ reason: string }>
        key="freeze"
        title={user.frozen ? `解冻用户 ${userLabel(user)}？` : `冻结用户 ${userLabel(user)}？`}
        width={480}
        trigger={
          <Button danger={!user.frozen} type={user.frozen ? 'default' : 'primary'}>
            {user.frozen ? '解冻' : '冻结'}
          </Button>
        }
        modalProps={{
          destroyOnClose: true,
          okText: user.frozen ? '解冻' : '冻结',
          okButtonProps: { danger: !user.frozen },
        }}
        onFinish={async ({ reason }) => {
          try {
            await freeze.mutateAsync({ frozen: !user.frozen, reason })
            return true
          } catch {
            return false // the refusal's message is shown; the dialog stays
          }
        }}
      >
        <Typography.Paragraph type={user.frozen ? undefined : 'danger'}>
          {user.frozen ? UNFREEZE_CONSEQUENCE : FREEZE_CONSEQUENCE}
        </Typography.Paragraph>
        <ProFormTextArea
          name="reason"
          label="原因（记入操作日志）"
          fieldProps={{ maxLength: 200, showCount: true }}
          rules={[{ required: true, whitespace: true, message: '请填写原因' }]}
        />
      </ModalForm>,
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

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Space wrap>{actions}</Space>
      <ProDescriptions
        title={userLabel(user)}
        column={3}
        bordered
        size="small"
        dataSource={user}
        columns={[
          { title: '手机号', dataIndex: 'mobile', render: () => user.mobile ?? '（已注销）' },
          { title: '昵称', dataIndex: 'name', render: () => user.name || '—' },
          {
            title: '状态',
            dataIndex: 'frozen',
            render: () => <FrozenBadge frozen={user.frozen} />,
          },
          { title: '类型', dataIndex: 'userType', render: () => USER_TYPE_LABELS[user.userType] },
          { title: '公司', dataIndex: 'companyName', render: () => user.companyName ?? '—' },
          {
            title: '企业认证',
            dataIndex: 'companyStatus',
            render: () => COMPANY_STATUS_LABELS[user.companyStatus],
          },
          {
            title: '公司地址',
            dataIndex: 'companyAddress',
            render: () => user.companyAddress ?? '—',
          },
          {
            title: '实名认证',
            dataIndex: 'checkStatus',
            render: () => (user.checkStatus ? '已实名' : '未实名'),
          },
          { title: '云豆余额', dataIndex: 'beanBalance', render: () => beans(user.beanBalance) },
          {
            title: '账户余额',
            dataIndex: 'accountBalance',
            render: () => formatYuan(user.accountBalance),
          },
          {
            title: inBeijing('注册时间'),
            dataIndex: 'createdAt',
            render: () => time(user.createdAt),
          },
          {
            title: inBeijing('最近登录'),
            dataIndex: 'lastLoginAt',
            render: () => time(user.lastLoginAt),
          },
          ...(live
            ? []
            : [
                {
                  title: inBeijing('注销时间'),
                  dataIndex: 'deletedAt',
                  render: () => time(user.deletedAt),
                },
              ]),
        ]}
      />
      <Tabs items={tabsOf(detail.data)} />
    </Space>
  )
}
