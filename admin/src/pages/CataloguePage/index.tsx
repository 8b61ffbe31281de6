/**
 * 商品与价格 (every role reads, admin and operations edit): the zones, open or closed, and each goods
 * with its price rows by duration and its free and held stock per zone. A price row and a zone's stock are edited in a dialog (amounts
 * typed in 元, sent in fen, checked by the rules the server applies: #domain/console/catalogue-edits); taking a
 * goods off sale asks first and names the consequence. An edit of a row someone changed since it was
 * read is refused (4030): its message shows and the table is read again. The 供应商映射 tab
 * (SupplierMappingPanel) keeps the ACEP ids; with ACEP running, a goods without one cannot go on sale
 * (4059): its message shows and the tab opens.
 */
import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ProTable } from '@ant-design/pro-components'
import { App, Space, Tabs } from 'antd'
import { mayDo, type OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode } from '#domain/result-codes'
import type { AdminGoodsRow } from '#console-contract/catalogue'
import { adminApi, ApiError } from '../../api'
import { expandedFromUrl } from '../../paths'
import SupplierMappingPanel from './components/SupplierMappingPanel'
import GoodsDetail from './components/GoodsDetail'
import ZonesTable from './components/ZonesTable'
import { goodsColumns } from './components/goods-columns'

const CATALOGUE_KEY = ['catalogue'] as const

export default function CataloguePage({ role }: { role: OperatorRole }) {
  const queryClient = useQueryClient()
  const catalogue = useQuery({ queryKey: CATALOGUE_KEY, queryFn: adminApi.catalogue })
  const editable = mayDo(role, 'editCatalogue')
  const { message } = App.useApp()
  const [tab, setTab] = useState('catalogue')
  const reread = () => queryClient.invalidateQueries({ queryKey: CATALOGUE_KEY })
  // a refusal's message is shown by the console's handler; a changed row is read again at once
  const mutationOptions = {
    onSuccess: () => {
      void message.success('已保存，用户端在商品目录刷新后（最长30秒）显示')
      void reread()
    },
    onError: (error: unknown) => {
      if (error instanceof ApiError && error.code === OperatorCode.CATALOGUE_CHANGED) void reread()
    },
  }
  const onSale = useMutation({
    mutationFn: (row: AdminGoodsRow) =>
      adminApi.setOnSale(row.id, { version: row.version, onSale: !row.onSale }),
    ...mutationOptions,
    // ACEP runs and the goods has no configuration code (4059): its message shows; go where it is set
    onError: (error: unknown) => {
      mutationOptions.onError(error)
      if (error instanceof ApiError && error.code === OperatorCode.MAPPING_MISSING)
        setTab('mapping')
    },
  })

  const data = catalogue.data
  const columns = goodsColumns(data?.levels, editable, (row) => onSale.mutateAsync(row))

  const catalogueTab = (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <ZonesTable
        zones={data?.zones}
        loading={catalogue.isFetching}
        editable={editable}
        mutationOptions={mutationOptions}
      />
      <ProTable<AdminGoodsRow>
        rowKey="id"
        headerTitle="商品与价格"
        tooltip="金额以元显示；修改保存后，用户端在商品目录刷新后（最长30秒）显示"
        columns={columns}
        dataSource={data?.goods}
        loading={catalogue.isFetching}
        search={false}
        pagination={false}
        options={{ reload: () => void catalogue.refetch(), density: false, setting: false }}
        expandable={{
          defaultExpandedRowKeys: expandedFromUrl(),
          expandedRowRender: (row) =>
            data && (
              <GoodsDetail
                goods={row}
                catalogue={data}
                editable={editable}
                mutationOptions={mutationOptions}
              />
            ),
        }}
      />
    </Space>
  )

  return (
    <Tabs
      activeKey={tab}
      onChange={setTab}
      items={[
        { key: 'catalogue', label: '商品与价格', children: catalogueTab },
        {
          key: 'mapping',
          label: '供应商映射',
          children: <SupplierMappingPanel editable={editable} />,
        },
      ]}
    />
  )
}
