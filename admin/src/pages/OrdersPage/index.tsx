/**
 * 订单与支付 (every role reads): search by order number, order id, user id or number; filter by status,
 * pay method, kind and creation date; newest first. A row opens the order (/admin/orders/<id>). 导出 CSV
 * (admin, finance) downloads the same filter's orders as the server streams them.
 */
import { useState } from 'react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { ProTable, type ProColumns } from '@ant-design/pro-components'
import { Button, Result } from 'antd'
import type { Dayjs } from 'dayjs'
import { formatYuan } from '#domain/formatters'
import { mayDo, type OperatorRole } from '#domain/console/operator-roles'
import {
  ORDER_KINDS,
  orderKindLabels,
  orderStatusLabels,
  payMethodLabels,
  type OrderKind,
  type OrderStatus,
  type PayMethod,
} from '#domain/order-status'
import type { AdminOrderRow, OrderFilter, OrderSearchQuery } from '#console-contract/orders'
import { adminApi } from '../../api'
import { navigate, usePathname } from '../../router'
import { CONSOLE_PATHS, recordIdAt } from '../../paths'
import ConsoleLink from '../../components/ConsoleLink'
import OrderDetailPage from '../OrderDetailPage'
import { beijingTime, fromBeijingWallClock, inBeijing } from '../../components/beijing-time'
import { UserLink } from '../../components/record-links'

interface SearchForm {
  q?: string
  status?: string
  payMethod?: string
  kind?: OrderKind
  createdAt?: [Dayjs, Dayjs]
}

const enumOf = (labels: Record<string | number, string>) =>
  Object.fromEntries(Object.entries(labels).map(([value, text]) => [value, { text }]))

export default function OrdersPage({ role }: { role: OperatorRole }) {
  const pathname = usePathname()
  const id = recordIdAt(CONSOLE_PATHS.orders, pathname, 15)
  if (pathname !== CONSOLE_PATHS.orders) {
    return id !== undefined ? <OrderDetailPage id={id} role={role} /> : <OrderNotFound />
  }
  return <OrderSearch role={role} />
}

function OrderNotFound() {
  return (
    <Result
      status="404"
      title="没有这个页面"
      extra={
        <Button type="primary" onClick={() => navigate(CONSOLE_PATHS.orders)}>
          返回订单列表
        </Button>
      }
    />
  )
}

function toFilter(form: SearchForm): OrderFilter {
  const [from, to] = form.createdAt ?? []
  return {
    q: form.q?.trim() || undefined,
    status: form.status === undefined ? undefined : Number(form.status),
    payMethod: form.payMethod === undefined ? undefined : Number(form.payMethod),
    kind: form.kind,
    // whole days, the end day included
    // the picked days are 北京时间 days, whatever the browser's zone
    from: from ? fromBeijingWallClock(from.startOf('day').toDate()) : undefined,
    to: to ? fromBeijingWallClock(to.endOf('day').toDate()) + 1 : undefined,
  }
}

function OrderSearch({ role }: { role: OperatorRole }) {
  const [params, setParams] = useState<OrderSearchQuery>({ page: 1, rows: 20 })
  const orders = useQuery({
    queryKey: ['orders', params],
    queryFn: () => adminApi.orders(params),
    placeholderData: keepPreviousData,
  })
  const { page: _page, rows: _rows, ...filter } = params

  const columns: ProColumns<AdminOrderRow>[] = [
    {
      title: '订单号 / 订单ID / 用户ID / 手机号',
      dataIndex: 'q',
      hideInTable: true,
      fieldProps: { placeholder: '订单号、订单ID、用户ID或完整手机号', maxLength: 64 },
    },
    { title: '订单号', dataIndex: 'orderNo', search: false, copyable: true },
    {
      title: '用户',
      dataIndex: 'userId',
      search: false,
      render: (_, row) => <UserLink id={row.userId} mobile={row.userMobile} name={row.userName} />,
    },
    {
      title: '类型',
      dataIndex: 'kind',
      valueType: 'select',
      valueEnum: enumOf(
        Object.fromEntries(ORDER_KINDS.map((kind) => [kind, orderKindLabels[kind]])),
      ),
    },
    {
      title: '状态',
      dataIndex: 'status',
      valueType: 'select',
      valueEnum: enumOf(orderStatusLabels),
      render: (_, row) => orderStatusLabels[row.status as OrderStatus] ?? row.status,
    },
    {
      title: '支付方式',
      dataIndex: 'payMethod',
      valueType: 'select',
      valueEnum: enumOf(payMethodLabels),
      render: (_, row) =>
        row.payMethod === null ? '—' : (payMethodLabels[row.payMethod as PayMethod] ?? '—'),
    },
    {
      title: '金额',
      dataIndex: 'amount',
      search: false,
      render: (_, row) => formatYuan(row.amount),
    },
    { title: '数量', dataIndex: 'quantity', search: false, width: 70 },
    {
      title: inBeijing('创建时间'),
      dataIndex: 'createdAt',
      search: false,
      render: (_, row) => beijingTime(row.createdAt),
    },
    {
      title: inBeijing('创建日期'),
      dataIndex: 'createdAt',
      valueType: 'dateRange',
      hideInTable: true,
    },
    {
      title: '操作',
      valueType: 'option',
      render: (_, row) => (
        <ConsoleLink key="open" to={`${CONSOLE_PATHS.orders}/${row.id}`}>
          查看
        </ConsoleLink>
      ),
    },
  ]

  const toolbar = mayDo(role, 'exportOrders')
    ? [
        <Button key="csv" href={adminApi.ordersCsvUrl(filter)} download>
          导出 CSV
        </Button>,
      ]
    : []

  return (
    <ProTable<AdminOrderRow, SearchForm>
      rowKey="id"
      headerTitle="订单与支付"
      columns={columns}
      dataSource={orders.data?.records}
      loading={orders.isFetching}
      search={{ labelWidth: 'auto', searchText: '搜索', resetText: '重置' }}
      onSubmit={(form) => setParams({ ...toFilter(form), page: 1, rows: params.rows })}
      onReset={() => setParams({ page: 1, rows: params.rows })}
      toolBarRender={() => toolbar}
      options={{ reload: () => void orders.refetch(), density: false, setting: false }}
      pagination={{
        current: params.page,
        pageSize: params.rows,
        total: orders.data?.total ?? 0,
        showTotal: (total, [from, to]) =>
          orders.data?.capped
            ? `第 ${from}-${to} 条/超过 ${total} 条，可按时间或状态缩小范围`
            : `第 ${from}-${to} 条/总共 ${total} 条`,
        showSizeChanger: true,
        onChange: (page, rows) =>
          setParams({ ...params, page: rows === params.rows ? page : 1, rows }),
      }}
    />
  )
}
