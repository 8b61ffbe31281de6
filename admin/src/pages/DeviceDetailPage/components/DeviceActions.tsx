/**
 * What an operator may do to the phone, by the role's permissions: 重新创建 a phone in 创建失败, 重置 a
 * running one and 释放 one not yet released, each asked first; 重置 and 释放 show their refusal in the
 * dialog (and the phone is read again: it may have changed).
 */
import { useState, type ReactNode } from 'react'
import { useMutation } from '@tanstack/react-query'
import { Alert, Button, Popconfirm, Space, Typography, message } from 'antd'
import { DeviceStatus } from '#domain/device-lifecycle'
import { mayDo, type OperatorRole } from '#domain/console/operator-roles'
import type { AdminDeviceDetail } from '#console-contract/devices'
import { adminApi } from '../../../api'
import ReasonDialog from '../../../components/ReasonDialog'
import { DEVICE_BUSY_LABELS } from '../../../components/device-labels'
import {
  refusal,
  RELEASE_CONSEQUENCE,
  RESET_CONSEQUENCE,
  RESET_REFUSALS,
  RETRY_CONSEQUENCE,
} from './device-refusals'

export default function DeviceActions({
  id,
  device,
  role,
  back,
  refresh,
}: {
  id: number
  device: AdminDeviceDetail['device']
  role: OperatorRole
  back: ReactNode
  /** Reads the phone, the phone list and the job list again. */
  refresh: () => void
}) {
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

  const actions: ReactNode[] = [back]
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
      <ReasonDialog
        key="reset"
        title={`重置云手机「${device.name}」？`}
        trigger={<Button danger>重置</Button>}
        okText="重置"
        afterClose={() => setResetError(null)}
        submit={(reason) => {
          setResetError(null)
          return reset.mutateAsync(reason)
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
      </ReasonDialog>,
    )
  }
  if (device.status !== DeviceStatus.released && mayDo(role, 'releasePhones')) {
    actions.push(
      <ReasonDialog
        key="release"
        title={`释放云手机「${device.name}」？`}
        trigger={
          <Button danger type="primary">
            释放
          </Button>
        }
        okText="释放"
        afterClose={() => setReleaseError(null)}
        submit={(reason) => {
          setReleaseError(null)
          return release.mutateAsync(reason)
        }}
      >
        <Typography.Paragraph type="danger">{RELEASE_CONSEQUENCE}</Typography.Paragraph>
        {releaseError && (
          <Alert type="error" showIcon style={{ marginBottom: 16 }} message={releaseError} />
        )}
      </ReasonDialog>,
    )
  }
  return <Space wrap>{actions}</Space>
}
