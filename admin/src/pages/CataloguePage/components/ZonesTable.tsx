/** 地区: each zone open or closed, and (for an editor) 开放 / 关闭 after a confirmation naming what it does. */
import { useMutation } from '@tanstack/react-query'
import { Badge, Button, Popconfirm, Table, Typography } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import type { AdminZoneRow } from '#console-contract/catalogue'
import { adminApi } from '../../../api'
import type { CatalogueMutationOptions } from './catalogue-parts'

export default function ZonesTable({
  zones,
  loading,
  editable,
  mutationOptions,
}: {
  zones: AdminZoneRow[] | undefined
  loading: boolean
  editable: boolean
  mutationOptions: CatalogueMutationOptions
}) {
  const zoneOnSale = useMutation({
    mutationFn: (row: AdminZoneRow) =>
      adminApi.setZoneOnSale(row.id, { version: row.version, onSale: !row.onSale }),
    ...mutationOptions,
  })
  const zoneColumns: ColumnsType<AdminZoneRow> = [
    { title: '地区', dataIndex: 'name' },
    {
      title: '状态',
      dataIndex: 'onSale',
      render: (open: boolean) =>
        open ? <Badge status="success" text="开放" /> : <Badge status="default" text="已关闭" />,
    },
  ]
  if (editable) {
    zoneColumns.push({
      title: '操作',
      key: 'toggle',
      render: (_, row) => (
        <Popconfirm
          title={row.onSale ? `关闭地区 ${row.name}？` : `开放地区 ${row.name}？`}
          description={
            row.onSale
              ? '关闭后用户将无法在该地区购买新的云手机，也不能把云手机迁入该地区（该地区已有的云手机不受影响）。'
              : '开放后用户可以在该地区购买云手机。'
          }
          okText={row.onSale ? '关闭' : '开放'}
          okButtonProps={{ danger: row.onSale }}
          cancelText="取消"
          onConfirm={() => zoneOnSale.mutateAsync(row).catch(() => undefined)}
        >
          <Button type="link" danger={row.onSale} style={{ padding: 0 }}>
            {row.onSale ? '关闭' : '开放'}
          </Button>
        </Popconfirm>
      ),
    })
  }
  return (
    <Table<AdminZoneRow>
      rowKey="id"
      size="small"
      title={() => <Typography.Text strong>地区</Typography.Text>}
      columns={zoneColumns}
      dataSource={zones}
      loading={loading}
      pagination={false}
    />
  )
}
