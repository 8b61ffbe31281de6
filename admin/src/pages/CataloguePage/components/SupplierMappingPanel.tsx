/**
 * 商品与价格 → 供应商映射: each goods (→ ACEP configuration code) and zone (→ ACEP data-centre
 * id) with its id in supplier_catalogue, which the server checks at start-up when it runs on ACEP
 * (火山引擎). Every role reads; admin and operations set or clear an id in a dialog checked by the rule
 * the server applies (#domain/console/catalogue-edits checkRemoteId). A warning names what is on sale but
 * unmapped. With ACEP running, what the start-up check needs cannot be cleared (4058); a goods without
 * its id cannot go on sale (4059, refused on the goods table).
 */
import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ModalForm, ProFormText } from '@ant-design/pro-components'
import { Alert, App, Badge, Button, Popconfirm, Space, Table, Tooltip, Typography } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import { androidVersionLabel, type AndroidVersion } from '#domain/catalogue'
import { checkRemoteId, MAX_REMOTE_ID_LENGTH } from '#domain/console/catalogue-edits'
import { OperatorCode } from '#domain/result-codes'
import type { SupplierMapping, SupplierMappingRow } from '#console-contract/catalogue'
import { adminApi, ApiError } from '../../../api'

/** Under the catalogue's key: a catalogue edit (a goods on or off sale) reads the mapping again too. */
export const SUPPLIER_MAPPING_KEY = ['catalogue', 'supplier-mapping'] as const

const SUPPLIER_NAMES: Record<string, string> = { acep: '火山引擎（ACEP）', sandbox: '沙箱（模拟）' }
const supplierName = (name: string) => SUPPLIER_NAMES[name] ?? name

/** Not the bare id: the goods table of the other tab keys its rows by goods id. */
const mappingKey = (row: SupplierMappingRow) => `${row.kind}-${row.id}`

const rowName = (row: SupplierMappingRow) =>
  row.kind === 'goods'
    ? `${row.name}（${androidVersionLabel(row.androidVersion as AndroidVersion)}）`
    : row.name

/**
 * A refusal of a mapping edit as the dialog shows it: the server's Chinese message (a broken id rule
 * names the rule), or for the codes this panel expects, what to do.
 */
function refusalText(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error)
  switch (error.code) {
    case OperatorCode.MAPPING_IN_USE:
      return '当前运行的是火山引擎：在售商品和地区必须保留映射，不能清除（可改为新的ID；商品可先下架再清除）'
    case OperatorCode.CATALOGUE_NOT_FOUND:
      return '该商品或地区已不存在，列表已刷新'
    case OperatorCode.CATALOGUE_INVALID:
      return `供应商ID不符合规则：${error.message}`
    case OperatorCode.FORBIDDEN:
      return '当前角色无权修改供应商映射'
    default:
      return error.message
  }
}

export default function SupplierMappingPanel({ editable }: { editable: boolean }) {
  const mapping = useQuery({ queryKey: SUPPLIER_MAPPING_KEY, queryFn: adminApi.supplierMapping })
  const data = mapping.data
  const unmapped = data
    ? [...data.goods, ...data.zones].filter((row) => row.required && row.remoteId === null)
    : []

  const columns = (kind: 'goods' | 'zone'): ColumnsType<SupplierMappingRow> => {
    const out: ColumnsType<SupplierMappingRow> = [
      { title: 'ID', dataIndex: 'id', width: 80 },
      { title: kind === 'goods' ? '商品' : '地区', dataIndex: 'name' },
    ]
    if (kind === 'goods') {
      out.push({
        title: '系统',
        dataIndex: 'androidVersion',
        render: (value: string) => androidVersionLabel(value as AndroidVersion),
      })
    }
    out.push(
      {
        title: '状态',
        dataIndex: 'onSale',
        render: (on: boolean) =>
          kind === 'goods' ? (
            on ? (
              <Badge status="success" text="在售" />
            ) : (
              <Badge status="default" text="已下架" />
            )
          ) : on ? (
            <Badge status="success" text="开放" />
          ) : (
            <Badge status="default" text="已关闭" />
          ),
      },
      {
        title: kind === 'goods' ? '火山引擎配置编码' : '火山引擎机房（Dc）',
        dataIndex: 'remoteId',
        render: (remoteId: string | null, row) =>
          remoteId !== null ? (
            <Typography.Text code>{remoteId}</Typography.Text>
          ) : row.required ? (
            <Typography.Text type="danger">未映射（必填）</Typography.Text>
          ) : (
            <Typography.Text type="secondary">未映射</Typography.Text>
          ),
      },
    )
    if (editable && data) {
      out.push({
        title: '操作',
        key: 'edit',
        render: (_, row) => <MappingEditor row={row} mapping={data} />,
      })
    }
    return out
  }

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      {data && (
        <Typography.Paragraph style={{ marginBottom: 0 }}>
          当前运行的供应商：{supplierName(data.runningSupplier)}。此处维护火山引擎的映射：
          每个在售商品需要火山引擎的配置编码，每个地区需要机房ID；使用火山引擎启动服务时会检查，缺少则拒绝启动。
          {editable ? '' : '（当前角色只能查看）'}
        </Typography.Paragraph>
      )}
      {unmapped.length > 0 && (
        <Alert
          type={data?.enforced ? 'error' : 'warning'}
          showIcon
          message={
            data?.enforced
              ? `${unmapped.length} 项在售但未映射：当前运行的是火山引擎，下次启动将被拒绝，请立即补全`
              : `${unmapped.length} 项在售但未映射，切换到火山引擎前需要补全`
          }
          description={unmapped.map(rowName).join('、')}
        />
      )}
      <Table<SupplierMappingRow>
        rowKey={mappingKey}
        size="small"
        title={() => <Typography.Text strong>地区 → 火山引擎机房</Typography.Text>}
        columns={columns('zone')}
        dataSource={data?.zones}
        loading={mapping.isFetching}
        pagination={false}
      />
      <Table<SupplierMappingRow>
        rowKey={mappingKey}
        size="small"
        title={() => <Typography.Text strong>商品 → 火山引擎配置</Typography.Text>}
        columns={columns('goods')}
        dataSource={data?.goods}
        loading={mapping.isFetching}
        pagination={false}
      />
    </Space>
  )
}

/** One row's dialog: set the id (checked as the server checks it), or clear it. */
function MappingEditor({ row, mapping }: { row: SupplierMappingRow; mapping: SupplierMapping }) {
  const queryClient = useQueryClient()
  const { message } = App.useApp()
  const [open, setOpen] = useState(false)
  const [refusal, setRefusal] = useState<string | null>(null)
  const reread = () => queryClient.invalidateQueries({ queryKey: SUPPLIER_MAPPING_KEY })
  const save = useMutation({
    mutationFn: (remoteId: string | null) =>
      adminApi.setSupplierMapping(row.kind, row.id, remoteId),
    meta: { inlineError: true }, // the dialog shows the refusal where the id is typed
    onSuccess: (saved) => {
      setRefusal(null)
      setOpen(false)
      void message.success(saved.remoteId === null ? '已清除映射' : '已保存映射')
      void reread()
    },
    onError: (error: unknown) => {
      setRefusal(refusalText(error))
      if (
        error instanceof ApiError &&
        (error.code === OperatorCode.CATALOGUE_NOT_FOUND ||
          error.code === OperatorCode.MAPPING_IN_USE)
      ) {
        void reread()
      }
    },
  })
  const label = rowName(row)
  const locked = mapping.enforced && row.required
  const action = row.remoteId === null ? '填写映射' : '修改映射'
  return (
    <ModalForm<{ remoteId: string }>
      title={`供应商映射：${label}`}
      width={480}
      open={open}
      onOpenChange={(next) => {
        setOpen(next)
        if (!next) setRefusal(null)
      }}
      trigger={
        <Button type="link" style={{ padding: 0 }} aria-label={`${action} ${label}`}>
          {action}
        </Button>
      }
      modalProps={{ destroyOnClose: true, okText: '保存' }}
      initialValues={{ remoteId: row.remoteId ?? '' }}
      onValuesChange={() => setRefusal(null)}
      submitter={{
        render: (_, buttons) => [
          row.remoteId !== null && (
            <Tooltip
              key="clear"
              title={locked ? '当前运行的是火山引擎，在售商品和地区的映射不能清除' : undefined}
            >
              <span>
                <Popconfirm
                  title={`清除 ${label} 的映射？`}
                  description={
                    row.required
                      ? '清除后，切换到火山引擎前需要重新填写。'
                      : '该商品未在售，清除后上架前需要重新填写。'
                  }
                  okText="清除"
                  okButtonProps={{ danger: true }}
                  cancelText="取消"
                  disabled={locked}
                  onConfirm={() => save.mutateAsync(null).catch(() => undefined)}
                >
                  <Button danger disabled={locked} loading={save.isPending}>
                    清除映射
                  </Button>
                </Popconfirm>
              </span>
            </Tooltip>
          ),
          ...buttons,
        ],
      }}
      onFinish={async ({ remoteId }) => {
        const checked = checkRemoteId(remoteId)
        if ('why' in checked) {
          setRefusal(checked.why)
          return false
        }
        try {
          await save.mutateAsync(checked.remoteId)
          return true
        } catch {
          return false // the refusal shows in the dialog, which stays for a correction
        }
      }}
    >
      <ProFormText
        name="remoteId"
        label={
          row.kind === 'goods' ? '火山引擎配置编码（ConfigurationCode）' : '火山引擎机房ID（Dc）'
        }
        extra={`1–${MAX_REMOTE_ID_LENGTH} 个字符：英文字母、数字和 . _ : -，首尾空格会去掉`}
        fieldProps={{ maxLength: 256, autoComplete: 'off' }}
        rules={[
          {
            validator: async (_rule: unknown, value: string | undefined) => {
              const checked = checkRemoteId(value ?? '')
              if ('why' in checked) throw new Error(checked.why)
            },
          },
        ]}
      />
      {refusal && (
        <Typography.Text type="danger" role="alert">
          {refusal}
        </Typography.Text>
      )}
    </ModalForm>
  )
}
