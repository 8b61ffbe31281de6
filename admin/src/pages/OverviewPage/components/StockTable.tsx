/** 各地区库存: each goods × zone with its free stock, on sale or not, and 库存不足 at or below the threshold. */
import { Badge, Card, Space, Table, Tag, Typography, type TableColumnsType } from 'antd'
import { androidVersionLabel, type AndroidVersion } from '#domain/catalogue'
import type { OverviewStockRow } from '#console-contract/overview'
import { catalogueExpanding } from '../../../paths'
import ConsoleLink from '../../../components/ConsoleLink'

export default function StockTable({
  rows,
  threshold,
}: {
  rows: OverviewStockRow[]
  threshold: number
}) {
  const columns: TableColumnsType<OverviewStockRow> = [
    {
      title: '商品',
      dataIndex: 'goodsName',
      render: (_, row) => (
        <ConsoleLink to={catalogueExpanding([row.goodId])}>
          {`${row.goodsName}（${androidVersionLabel(row.androidVersion as AndroidVersion)}）`}
        </ConsoleLink>
      ),
    },
    { title: '地区', dataIndex: 'zoneName' },
    {
      title: '可售库存',
      dataIndex: 'stock',
      align: 'right',
      sorter: (a, b) => a.stock - b.stock,
    },
    {
      title: '状态',
      key: 'state',
      filters: [
        { text: '库存不足', value: 'low' },
        { text: '在售', value: 'onSale' },
        { text: '已下架', value: 'offSale' },
      ],
      onFilter: (value, row) =>
        value === 'low' ? row.low : value === 'onSale' ? row.onSale : !row.onSale,
      render: (_, row) => (
        <Space size={4}>
          {row.onSale ? (
            <Badge status="success" text="在售" />
          ) : (
            <Badge status="default" text="已下架" />
          )}
          {row.low ? <Tag color="red">库存不足</Tag> : null}
        </Space>
      ),
    },
  ]
  return (
    <Card
      title="各地区库存"
      extra={
        <Typography.Text type="secondary">
          在售且可售库存 ≤ {threshold} 标为库存不足；补货请到「商品与价格」
        </Typography.Text>
      }
    >
      <Table<OverviewStockRow>
        rowKey={(row) => `${row.goodId}:${row.zoneId}`}
        columns={columns}
        dataSource={rows}
        size="small"
        pagination={{ pageSize: 20, showSizeChanger: true }}
        locale={{ emptyText: <Typography.Text>暂无商品</Typography.Text> }}
      />
    </Card>
  )
}
