/**
 * 操作日志 (admin): the append-only audit log, newest first: who, when (北京时间), what, on which target (by
 * name, linked), and what changed as a sentence; 展开 shows it field by field (audit-sentences.tsx). Read
 * only: nothing here edits it.
 */
import { useState } from 'react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { ProTable, type ProColumns } from '@ant-design/pro-components'
import { Select, Table, Typography } from 'antd'
import type { AuditAction, AuditRow } from '#console-contract'
import { adminApi } from '../../api'
import {
  AuditTarget,
  ChangeSentence,
  changes,
  fieldLabel,
  shownValue,
  type Change,
} from './components/audit-sentences'
import { beijingTime, inBeijing } from '../../components/beijing-time'

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
  'app.add': '添加应用',
  'app.hide': '下架应用',
  'app.show': '上架应用',
  'message.send': '发送消息',
  'message.broadcast': '群发消息',
  'settings.common': '修改通用配置',
  'settings.activity': '修改活动',
  'settings.seckillItem': '修改秒杀商品',
}
const actionLabel = (action: string) => ACTION_LABELS[action as AuditAction] ?? action

function ChangeTable({ row }: { row: AuditRow }) {
  const rows = changes(row.before, row.after)
  if (rows.length === 0) return <Typography.Text type="secondary">没有字段变化</Typography.Text>
  const value = (item: unknown, change: Change) =>
    item === undefined ? (
      <Typography.Text>（无）</Typography.Text>
    ) : (
      <Typography.Text title={JSON.stringify(item)}>
        {shownValue(row, change.field, item)}
      </Typography.Text>
    )
  return (
    <Table<Change>
      size="small"
      rowKey="field"
      pagination={false}
      dataSource={rows}
      columns={[
        { title: '字段', dataIndex: 'field', render: (field: string) => fieldLabel(field, row) },
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
    {
      title: inBeijing('时间'),
      dataIndex: 'at',
      width: 200,
      render: (_, row) => beijingTime(row.at),
    },
    {
      title: '操作员',
      dataIndex: 'operatorName',
      render: (_, row) => (row.actor === 'cli' ? '命令行（admin:create）' : row.operatorName),
    },
    {
      title: '操作',
      dataIndex: 'action',
      width: 130,
      render: (_, row) => actionLabel(row.action),
    },
    { title: '对象', dataIndex: 'targetId', render: (_, row) => <AuditTarget row={row} /> },
    { title: '变更', dataIndex: 'after', render: (_, row) => <ChangeSentence row={row} /> },
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
