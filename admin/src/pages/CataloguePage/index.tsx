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
import {
  ModalForm,
  ProFormDateTimePicker,
  ProFormDigit,
  ProTable,
  type ProColumns,
} from '@ant-design/pro-components'
import { App, Badge, Button, Popconfirm, Space, Table, Tabs, Typography } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import dayjs, { type Dayjs } from 'dayjs'
import { androidVersionLabel, durationLabel, type AndroidVersion } from '#domain/catalogue'
import {
  MAX_FREE_STOCK,
  MAX_PRICE_FEN,
  validateFreeStock,
  validatePriceEdit,
  yuanToFen,
  type PriceEdit,
} from '#domain/console/catalogue-edits'
import { fenToYuan, formatYuan } from '#domain/formatters'
import { mayDo, type OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode } from '#domain/result-codes'
import type {
  AdminCatalogue,
  AdminGoodsRow,
  AdminPriceRow,
  AdminStockRow,
  AdminZoneRow,
} from '#console-contract/catalogue'
import { adminApi, ApiError } from '../../api'
import { expandedFromUrl } from '../../paths'
import SupplierMappingPanel from './components/SupplierMappingPanel'
import {
  beijingMinute,
  beijingWallClock,
  fromBeijingWallClock,
} from '../../components/beijing-time'

const CATALOGUE_KEY = ['catalogue'] as const

/** A goods as the dialogs name it: its name and system tell the seeded goods apart. */
const goodsName = (row: AdminGoodsRow) =>
  `${row.name}（${androidVersionLabel(row.androidVersion as AndroidVersion)}）`

/** 元 inputs: two decimals, within the rules' range. */
const yuanProps = {
  precision: 2,
  min: 0.01,
  max: MAX_PRICE_FEN / 100,
  addonAfter: '元',
  style: { width: '100%' },
}

/** A form's 元 field to fen: empty is null; the InputNumber already holds at most two decimals. */
const fenOf = (value: number | null | undefined): number | null =>
  value === null || value === undefined ? null : yuanToFen(value.toFixed(2))

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

  const zoneOnSale = useMutation({
    mutationFn: (row: AdminZoneRow) =>
      adminApi.setZoneOnSale(row.id, { version: row.version, onSale: !row.onSale }),
    ...mutationOptions,
  })

  const data = catalogue.data
  const levelName = new Map(data?.levels.map((level) => [level.level, level.name]))
  const columns: ProColumns<AdminGoodsRow>[] = [
    {
      title: '等级',
      dataIndex: 'level',
      width: 90,
      render: (_, row) => levelName.get(row.level) ?? row.level,
      filters: data?.levels.map((level) => ({ text: level.name, value: level.level })),
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
            onConfirm={() => onSale.mutateAsync(row).catch(() => undefined)}
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
            onConfirm={() => onSale.mutateAsync(row).catch(() => undefined)}
          >
            <Button type="link" style={{ padding: 0 }}>
              上架
            </Button>
          </Popconfirm>
        ),
    },
  ]

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

  const catalogueTab = (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Table<AdminZoneRow>
        rowKey="id"
        size="small"
        title={() => <Typography.Text strong>地区</Typography.Text>}
        columns={zoneColumns}
        dataSource={data?.zones}
        loading={catalogue.isFetching}
        pagination={false}
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

interface DetailProps {
  goods: AdminGoodsRow
  catalogue: AdminCatalogue
  editable: boolean
  mutationOptions: { onSuccess: () => void; onError: (error: unknown) => void }
}

/** One goods' price rows and its stock per zone, each row with its edit dialog. */
function GoodsDetail({ goods, catalogue, editable, mutationOptions }: DetailProps) {
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

interface PriceForm {
  goodPrice: number
  oldGoodPrice?: number | null
  firstPurchasePrice?: number | null
  firstCount: number
  activityPrice?: number | null
  activityEndsAt?: Dayjs | null
}

function PriceEditor({
  goods,
  row,
  mutationOptions,
}: {
  goods: AdminGoodsRow
  row: AdminPriceRow
  mutationOptions: DetailProps['mutationOptions']
}) {
  const save = useMutation({
    mutationFn: (edit: PriceEdit) => adminApi.editPrice(row.id, { version: row.version, ...edit }),
    ...mutationOptions,
  })
  const [why, setWhy] = useState<string | null>(null)
  const label = `${goodsName(goods)} ${durationLabel(row.goodTime)}`
  const yuan = (value: number | null) => (value === null ? null : Number(fenToYuan(value)))
  return (
    <ModalForm<PriceForm>
      title={`修改价格：${label}`}
      width={520}
      trigger={
        <Button type="link" style={{ padding: 0 }} aria-label={`修改价格 ${label}`}>
          修改价格
        </Button>
      }
      modalProps={{ destroyOnClose: true, okText: '保存', onCancel: () => setWhy(null) }}
      initialValues={{
        goodPrice: yuan(row.goodPrice),
        oldGoodPrice: yuan(row.oldGoodPrice),
        firstPurchasePrice: yuan(row.firstPurchasePrice),
        firstCount: row.firstCount,
        activityPrice: yuan(row.activityPrice),
        activityEndsAt:
          row.activityEndsAt === null ? null : dayjs(beijingWallClock(row.activityEndsAt)),
      }}
      onValuesChange={() => setWhy(null)}
      onFinish={async (values) => {
        const edit: PriceEdit = {
          goodPrice: fenOf(values.goodPrice) ?? 0,
          oldGoodPrice: fenOf(values.oldGoodPrice),
          firstPurchasePrice: fenOf(values.firstPurchasePrice),
          firstCount: values.firstCount ?? 0,
          activityPrice: row.activityId === null ? null : fenOf(values.activityPrice),
          activityEndsAt:
            row.activityId === null
              ? null
              : values.activityEndsAt
                ? fromBeijingWallClock(values.activityEndsAt.toDate())
                : null,
        }
        const broken = validatePriceEdit(edit, {
          activityId: row.activityId,
          maxPerOrder: goods.maxPerOrder,
        })
        if (broken) {
          setWhy(broken)
          return false
        }
        try {
          await save.mutateAsync(edit)
          return true
        } catch {
          return false // the refusal's message is shown; the dialog stays for a correction
        }
      }}
    >
      <ProFormDigit
        name="goodPrice"
        label="售价"
        fieldProps={yuanProps}
        rules={[{ required: true, message: '请输入售价' }]}
      />
      <ProFormDigit
        name="oldGoodPrice"
        label="划线价"
        extra="留空则不显示划线价"
        fieldProps={yuanProps}
      />
      <ProFormDigit
        name="firstPurchasePrice"
        label="首购价"
        extra="新用户首单的优惠价，留空则没有首购优惠"
        fieldProps={yuanProps}
      />
      <ProFormDigit
        name="firstCount"
        label="首购数量"
        extra={`首单中按首购价计的台数（0–${goods.maxPerOrder}）`}
        fieldProps={{ precision: 0, min: 0, max: goods.maxPerOrder, addonAfter: '台' }}
        rules={[{ required: true, message: '请输入首购数量' }]}
      />
      {row.activityId !== null && (
        <>
          <ProFormDigit
            name="activityPrice"
            label="活动价"
            extra="留空则结束活动价"
            fieldProps={yuanProps}
          />
          <ProFormDateTimePicker
            name="activityEndsAt"
            label="活动结束时间（北京时间）"
            extra="留空则活动一直进行"
          />
        </>
      )}
      {why && (
        <Typography.Text type="danger" role="alert">
          {why}
        </Typography.Text>
      )}
    </ModalForm>
  )
}

function StockEditor({
  goods,
  row,
  zoneName,
  mutationOptions,
}: {
  goods: AdminGoodsRow
  row: AdminStockRow
  zoneName: string
  mutationOptions: DetailProps['mutationOptions']
}) {
  const save = useMutation({
    mutationFn: (free: number) =>
      adminApi.setStock(goods.id, row.zoneId, { version: row.version, free }),
    ...mutationOptions,
  })
  const label = `${goodsName(goods)} ${zoneName}`
  return (
    <ModalForm<{ free: number }>
      title={`修改库存：${label}`}
      width={440}
      trigger={
        <Button type="link" style={{ padding: 0 }} aria-label={`修改库存 ${label}`}>
          修改库存
        </Button>
      }
      modalProps={{ destroyOnClose: true, okText: '保存' }}
      initialValues={{ free: row.free }}
      onFinish={async ({ free }) => {
        try {
          await save.mutateAsync(free)
          return true
        } catch {
          return false
        }
      }}
    >
      <ProFormDigit
        name="free"
        label="可售库存"
        extra={`待支付订单占用的 ${row.held} 台不在其中：它们仍归各自的订单，订单取消或超时后加回可售库存。`}
        fieldProps={{ precision: 0, min: 0, max: MAX_FREE_STOCK, addonAfter: '台' }}
        rules={[
          { required: true, message: '请输入可售库存' },
          {
            validator: async (_rule: unknown, value: number) => {
              const broken = validateFreeStock(value)
              if (broken) throw new Error(broken)
            },
          },
        ]}
      />
    </ModalForm>
  )
}
