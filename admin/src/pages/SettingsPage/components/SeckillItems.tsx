/** A flash-sale activity's items, shown when its row is expanded, each with 修改 for an editor. */
import { Table } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { durationLabel } from '#domain/catalogue'
import { formatYuan } from '#domain/formatters'
import type { AdminActivity, AdminSeckillItem } from '#console-contract/settings'
import SeckillItemEditor from './SeckillItemEditor'
import type { MutationOptions } from './settings-refusal'

export default function SeckillItems({
  activity,
  editable,
  mutationOptions,
}: {
  activity: AdminActivity
  editable: boolean
  mutationOptions: MutationOptions
}) {
  const columns: ColumnsType<AdminSeckillItem> = [
    { title: '商品', key: 'goods', render: (_, item) => `${item.goodsName}（${item.configName}）` },
    { title: '时长', key: 'goodTime', render: (_, item) => durationLabel(item.goodTime) },
    { title: '原价', key: 'goodPrice', render: (_, item) => formatYuan(item.goodPrice) },
    { title: '秒杀价', key: 'price', render: (_, item) => formatYuan(item.price) },
    { title: '库存', dataIndex: 'stock' },
    { title: '已售/待支付占用', dataIndex: 'sold' },
    { title: '剩余', key: 'left', render: (_, item) => item.stock - item.sold },
    { title: '排序', dataIndex: 'sort' },
  ]
  if (editable) {
    columns.push({
      title: '操作',
      key: 'edit',
      render: (_, item) => (
        <SeckillItemEditor activity={activity} item={item} mutationOptions={mutationOptions} />
      ),
    })
  }
  return (
    <Table<AdminSeckillItem>
      rowKey="id"
      size="small"
      pagination={false}
      columns={columns}
      dataSource={activity.items}
      aria-label={`${activity.title} 的秒杀商品`}
    />
  )
}
