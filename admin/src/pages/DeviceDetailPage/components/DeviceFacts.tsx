/** A phone's facts: status (and what it is busy with), owner, goods, zone, expiry, instances, order. */
import { ProDescriptions } from '@ant-design/pro-components'
import { DeviceStatus } from '#domain/device-lifecycle'
import type { AdminDeviceDetail } from '#console-contract/devices'
import { DEVICE_BUSY_LABELS, DeviceStatusBadge } from '../../../components/device-labels'
import { beijingOrDash, inBeijing } from '../../../components/beijing-time'
import { GoodsLink, OrderLink, UserLink } from '../../../components/record-links'

const time = beijingOrDash

export default function DeviceFacts({ detail }: { detail: AdminDeviceDetail }) {
  const { device, owner } = detail
  return (
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
  )
}
