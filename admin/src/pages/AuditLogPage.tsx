/**
 * 操作日志 (admin): the append-only audit log, newest first: who, when, what, on which target, and what
 * changed (before → after, field by field). Read only: nothing here edits it.
 */
import { useState } from 'react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { ProTable, type ProColumns } from '@ant-design/pro-components'
import { Select, Table, Typography } from 'antd'
import dayjs from 'dayjs'
import { formatYuan } from '#domain/formatters'
import { isOperatorRole, OPERATOR_ROLE_LABELS } from '#domain/operator-roles'
import type { AuditAction, AuditRow } from '../../../server/src/contract/admin'
import { adminApi } from '../api'

/** Every action the contract names has its label: a new one fails the console's typecheck until added. */
const ACTION_LABELS: Record<AuditAction, string> = {
  'session.signIn': '登录',
  'session.signOut': '退出登录',
  'operator.create': '新建操作员',
  'operator.disable': '停用操作员',
  'operator.enable': '启用操作员',
  'operator.password': '修改密码',
  'user.freeze': '冻结用户',
  'user.unfreeze': '解冻用户',
  'company.verify': '通过企业认证',
  'company.reject': '驳回企业认证',
  'catalogue.price': '修改价格',
  'catalogue.onSale': '上架/下架商品',
  'catalogue.zoneOnSale': '开放/关闭地区',
  'catalogue.stock': '修改库存',
  'catalogue.mapping': '修改供应商映射',
  'order.refund': '订单退款',
  'order.export': '导出订单',
  'device.retryProvision': '重新创建云手机',
  'device.release': '释放云手机',
  'device.reset': '重置云手机',
  'job.retry': '重试任务',
  'coupon.templateCreate': '新建优惠券模板',
  'coupon.templateEdit': '修改优惠券模板',
  'coupon.issue': '发放优惠券',
  'message.send': '发送消息',
  'message.broadcast': '群发消息',
  'settings.common': '修改通用配置',
  'settings.activity': '修改活动',
  'settings.seckillItem': '修改秒杀商品',
}
const actionLabel = (action: string) => ACTION_LABELS[action as AuditAction] ?? action

const TARGET_LABELS: Record<string, string> = {
  operator: '操作员',
  session: '会话',
  user: '用户',
  order: '订单',
  goods: '商品',
  goods_price: '价格',
  goods_stock: '库存（商品:地区）',
  zone: '地区',
  supplier_catalogue: '供应商映射（供应商:类型:ID）',
  device: '云手机',
  job: '任务',
  common_config: '通用配置',
  activity: '活动',
  seckill_item: '秒杀商品',
}

const json = (value: unknown) => (value === undefined ? '' : JSON.stringify(value))

/** The fields of an operator row (contract OperatorRow) by their console names; others show as they are. */
const FIELD_LABELS: Record<string, string> = {
  id: 'ID',
  name: '账号',
  role: '角色',
  createdAt: '创建时间',
  disabledAt: '停用时间',
  frozen: '冻结',
  reason: '原因',
  companyName: '公司名称',
  companyStatus: '企业认证',
  userType: '用户类型',
  goodId: '商品',
  zoneId: '地区',
  goodPrice: '售价',
  oldGoodPrice: '划线价',
  firstPurchasePrice: '首购价',
  firstCount: '首购数量',
  activityPrice: '活动价',
  activityEndsAt: '活动结束',
  onSale: '在售',
  free: '可售库存',
  held: '待支付占用',
  configName: '配置',
  version: '版本',
}

/** Catalogue amounts are fen: shown in 元 as the 商品与价格 page shows them. */
const FEN_FIELDS = new Set(['goodPrice', 'oldGoodPrice', 'firstPurchasePrice', 'activityPrice'])

/** A value as an operator reads it: times (…At, ms since epoch) as dates, roles by name, else JSON. */
function shown(field: string, value: unknown): string {
  if (field.endsWith('At') && typeof value === 'number') {
    return dayjs(value).format('YYYY-MM-DD HH:mm:ss')
  }
  if (FEN_FIELDS.has(field) && typeof value === 'number') return formatYuan(value)
  if (field === 'role' && typeof value === 'string' && isOperatorRole(value)) {
    return OPERATOR_ROLE_LABELS[value]
  }
  return json(value)
}

interface Change {
  field: string
  before: unknown
  after: unknown
}

/** Field by field for two objects (only what differs); the whole values otherwise. */
export function changes(before: unknown, after: unknown): Change[] {
  const isRecord = (value: unknown): value is Record<string, unknown> =>
    typeof value === 'object' && value !== null && !Array.isArray(value)
  if ((isRecord(before) || before == null) && (isRecord(after) || after == null)) {
    const was = before ?? {}
    const is = after ?? {}
    const fields = [...new Set([...Object.keys(was), ...Object.keys(is)])]
    return fields
      .filter((field) => json(was[field]) !== json(is[field]))
      .map((field) => ({ field, before: was[field], after: is[field] }))
  }
  return json(before) === json(after) ? [] : [{ field: '（整体）', before, after }]
}

function ChangeTable({ row }: { row: AuditRow }) {
  const rows = changes(row.before, row.after)
  if (rows.length === 0) return <Typography.Text type="secondary">没有字段变化</Typography.Text>
  const value = (item: unknown, change: Change) =>
    item === undefined ? (
      <Typography.Text type="secondary">（无）</Typography.Text>
    ) : (
      <Typography.Text code title={json(item)}>
        {shown(change.field, item)}
      </Typography.Text>
    )
  return (
    <Table<Change>
      size="small"
      rowKey="field"
      pagination={false}
      dataSource={rows}
      columns={[
        {
          title: '字段',
          dataIndex: 'field',
          render: (field: string) => FIELD_LABELS[field] ?? field,
        },
        { title: '之前', dataIndex: 'before', render: value },
        { title: '之后', dataIndex: 'after', render: value },
      ]}
    />
  )
}

export default function AuditLogPage() {
  const [page, setPage] = useState(1)
  const [rows, setRows] = useState(20)
  const [action, setAction] = useState<string | undefined>()
  const audit = useQuery({
    queryKey: ['audit', page, rows, action],
    queryFn: () => adminApi.audit({ page, rows, action }),
    placeholderData: keepPreviousData,
  })

  const columns: ProColumns<AuditRow>[] = [
    { title: '时间', dataIndex: 'at', valueType: 'dateTime', width: 180 },
    {
      title: '操作员',
      dataIndex: 'operatorName',
      render: (_, row) => (row.actor === 'cli' ? '命令行（admin:create）' : row.operatorName),
    },
    { title: '操作', dataIndex: 'action', render: (_, row) => actionLabel(row.action) },
    {
      title: '对象',
      dataIndex: 'targetId',
      render: (_, row) =>
        `${TARGET_LABELS[row.targetType] ?? row.targetType}${row.targetId ? ` #${row.targetId}` : ''}`,
    },
    {
      title: '变更',
      dataIndex: 'after',
      render: (_, row) => {
        const count = changes(row.before, row.after).length
        return count > 0 ? `${count} 个字段` : '—'
      },
    },
    { title: 'IP', dataIndex: 'ip', render: (_, row) => row.ip ?? '—' },
  ]

  return (
    <ProTable<AuditRow>
      rowKey="id"
      headerTitle="操作日志"
      columns={columns}
      dataSource={audit.data?.records}
      loading={audit.isFetching}
      search={false}
      options={{ reload: () => void audit.refetch(), density: false, setting: false }}
      expandable={{
        expandedRowRender: (row) => <ChangeTable row={row} />,
        rowExpandable: (row) => changes(row.before, row.after).length > 0,
      }}
      toolBarRender={() => [
        <Select<string>
          key="action"
          aria-label="按操作筛选"
          allowClear
          placeholder="全部操作"
          style={{ width: 160 }}
          value={action}
          onChange={(value) => {
            setAction(value)
            setPage(1)
          }}
          options={Object.entries(ACTION_LABELS).map(([value, label]) => ({ value, label }))}
        />,
      ]}
      pagination={{
        current: page,
        pageSize: rows,
        total: audit.data?.total ?? 0,
        showSizeChanger: true,
        onChange: (nextPage, nextRows) => {
          setPage(nextRows === rows ? nextPage : 1)
          setRows(nextRows)
        },
      }}
    />
  )
}
