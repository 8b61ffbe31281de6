/** What hangs off a user's account, one tab each with its count: the latest records of each. */
import type { ReactNode } from 'react'
import type { TableColumnsType } from 'antd'
import { deviceStatusLabels, type DeviceStatus } from '#domain/device-lifecycle'
import { couponStatusLabels, type CouponStatus } from '#domain/enums'
import { formatYuan } from '#domain/formatters'
import { GRANT_PERMISSION_LABELS, GrantPermission } from '#domain/grants'
import {
  orderKindLabels,
  orderStatusLabels,
  type OrderKind,
  type OrderStatus,
} from '#domain/order-status'
import type { AdminUserDetail } from '#console-contract/users'
import { beijingOrDash, inBeijing } from '../../../components/beijing-time'
import { HistoryTable } from '../../../components/detail-parts'
import { DeviceLink, OrderLink, toOrFrom } from '../../../components/record-links'

type Detail = AdminUserDetail
type Row<K extends keyof Detail> = Detail[K] extends { records: (infer R)[] } ? R : never
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
export const beans = (count: number) => `${count} 云豆`

/** A grant's or transfer's other user (the server names them: otherMobile, otherName). */
const other = (
  words: string,
  id: number,
  row: { otherMobile: string | null; otherName: string | null },
) => toOrFrom(words, { id, mobile: row.otherMobile, name: row.otherName })

export function tabsOf(detail: Detail): { key: string; label: string; children: ReactNode }[] {
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
