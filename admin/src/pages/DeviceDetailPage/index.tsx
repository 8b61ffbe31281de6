/**
 * One phone (/admin/devices/<id>): the phone, its owner, goods, zone and expiry, then its history (the
 * queue's jobs for it, backups and restores, transfers between accounts, operators' actions). A phone in
 * 创建失败 can be created again (retryJobs); a running phone can be reset (重置: its apps and data erased)
 * and a phone not yet released can be released, each after a dialog that names the consequence and asks
 * why (resetPhones, releasePhones) and shows a refusal in the dialog (a phone with an open renewal names
 * the order). Buttons show by the role's permissions, the same table the server enforces.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { Button, Space, Tabs } from 'antd'
import { DeviceStatus } from '#domain/device-lifecycle'
import type { OperatorRole } from '#domain/console/operator-roles'
import { OperatorCode } from '#domain/result-codes'
import { adminApi } from '../../api'
import { navigate } from '../../router'
import { CONSOLE_PATHS } from '../../paths'
import { DetailUnavailable } from '../../components/detail-parts'
import DeviceActions from './components/DeviceActions'
import DeviceFacts from './components/DeviceFacts'
import AutoRenewFacts from './components/AutoRenewFacts'
import { tabsOf } from './components/device-history'

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

  return (
    <Space direction="vertical" size="large" style={{ width: '100%' }}>
      <DeviceActions
        id={id}
        device={detail.data.device}
        role={role}
        back={<BackButton key="back" />}
        refresh={refresh}
      />
      <DeviceFacts detail={detail.data} />
      <AutoRenewFacts id={id} />
      <Tabs items={tabsOf(detail.data)} />
    </Space>
  )
}
