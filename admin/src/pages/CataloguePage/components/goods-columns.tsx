/** 商品与价格's goods table: level, system, free stock, on sale or not and (for an editor) 上架 / 下架. */
import type { ProColumns } from '@ant-design/pro-components'
import { Badge, Button, Popconfirm } from 'antd'
import { androidVersionLabel, type AndroidVersion } from '#domain/catalogue'
import type { AdminCatalogue, AdminGoodsRow } from '#console-contract/catalogue'
import { goodsName } from './catalogue-parts'

export function goodsColumns(
  levels: AdminCatalogue['levels'] | undefined,
  editable: boolean,
  toggleOnSale: (row: AdminGoodsRow) => Promise<unknown>,
): ProColumns<AdminGoodsRow>[] {
  const levelName = new Map(levels?.map((level) => [level.level, level.name]))
  return [
    {
      title: '等级',
      dataIndex: 'level',
      width: 90,
      render: (_, row) => levelName.get(row.level) ?? row.level,
      filters: levels?.map((level) => ({ text: level.name, value: level.level })),
      onFilter: (value, row) => row.level === value,
    },
    { title: '商品ID', dataIndex: 'id', width: 80 },
    { title: '名称', dataIndex: 'name' },
    { title: '配置', dataIndex: 'configName' },
    {
      title: '系统',
      dataIndex: 'androidVersion',
      render: (_, row) => androidVersionLabel(row.androidVersion as AndroidVersion),
    },
    { title: '每单上限', dataIndex: 'maxPerOrder', width: 90 },
    {
      title: '可售库存',
      key: 'free',
      render: (_, row) => row.stock.reduce((sum, zone) => sum + zone.free, 0),
    },
    {
      title: '状态',
      dataIndex: 'onSale',
      render: (_, row) =>
        row.onSale ? (
          <Badge status="success" text="在售" />
        ) : (
          <Badge status="default" text="已下架" />
        ),
    },
    {
      title: '操作',
      valueType: 'option',
      hideInTable: !editable,
      render: (_, row) =>
        row.onSale ? (
          <Popconfirm
            key="off"
            title={`下架 ${goodsName(row)}？`}
            description="下架后用户将无法购买该商品（已购买的云手机不受影响）。"
            okText="下架"
            okButtonProps={{ danger: true }}
            cancelText="取消"
            onConfirm={() => toggleOnSale(row).catch(() => undefined)}
          >
            <Button type="link" danger style={{ padding: 0 }}>
              下架
            </Button>
          </Popconfirm>
        ) : (
          <Popconfirm
            key="on"
            title={`上架 ${goodsName(row)}？`}
            description="上架后用户可以在商品列表中看到并购买该商品。"
            okText="上架"
            cancelText="取消"
            onConfirm={() => toggleOnSale(row).catch(() => undefined)}
          >
            <Button type="link" style={{ padding: 0 }}>
              上架
            </Button>
          </Popconfirm>
        ),
    },
  ]
}
