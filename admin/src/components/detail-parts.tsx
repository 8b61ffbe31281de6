/**
 * What the console's record pages (云手机, 订单, 用户) share: what shows while the record loads or cannot
 * be read, and their history tables.
 */
import type { ReactNode } from 'react'
import { Button, Result, Space, Table, Typography, type TableColumnsType } from 'antd'
import { ApiError } from '../api'

/**
 * The record's page while it loads (加载中), or when it cannot be read: not found (404, with the way
 * back) or another failure (its message, with the way back and 重试).
 */
export function DetailUnavailable({
  query,
  notFoundCode,
  notFound,
  failed,
  back,
}: {
  query: { isPending: boolean; error: Error | null; refetch: () => unknown }
  /** The result code the server answers for a record that does not exist. */
  notFoundCode: number
  notFound: string
  failed: string
  back: ReactNode
}) {
  if (query.isPending) return <Result status="info" title="加载中" />
  const missing = query.error instanceof ApiError && query.error.code === notFoundCode
  return (
    <Result
      status={missing ? '404' : 'error'}
      title={missing ? notFound : failed}
      subTitle={missing ? undefined : query.error?.message}
      extra={
        <Space>
          {back}
          {!missing && <Button onClick={() => void query.refetch()}>重试</Button>}
        </Space>
      }
    />
  )
}

/**
 * One of a record's histories as a small table. With `total` (the server sends the latest rows only) it
 * says how many there are and that the latest are shown.
 */
export function HistoryTable<T extends { id: number }>({
  rows,
  total,
  columns,
  empty,
}: {
  rows: T[]
  total?: number
  columns: TableColumnsType<T>
  empty: string
}) {
  const table = (
    <Table<T>
      size="small"
      rowKey="id"
      pagination={false}
      dataSource={rows}
      columns={columns}
      // in body text: antd's faint placeholder colour fails axe's contrast rule
      locale={{ emptyText: <Typography.Text>{empty}</Typography.Text> }}
    />
  )
  if (total === undefined) return table
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary">
        共 {total} 条{total > rows.length ? `，显示最近 ${rows.length} 条` : ''}
      </Typography.Text>
      {table}
    </Space>
  )
}
