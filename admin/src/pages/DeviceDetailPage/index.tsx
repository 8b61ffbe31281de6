/**
 * One phone (/admin/devices/<id>): the phone, its owner, goods, zone and expiry, then its history (the
 * queue's jobs for it, backups and restores, transfers between accounts, operators' actions). A phone in
 * 创建失败 can be created again (retryJobs); a running phone can be reset (重置: its apps and data erased)
 * and a phone not yet released can be released, each after a dialog that names the consequence and asks
 * why (resetPhones, releasePhones) and shows a refusal in the dialog (a phone with an open renewal names
 * the order). Buttons show by the role's permissions, the same table the server enforces.
 */
import { useState, type ReactNode } from 'react'
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query'
import { ModalForm, ProDescriptions, ProFormTextArea } from '@ant-design/pro-components'
import {
  Alert,
  Button,
  Popconfirm,
  Space,
  Tabs,
  Typography,
  message,
  type TableColumnsType,
} from 'antd'
import { DeviceStatus } from '#domain/device-lifecycle'
import { mayDo, type OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode } from '#domain/result-codes'
import type { AdminDeviceDetail } from '#console-contract/devices'
import { adminApi, ApiError } from '../../api'
import { navigate } from '../../router'
import { CONSOLE_PATHS } from '../../paths'
import {
  DEVICE_BUSY_LABELS,
  DeviceStatusBadge,
  JOB_STATUS_LABELS,
  jobKindLabel,
} from '../../components/device-labels'
import { beijingOrDash, inBeijing } from '../../components/beijing-time'
import { GoodsLink, OrderLink, UserLink, userColumn } from '../../components/record-links'
import { DetailUnavailable, HistoryTable } from '../../components/detail-parts'

type Detail = AdminDeviceDetail
type Row<K extends keyof Detail> = Detail[K] extends (infer R)[] ? R : never

/** The release dialog names what it does to the user. */
export const RELEASE_CONSEQUENCE = '云手机将被释放，数据无法恢复，用户不会自动获得退款。'
const RETRY_CONSEQUENCE = '将向供应商重新创建云手机，到期时间不变；创建完成后用户即可使用。'
/** The reset dialog names what it does to the user's phone. */
export const RESET_CONSEQUENCE =
  '所有应用和数据将被清除，无法恢复。云手机将重启，完成后恢复运行，到期时间不变；用户会收到消息通知。'

/** Each refusal of 重置, in the console's words (the server's own message for anything else). */
export const RESET_REFUSALS: Partial<Record<number, string>> = {
  [OperatorCode.FORBIDDEN]: '无权重置云手机',
  [OperatorCode.DEVICE_NOT_FOUND]: '云手机不存在',
  [OperatorCode.DEVICE_RELEASED]: '该云手机已释放，不能重置',
  [OperatorCode.DEVICE_NOT_RESETTABLE]:
    '云手机不在运行中，或正在重启、备份、恢复、更换地区、更换云机、系统更新，请待其完成后再重置',
  [OperatorCode.DEVICE_RESET_REFUSED]: '云手机服务商未接受重置，云手机未做任何改变，请稍后重试',
}

/** A refusal in the console's words where it has them, else the server's (which names an open order). */
const refusal = (error: unknown, words: Partial<Record<number, string>> = {}) =>
  error instanceof ApiError
    ? (words[error.code] ?? error.message)
    : error instanceof Error
      ? error.message
      : String(error)

const time = beijingOrDash

const ACTION_LABELS: Record<string, string> = {
  'device.retryProvision': '重新创建',
  'device.release': '释放',
  'device.reset': '重置',
}
const SPACE_KINDS: Record<string, string> = { backup: '备份', restore: '恢复' }
const SPACE_STATUSES: Record<string, string> = {
  running: '进行中',
  done: '已完成',
  failed: '失败',
  interrupted: '已中断',
}

const jobColumns: TableColumnsType<Row<'jobs'>> = [
  { title: '任务ID', dataIndex: 'id' },
  { title: '类型', dataIndex: 'kind', render: jobKindLabel },
  {
    title: '状态',
    dataIndex: 'status',
    render: (status: string) => JOB_STATUS_LABELS[status] ?? status,
  },
  { title: '尝试次数', dataIndex: 'attempts' },
  { title: '最近错误', dataIndex: 'lastError', render: (error: string | null) => error ?? '—' },
  { title: inBeijing('创建时间'), dataIndex: 'createdAt', render: time },
  { title: '计划执行', dataIndex: 'runAt', render: time },
]

function tabsOf(detail: Detail): { key: string; label: string; children: ReactNode }[] {
  return [
    {
      key: 'jobs',
      label: `任务（${detail.jobs.length}）`,
      children: <HistoryTable rows={detail.jobs} empty="没有任务" columns={jobColumns} />,
    },
    {
      key: 'space',
      label: `备份与恢复（${detail.spaceTasks.length}）`,
      children: (
        <HistoryTable
          rows={detail.spaceTasks}
          empty="没有备份或恢复"
          columns={[
            {
              title: '类型',
              dataIndex: 'kind',
              render: (kind: string) => SPACE_KINDS[kind] ?? kind,
            },
            {
              title: '状态',
              dataIndex: 'status',
              render: (status: string) => SPACE_STATUSES[status] ?? status,
            },
            {
              title: '失败原因',
              dataIndex: 'failReason',
              render: (reason: string | null) => reason ?? '—',
            },
            { title: inBeijing('开始时间'), dataIndex: 'createdAt', render: time },
            { title: inBeijing('结束时间'), dataIndex: 'finishedAt', render: time },
          ]}
        />
      ),
    },
    {
      key: 'transfers',
      label: `转移（${detail.transfers.length}）`,
      children: (
        <HistoryTable
          rows={detail.transfers}
          empty="没有转移记录"
          columns={[
            { title: inBeijing('时间'), dataIndex: 'createdAt', render: time },
            userColumn('转出用户', (row: Row<'transfers'>) => ({
              id: row.fromUserId,
              mobile: row.fromMobile,
              name: row.fromName,
            })),
            userColumn('转入用户', (row: Row<'transfers'>) => ({
              id: row.toUserId,
              mobile: row.toMobile,
              name: row.toName,
            })),
          ]}
        />
      ),
    },
    {
      key: 'actions',
      label: `操作记录（${detail.actions.length}）`,
      children: (
        <HistoryTable
          rows={detail.actions}
          empty="没有操作记录"
          columns={[
            { title: inBeijing('时间'), dataIndex: 'at', render: time },
            {
              title: '操作员',
              dataIndex: 'operatorName',
              render: (name: string | null) => name ?? '命令行',
            },
            {
              title: '操作',
              dataIndex: 'action',
              render: (action: string) => ACTION_LABELS[action] ?? action,
            },
            {
              title: '原因',
              dataIndex: 'after',
              render: (after: unknown) => {
                const reason = (after as { reason?: unknown } | null)?.reason
                return typeof reason === 'string' ? reason : '—'
              },
            },
          ]}
        />
      ),
    },
  ]
}

function BackButton() {
  return <Button onClick={() => navigate(CONSOLE_PATHS.devices)}>返回云手机列表</Button>
}

export default function DeviceDetailPage({ id, role }: { id: number; role: OperatorRole }) {
  const queryClient = useQueryClient()
  const key = ['device', id] as const
  const detail = useQuery({
    queryKey: key,
    queryFn: () => adminApi.device(id),
    meta: { inlineError: true },
    // while the phone is being created or reset (重启中), follow it until it runs or fails
    refetchInterval: (query) => {
      const status = query.state.data?.device.status
      return status === DeviceStatus.creating || status === DeviceStatus.rebooting ? 3000 : false
    },
  })
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: key })
    void queryClient.invalidateQueries({ queryKey: ['devices'] })
    void queryClient.invalidateQueries({ queryKey: ['jobs'] })
  }
  const retry = useMutation({ mutationFn: () => adminApi.retryProvision(id), onSuccess: refresh })
  // Each dialog shows its own refusal (and the phone is read again: it may have changed).
  const [releaseError, setReleaseError] = useState<string | null>(null)
  const release = useMutation({
    mutationFn: (reason: string) => adminApi.releaseDevice(id, reason),
    meta: { inlineError: true },
    onSuccess: () => {
      setReleaseError(null)
      refresh()
    },
    onError: (error) => {
      setReleaseError(refusal(error))
      refresh()
    },
  })
  const [resetError, setResetError] = useState<string | null>(null)
  const reset = useMutation({
    mutationFn: (reason: string) => adminApi.resetDevice(id, reason),
    meta: { inlineError: true },
    onSuccess: () => {
      setResetError(null)
      void message.success('已提交重置，云手机重启完成后恢复运行')
      refresh()
    },
    onError: (error) => {
      setResetError(refusal(error, RESET_REFUSALS))
      refresh()
    },
  })

  if (detail.isPending || detail.isError) {
    return (
      <DetailUnavailable
        query={detail}
        notFoundCode={OperatorCode.DEVICE_NOT_FOUND}
        notFound="云手机不存在"
        failed="无法读取该云手机"
        back={<BackButton />}
      />
    )
  }

  const { device, owner } = detail.data
  const actions: ReactNode[] = [<BackButton key="back" />]
  if (device.status === DeviceStatus.failed && mayDo(role, 'retryJobs')) {
    actions.push(
      <Popconfirm
        key="retry"
        title={`重新创建云手机「${device.name}」？`}
        description={RETRY_CONSEQUENCE}
        okText="重新创建"
        cancelText="取消"
        onConfirm={() => retry.mutateAsync().catch(() => undefined)}
      >
        <Button type="primary" loading={retry.isPending}>
          重新创建
        </Button>
      </Popconfirm>,
    )
  }
  if (device.status === DeviceStatus.running && mayDo(role, 'resetPhones')) {
    actions.push(
      <ModalForm<{ reason: string }>
        key="reset"
        title={`重置云手机「${device.name}」？`}
        width={480}
        trigger={<Button danger>重置</Button>}
        modalProps={{
          destroyOnClose: true,
          okText: '重置',
          okButtonProps: { danger: true },
          afterClose: () => setResetError(null),
        }}
        onFinish={async ({ reason }) => {
          setResetError(null)
          try {
            await reset.mutateAsync(reason)
            return true
          } catch {
            return false // the refusal shows in the dialog; it stays open
          }
        }}
      >
        <Typography.Paragraph type="danger">{RESET_CONSEQUENCE}</Typography.Paragraph>
        {device.busyOp && (
          <Alert
            type="warning"
            showIcon
            style={{ marginBottom: 16 }}
            message={`云手机正在${DEVICE_BUSY_LABELS[device.busyOp] ?? device.busyOp}，完成后才能重置`}
          />
        )}
        {resetError && (
          <Alert type="error" showIcon style={{ marginBottom: 16 }} message={resetError} />
        )}
        <ProFormTextArea
          name="reason"
          label="原因（记入操作日志）"
          fieldProps={{ maxLength: 200, showCount: true }}
          rules={[{ required: true, whitespace: true, message: '请填写原因' }]}
        />
      </ModalForm>,
    )
  }
  if (device.status !== DeviceStatus.released && mayDo(role, 'releasePhones')) {
    actions.push(
      <ModalForm<{ reason: string }>
        key="release"
        title={`释放云手机「${device.name}」？`}
        width={480}
        trigger={
          <Button danger type="primary">
            释放
          </Button>
        }
        modalProps={{
          destroyOnClose: true,
          okText: '释放',
          okButtonProps: { danger: true },
          afterClose: () => setReleaseError(null),
        }}
        onFinish={async ({ reason }) => {
          setReleaseError(null)
          try {
            await release.mutateAsync(reason)
            return true
          } catch {
            return false // the refusal shows in the dialog; it stays open
          }
        }}
      >
        <Typography.Paragraph type="danger">{RELEASE_CONSEQUENCE}</Typography.Paragraph>
        {releaseError && (
          <Alert type="error" showIcon style={{ marginBottom: 16 }} message={releaseError} />
        )}
        <ProFormTextArea
          name="reason"
          label="原因（记入操作日志）"
          fieldProps={{ maxLength: 200, showCount: true }}
          rules={[{ required: true, whitespace: true, message: '请填写原因' }]}
        />
      </ModalForm>,
    )
  }

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <Space wrap>{actions}</Space>
      <ProDescriptions
        title={`云手机「${device.name}」`}
        column={3}
        bordered
        size="small"
        dataSource={device}
        columns={[
          { title: '名称', dataIndex: 'name', render: () => device.name },
          {
            title: '状态',
            dataIndex: 'status',
            render: () => (
              <>
                <DeviceStatusBadge status={device.status} />
                {device.busyOp ? `（${DEVICE_BUSY_LABELS[device.busyOp] ?? device.busyOp}）` : ''}
              </>
            ),
          },
          {
            title: '用户',
            dataIndex: 'userId',
            render: () => (
              <>
                <UserLink id={owner.id} mobile={owner.mobile} name={owner.name} />
                {owner.frozen ? ' 已冻结' : ''}
              </>
            ),
          },
          {
            title: '商品',
            dataIndex: 'goodsName',
            render: () => <GoodsLink name={device.goodsName} />,
          },
          { title: '地区', dataIndex: 'zoneName', render: () => device.zoneName },
          {
            title: inBeijing('到期时间'),
            dataIndex: 'expireAt',
            render: () => time(device.expireAt),
          },
          {
            title: '实例',
            dataIndex: 'supplierInstanceId',
            render: () => device.supplierInstanceId ?? '—',
          },
          {
            title: '创建中的实例',
            dataIndex: 'pendingInstanceId',
            render: () => device.pendingInstanceId ?? '—',
          },
          { title: '失败原因', dataIndex: 'failReason', render: () => device.failReason ?? '—' },
          {
            title: '订单',
            dataIndex: 'orderId',
            render: () =>
              device.orderId ? <OrderLink id={device.orderId} orderNo={device.orderNo} /> : '—',
          },
          {
            title: '系统版本',
            dataIndex: 'imageVersion',
            render: () => device.imageVersion ?? '—',
          },
          {
            title: inBeijing('创建时间'),
            dataIndex: 'createdAt',
            render: () => time(device.createdAt),
          },
          ...(device.status === DeviceStatus.released
            ? [
                {
                  title: inBeijing('释放时间'),
                  dataIndex: 'releasedAt',
                  render: () => time(device.releasedAt),
                },
                {
                  title: '供应商实例',
                  dataIndex: 'supplierReleased',
                  render: () => (device.supplierReleased ? '已释放' : '等待释放'),
                },
              ]
            : []),
        ]}
      />
      <Tabs items={tabsOf(detail.data)} />
    </Space>
  )
}
