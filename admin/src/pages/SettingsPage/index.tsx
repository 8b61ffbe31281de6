/**
 * 设置 (every role reads, admin and operations edit): the common config the user site shows (到期续费提醒,
 * 客服电话, 客服时间; the app version is the server's), the online customer-service address (an
 * environment variable, read-only here), the activities with their time window and on/off, and each
 * flash-sale item's price (typed in 元, sent in fen), stock and order. Edits are checked by the rules
 * the server applies (#domain/console/settings-edits) before sending; an edit of something another operator
 * changed since it was read is refused (4096): its message shows and the page is read again. The user
 * agreement and privacy policy are compiled into the client: the page says so and where they live.
 */
import { useState } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import {
  ModalForm,
  ProForm,
  ProFormDateTimePicker,
  ProFormDigit,
  ProFormSwitch,
  ProFormText,
  ProFormTextArea,
  ProTable,
  type ProColumns,
} from '@ant-design/pro-components'
import { Alert, App, Badge, Button, Card, Space, Table, Typography } from 'antd'
import type { ColumnsType } from 'antd/es/table'
import dayjs, { type Dayjs } from 'dayjs'
import { durationLabel } from '#domain/catalogue'
import { MAX_PRICE_FEN, yuanToFen } from '#domain/console/catalogue-edits'
import { fenToYuan, formatYuan } from '#domain/formatters'
import { mayDo, type OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode } from '#domain/result-codes'
import {
  ACTIVITY_SUMMARY_MAX,
  ACTIVITY_TITLE_MAX,
  COMMON_CONFIG_FIELDS,
  MAX_SECKILL_SORT,
  MAX_SECKILL_STOCK,
  validateActivityEdit,
  validateCommonConfig,
  validateHttpsUrl,
  validateSeckillItemEdit,
  validateText,
  type ActivityEdit,
  type CommonConfigEdit,
  type CommonConfigField,
  type SeckillItemEdit,
} from '#domain/console/settings-edits'
import type { AdminActivity, AdminCommonConfig, AdminSeckillItem } from '#console-contract/settings'
import { adminApi, ApiError } from '../../api'
import {
  beijingMinute,
  beijingWallClock,
  fromBeijingWallClock,
  inBeijing,
} from '../../components/beijing-time'

const SETTINGS_KEY = ['settings'] as const

/**
 * What each refusal of the settings routes means to the operator (the server's message is shown as it
 * is for 4095, which names the rule broken). 4001 returns to sign-in (App); 4003 cannot happen for a
 * role the page lets edit, but is named in case the role changed meanwhile.
 */
export function settingsRefusal(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error)
  switch (error.code) {
    case OperatorCode.SETTINGS_INVALID:
      return error.message || '设置不符合规则'
    case OperatorCode.SETTINGS_CHANGED:
      return '该设置已被其他操作员修改或已不存在，已重新读取，请核对后再改'
    case OperatorCode.FORBIDDEN:
      return '你的角色没有修改设置的权限'
    case OperatorCode.CSRF_REFUSED:
      return '页面已过期，请刷新后重试'
    default:
      return error.message
  }
}

interface MutationOptions {
  meta: { inlineError: true }
  onSuccess: () => void
  onError: (error: unknown) => void
}

const ACTIVITY_KIND_LABELS: Record<AdminActivity['kind'], string> = {
  seckill: '限时秒杀',
  info: '图文活动',
}

function activityState(row: AdminActivity, now: number) {
  if (!row.enabled) return <Badge status="default" text="已下线" />
  if (now < row.startsAt) return <Badge status="warning" text="未开始" />
  if (now >= row.endsAt) return <Badge status="default" text="已结束" />
  return <Badge status="success" text="进行中" />
}

export default function SettingsPage({ role }: { role: OperatorRole }) {
  const queryClient = useQueryClient()
  const settings = useQuery({ queryKey: SETTINGS_KEY, queryFn: adminApi.settings })
  const editable = mayDo(role, 'editSettings')
  const { message } = App.useApp()
  const reread = () => queryClient.invalidateQueries({ queryKey: SETTINGS_KEY })
  const mutationOptions: MutationOptions = {
    meta: { inlineError: true },
    onSuccess: () => {
      void message.success('已保存，用户端下次读取时显示')
      void reread()
    },
    onError: (error: unknown) => {
      void message.error(settingsRefusal(error))
      if (error instanceof ApiError && error.code === OperatorCode.SETTINGS_CHANGED) void reread()
    },
  }
  const data = settings.data

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Typography.Title level={3} style={{ margin: 0 }}>
        设置
      </Typography.Title>
      {!editable && (
        <Alert type="info" showIcon message="你的角色只能查看设置；修改需要管理员或运营角色。" />
      )}
      {settings.isError && (
        <Alert
          type="error"
          showIcon
          message="设置读取失败"
          action={
            <Button size="small" onClick={() => void reread()}>
              重试
            </Button>
          }
        />
      )}
      <Card title="通用配置" loading={settings.isLoading}>
        {data && (
          <CommonConfigForm
            key={data.common.version}
            row={data.common}
            editable={editable}
            mutationOptions={mutationOptions}
          />
        )}
      </Card>
      <Card title="在线客服地址" loading={settings.isLoading}>
        {data && <CustomerServiceUrl url={data.customerServiceUrl} />}
      </Card>
      <Card title="活动与秒杀" styles={{ body: { padding: 0 } }}>
        <ProTable<AdminActivity>
          rowKey="id"
          search={false}
          options={false}
          pagination={false}
          loading={settings.isLoading}
          dataSource={data?.activities ?? []}
          columns={activityColumns(editable, mutationOptions)}
          expandable={{
            rowExpandable: (row) => row.items.length > 0,
            expandedRowRender: (row) => (
              <SeckillItems activity={row} editable={editable} mutationOptions={mutationOptions} />
            ),
          }}
        />
      </Card>
      <Card title="用户协议与隐私政策">
        <Alert
          type="info"
          showIcon
          message="协议正文随用户端发布，不能在此修改"
          description={
            <>
              《云手机用户服务协议》与《隐私政策》的正文编译在用户端（小程序与 H5）中，位于源代码
              <Typography.Text code>src/pages/webView/parts/protocol-content.ts</Typography.Text>
              ，登录页与「我的」中的协议链接打开的都是这份正文。修改协议需要改动该文件（连同其中的更新日期）并发布新版本的用户端；已安装的小程序在用户更新到新版本后才显示新正文。
            </>
          }
        />
      </Card>
    </Space>
  )
}

function CommonConfigForm({
  row,
  editable,
  mutationOptions,
}: {
  row: AdminCommonConfig
  editable: boolean
  mutationOptions: MutationOptions
}) {
  const save = useMutation({
    mutationFn: (edit: CommonConfigEdit) =>
      adminApi.editCommonConfig({ version: row.version, ...edit }),
    ...mutationOptions,
  })
  const [why, setWhy] = useState<string | null>(null)
  const rule = (key: CommonConfigField) => ({
    validator: async (_rule: unknown, value: unknown) => {
      const { label, max } = COMMON_CONFIG_FIELDS[key]
      const broken = validateText(label, value ?? '', max)
      if (broken) throw new Error(broken)
    },
  })
  return (
    <ProForm<CommonConfigEdit>
      disabled={!editable}
      initialValues={{
        renewalReminderMsg: row.renewalReminderMsg,
        customerServicePhone: row.customerServicePhone,
        customerServiceHours: row.customerServiceHours,
      }}
      submitter={
        editable
          ? { searchConfig: { submitText: '保存通用配置' }, resetButtonProps: { children: '还原' } }
          : false
      }
      onValuesChange={() => setWhy(null)}
      onFinish={async (values) => {
        const edit: CommonConfigEdit = {
          renewalReminderMsg: values.renewalReminderMsg,
          customerServicePhone: values.customerServicePhone,
          customerServiceHours: values.customerServiceHours,
        }
        const broken = validateCommonConfig(edit)
        if (broken) {
          setWhy(broken)
          return false
        }
        try {
          await save.mutateAsync(edit)
          return true
        } catch (error) {
          setWhy(settingsRefusal(error))
          return false
        }
      }}
    >
      <ProFormTextArea
        name="renewalReminderMsg"
        label={COMMON_CONFIG_FIELDS.renewalReminderMsg.label}
        extra="云手机到期后用户端提示续费的文字（单行）"
        fieldProps={{
          maxLength: COMMON_CONFIG_FIELDS.renewalReminderMsg.max,
          showCount: true,
          rows: 2,
        }}
        rules={[rule('renewalReminderMsg')]}
      />
      <ProFormText
        name="customerServicePhone"
        label={COMMON_CONFIG_FIELDS.customerServicePhone.label}
        extra="「联系客服」页显示的客服热线"
        fieldProps={{ maxLength: COMMON_CONFIG_FIELDS.customerServicePhone.max }}
        rules={[rule('customerServicePhone')]}
      />
      <ProFormText
        name="customerServiceHours"
        label={COMMON_CONFIG_FIELDS.customerServiceHours.label}
        extra="「联系客服」页显示的服务时间"
        fieldProps={{ maxLength: COMMON_CONFIG_FIELDS.customerServiceHours.max }}
        rules={[rule('customerServiceHours')]}
      />
      <ProForm.Item label="客户端版本">
        <Typography.Text>{row.appVersion}</Typography.Text>
        <Typography.Text type="secondary">（由服务器版本决定，不能修改）</Typography.Text>
      </ProForm.Item>
      {why && (
        <Typography.Paragraph type="danger" role="alert">
          {why}
        </Typography.Paragraph>
      )}
    </ProForm>
  )
}

function CustomerServiceUrl({ url }: { url: string | null }) {
  const problem = url === null ? null : validateHttpsUrl('在线客服地址', url)
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text>
        当前地址：
        {url === null ? (
          <Typography.Text type="secondary">未设置（「联系客服」页不显示在线客服）</Typography.Text>
        ) : (
          <Typography.Text copyable>{url}</Typography.Text>
        )}
      </Typography.Text>
      <Typography.Text type="secondary">
        此地址由服务器的环境变量
        <Typography.Text code>CUSTOMER_SERVICE_URL</Typography.Text>
        设置（见部署文档 docs/deploy.md），不能在此修改：修改环境变量并重启服务后生效。
      </Typography.Text>
      {problem && (
        <Alert type="warning" showIcon message={`${problem}，用户可能无法打开在线客服`} />
      )}
    </Space>
  )
}

function activityColumns(
  editable: boolean,
  mutationOptions: MutationOptions,
): ProColumns<AdminActivity>[] {
  const now = Date.now()
  return [
    { title: 'ID', dataIndex: 'id', width: 60 },
    { title: '标题', dataIndex: 'title' },
    {
      title: '类型',
      dataIndex: 'kind',
      width: 100,
      render: (_, row) => ACTIVITY_KIND_LABELS[row.kind],
    },
    {
      title: inBeijing('开始时间'),
      key: 'startsAt',
      render: (_, row) => beijingMinute(row.startsAt),
    },
    {
      title: inBeijing('结束时间'),
      key: 'endsAt',
      render: (_, row) => beijingMinute(row.endsAt),
    },
    { title: '状态', key: 'state', render: (_, row) => activityState(row, now) },
    {
      title: '操作',
      valueType: 'option',
      hideInTable: !editable,
      render: (_, row) => [
        <ActivityEditor key="edit" row={row} mutationOptions={mutationOptions} />,
      ],
    },
  ]
}

interface ActivityForm {
  title: string
  summary: string
  startsAt: Dayjs | null
  endsAt: Dayjs | null
  enabled: boolean
}

function ActivityEditor({
  row,
  mutationOptions,
}: {
  row: AdminActivity
  mutationOptions: MutationOptions
}) {
  const save = useMutation({
    mutationFn: (edit: ActivityEdit) =>
      adminApi.editActivity(row.id, { version: row.version, ...edit }),
    ...mutationOptions,
  })
  const [why, setWhy] = useState<string | null>(null)
  return (
    <ModalForm<ActivityForm>
      title={`编辑活动：${row.title}`}
      width={520}
      trigger={
        <Button type="link" style={{ padding: 0 }} aria-label={`编辑活动 ${row.title}`}>
          编辑
        </Button>
      }
      modalProps={{ destroyOnClose: true, okText: '保存', onCancel: () => setWhy(null) }}
      // the pickers' values as they are (ProForm's default turns them into 'YYYY-MM-DD HH:mm:ss' text)
      dateFormatter={false}
      initialValues={{
        title: row.title,
        summary: row.summary,
        startsAt: dayjs(beijingWallClock(row.startsAt)),
        endsAt: dayjs(beijingWallClock(row.endsAt)),
        enabled: row.enabled,
      }}
      onValuesChange={() => setWhy(null)}
      onFinish={async (values) => {
        const edit: ActivityEdit = {
          title: values.title ?? '',
          summary: values.summary ?? '',
          startsAt: values.startsAt ? fromBeijingWallClock(values.startsAt.toDate()) : 0,
          endsAt: values.endsAt ? fromBeijingWallClock(values.endsAt.toDate()) : 0,
          enabled: values.enabled,
        }
        const broken = validateActivityEdit(edit)
        if (broken) {
          setWhy(broken)
          return false
        }
        try {
          await save.mutateAsync(edit)
          return true
        } catch (error) {
          setWhy(settingsRefusal(error))
          return false
        }
      }}
    >
      <ProFormText
        name="title"
        label="活动标题"
        fieldProps={{ maxLength: ACTIVITY_TITLE_MAX, showCount: true }}
        rules={[{ required: true, message: '请输入活动标题' }]}
      />
      <ProFormText
        name="summary"
        label="活动简介"
        extra="活动列表和活动页标题下的一行字；改了秒杀价时记得一起改"
        fieldProps={{ maxLength: ACTIVITY_SUMMARY_MAX, showCount: true }}
        rules={[{ required: true, message: '请输入活动简介' }]}
      />
      <ProFormDateTimePicker
        name="startsAt"
        label="开始时间（北京时间）"
        rules={[{ required: true, message: '请选择开始时间' }]}
      />
      <ProFormDateTimePicker
        name="endsAt"
        label="结束时间（北京时间）"
        extra="结束后用户端不再列出该活动，秒杀停止下单"
        rules={[{ required: true, message: '请选择结束时间' }]}
      />
      <ProFormSwitch
        name="enabled"
        label="上线"
        extra="下线后用户端不再显示该活动，秒杀停止下单；已下的订单不受影响"
      />
      {why && (
        <Typography.Text type="danger" role="alert">
          {why}
        </Typography.Text>
      )}
    </ModalForm>
  )
}

function SeckillItems({
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

interface ItemForm {
  price: number | null
  stock: number | null
  sort: number | null
}

function SeckillItemEditor({
  activity,
  item,
  mutationOptions,
}: {
  activity: AdminActivity
  item: AdminSeckillItem
  mutationOptions: MutationOptions
}) {
  const save = useMutation({
    mutationFn: (edit: SeckillItemEdit) =>
      adminApi.editSeckillItem(item.id, { version: item.version, ...edit }),
    ...mutationOptions,
  })
  const [why, setWhy] = useState<string | null>(null)
  const label = `${item.goodsName} ${durationLabel(item.goodTime)}`
  return (
    <ModalForm<ItemForm>
      title={`修改秒杀商品：${label}`}
      width={480}
      trigger={
        <Button type="link" style={{ padding: 0 }} aria-label={`修改秒杀商品 ${label}`}>
          修改
        </Button>
      }
      modalProps={{ destroyOnClose: true, okText: '保存', onCancel: () => setWhy(null) }}
      initialValues={{ price: Number(fenToYuan(item.price)), stock: item.stock, sort: item.sort }}
      onValuesChange={() => setWhy(null)}
      onFinish={async (values) => {
        const edit: SeckillItemEdit = {
          price: values.price === null ? 0 : (yuanToFen(values.price.toFixed(2)) ?? 0),
          stock: values.stock ?? -1,
          sort: values.sort ?? 0,
        }
        const broken = validateSeckillItemEdit(edit, item.sold)
        if (broken) {
          setWhy(broken)
          return false
        }
        try {
          await save.mutateAsync(edit)
          return true
        } catch (error) {
          setWhy(settingsRefusal(error))
          return false
        }
      }}
    >
      <Typography.Paragraph type="secondary">
        {activity.title}：原价 {formatYuan(item.goodPrice)}
      </Typography.Paragraph>
      <ProFormDigit
        name="price"
        label="秒杀价"
        fieldProps={{
          precision: 2,
          min: 0.01,
          max: MAX_PRICE_FEN / 100,
          addonAfter: '元',
          style: { width: '100%' },
        }}
        rules={[{ required: true, message: '请输入秒杀价' }]}
      />
      <ProFormDigit
        name="stock"
        label="库存"
        extra={`全部可抢数量，含已售出和待支付占用的 ${item.sold} 件，不能少于它`}
        fieldProps={{ precision: 0, min: 0, max: MAX_SECKILL_STOCK, addonAfter: '件' }}
        rules={[{ required: true, message: '请输入库存' }]}
      />
      <ProFormDigit
        name="sort"
        label="排序"
        extra="数字小的排在前面"
        fieldProps={{ precision: 0, min: 0, max: MAX_SECKILL_SORT }}
        rules={[{ required: true, message: '请输入排序' }]}
      />
      {why && (
        <Typography.Text type="danger" role="alert">
          {why}
        </Typography.Text>
      )}
    </ModalForm>
  )
}
