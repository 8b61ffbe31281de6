import { Space, Table, Typography } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { durationLabel } from '#domain/catalogue'
import { formatYuan } from '#domain/formatters'
import type {
  AdminCatalogue,
  AdminGoodsRow,
  AdminPriceRow,
  AdminStockRow,
} from '#console-contract/catalogue'
import { beijingMinute } from '../../../components/beijing-time'
import type { CatalogueMutationOptions } from './catalogue-parts'
import PriceEditor from './PriceEditor'
import StockEditor from './StockEditor'

interface DetailProps {
  goods: AdminGoodsRow
  catalogue: AdminCatalogue
  editable: boolean
  mutationOptions: CatalogueMutationOptions
}

/** One goods' price rows and its stock per zone, each row with its edit dialog. */
export default function GoodsDetail({ goods, catalogue, editable, mutationOptions }: DetailProps) {
  const zoneName = new Map(
    catalogue.zones.map((zone) => [zone.id, zone.onSale ? zone.name : `${zone.name}（已关闭）`]),
  )
  const fen = (value: number | null) => (value === null ? '—' : formatYuan(value))
  const priceColumns: ColumnsType<AdminPriceRow> = [
    { title: '时长', dataIndex: 'goodTime', render: (days: number) => durationLabel(days) },
    { title: '售价', dataIndex: 'goodPrice', render: fen },
    { title: '划线价', dataIndex: 'oldGoodPrice', render: fen },
    {
      title: '首购价',
      key: 'first',
      render: (_, row) =>
        row.firstPurchasePrice === null
          ? '—'
          : `${fen(row.firstPurchasePrice)} × ${row.firstCount}台`,
    },
    {
      title: '活动价',
      key: 'activity',
      render: (_, row) =>
        row.activityId === null
          ? '无活动'
          : row.activityPrice === null
            ? '—'
            : `${fen(row.activityPrice)}${
                row.activityEndsAt === null
                  ? ''
                  : `（至 ${beijingMinute(row.activityEndsAt)} 北京时间）`
              }`,
    },
  ]
  if (editable) {
    priceColumns.push({
      title: '操作',
      key: 'edit',
      render: (_, row) => <PriceEditor goods={goods} row={row} mutationOptions={mutationOptions} />,
    })
  }
  const stockColumns: ColumnsType<AdminStockRow> = [
    { title: '地区', dataIndex: 'zoneId', render: (id: number) => zoneName.get(id) ?? id },
    { title: '可售', dataIndex: 'free' },
    { title: '待支付订单占用', dataIndex: 'held' },
  ]
  if (editable) {
    stockColumns.push({
      title: '操作',
      key: 'edit',
      render: (_, row) => (
        <StockEditor
          goods={goods}
          row={row}
          zoneName={zoneName.get(row.zoneId) ?? String(row.zoneId)}
          mutationOptions={mutationOptions}
        />
      ),
    })
  }
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Table<AdminPriceRow>
        rowKey="id"
        size="small"
        title={() => <Typography.Text strong>价格</Typography.Text>}
        columns={priceColumns}
        dataSource={goods.prices}
        pagination={false}
      />
      <Table<AdminStockRow>
        rowKey="zoneId"
        size="small"
        title={() => <Typography.Text strong>各地区库存</Typography.Text>}
        columns={stockColumns}
        dataSource={goods.stock}
        pagination={false}
      />
    </Space>
  )
}
