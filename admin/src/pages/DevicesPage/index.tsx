/**
 * 云手机 (every role): find phones by the owner (number or user id), the phone id, the supplier instance or
 * the status; a row opens the phone's page (/admin/devices/<id>).
 */
import { useState } from 'react'
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import { ProTable, type ProColumns } from '@ant-design/pro-components'
import { Button, Result } from 'antd'
import { deviceStatusLabels } from '#domain/device-lifecycle'
import type { OperatorRole } from '#domain/console/operator-roles'
import type { AdminDeviceRow, DeviceSearchQuery } from '#console-contract/devices'
import { adminApi } from '../../api'
import { navigate, usePathname } from '../../router'
import { CONSOLE_PATHS, recordIdAt } from '../../paths'
import DeviceDetailPage from '../DeviceDetailPage'
import { DEVICE_BUSY_LABELS, DeviceStatusBadge } from '../../components/device-labels'
import ConsoleLink from '../../components/ConsoleLink'
import { beijingTime, inBeijing } from '../../components/beijing-time'
import { DeviceLink, GoodsLink, UserLink } from '../../components/record-links'

interface SearchForm {
  user?: string
  deviceId?: string
  instanceId?: string
  status?: string
}

export default function DevicesPage({ role }: { role: OperatorRole }) {
  const pathname = usePathname()
  const id = recordIdAt(CONSOLE_PATHS.devices, pathname, 10)
  if (pathname !== CONSOLE_PATHS.devices) {
    return id !== undefined ? <DeviceDetailPage id={id} role={role} /> : <DeviceNotFound />
  }
  return <DeviceSearch />
}

function DeviceNotFound() {
  return (
    <Result
      status="404"
      title="没有这个页面"
      extra={
        <Button type="primary" onClick={() => navigate(CONSOLE_PATHS.devices)}>
          返回云手机列表
        </Button>
      }
    />
  )
}

/** Digits only (the server's rule), else the field is left out rather than refused. */
const digits = (text: string | undefined, max: number) => {
  const value = text?.trim() ?? ''
  return new RegExp(`^\\d{1,${max}}$`).test(value) ? value : undefined
}

function DeviceSearch() {
  const [params, setParams] = useState<DeviceSearchQuery>({ page: 1, rows: 20 })
  const found = useQuery({
    queryKey: ['devices', params],
    queryFn: () => adminApi.devices(params),
    placeholderData: keepPreviousData,
  })

  const columns: ProColumns<AdminDeviceRow>[] = [
    {
      title: '用户',
      dataIndex: 'user',
      hideInTable: true,
      fieldProps: { placeholder: '完整手机号或用户ID', maxLength: 11 },
      formItemProps: {
        rules: [{ pattern: /^\s*\d{1,11}\s*$/, message: '请输入完整手机号或用户ID' }],
      },
    },
    {
      title: '云手机ID',
      dataIndex: 'deviceId',
      hideInTable: true,
      fieldProps: { maxLength: 10 },
      formItemProps: { rules: [{ pattern: /^\s*\d{1,10}\s*$/, message: '请输入数字' }] },
    },
    {
      title: '实例ID',
      dataIndex: 'instanceId',
      hideInTable: true,
      fieldProps: { placeholder: '供应商实例ID', maxLength: 128 },
    },
    {
      title: '状态',
      dataIndex: 'status',
      valueType: 'select',
      hideInTable: true,
      valueEnum: Object.fromEntries(
        Object.entries(deviceStatusLabels).map(([value, text]) => [value, { text }]),
      ),
    },
    { title: 'ID', dataIndex: 'id', search: false, width: 80 },
    {
      title: '名称',
      dataIndex: 'name',
      search: false,
      render: (_, row) => <DeviceLink id={row.id} name={row.name} />,
    },
    {
      title: '用户',
      dataIndex: 'mobile',
      search: false,
      render: (_, row) => <UserLink id={row.userId} mobile={row.mobile} name={row.userName} />,
    },
    {
      title: '状态',
      dataIndex: 'status',
      search: false,
      render: (_, row) => (
        <>
          <DeviceStatusBadge status={row.status} />
          {row.busyOp ? `（${DEVICE_BUSY_LABELS[row.busyOp] ?? row.busyOp}）` : null}
        </>
      ),
    },
    {
      title: '商品 / 地区',
      dataIndex: 'goodsName',
      search: false,
      render: (_, row) => (
        <>
          <GoodsLink name={row.goodsName} inText /> / {row.zoneName}
        </>
      ),
    },
    {
      title: '实例',
      dataIndex: 'supplierInstanceId',
      search: false,
      copyable: true,
      render: (_, row) => row.supplierInstanceId ?? '—',
    },
    {
      title: inBeijing('到期时间'),
      dataIndex: 'expireAt',
      search: false,
      render: (_, row) => beijingTime(row.expireAt),
    },
    {
      title: '失败原因',
      dataIndex: 'failReason',
      search: false,
      ellipsis: true,
      render: (_, row) => row.failReason ?? '—',
    },
    {
      title: '操作',
      valueType: 'option',
      render: (_, row) => (
        <ConsoleLink key="open" to={`${CONSOLE_PATHS.devices}/${row.id}`}>
          查看
        </ConsoleLink>
      ),
    },
  ]

  return (
    <ProTable<AdminDeviceRow, SearchForm>
      rowKey="id"
      headerTitle="云手机"
      columns={columns}
      dataSource={found.data?.records}
      loading={found.isFetching}
      search={{ labelWidth: 'auto', searchText: '搜索', resetText: '重置' }}
      onSubmit={(form) =>
        setParams({
          user: digits(form.user, 11),
          deviceId: digits(form.deviceId, 10) ? Number(form.deviceId) : undefined,
          instanceId: form.instanceId?.trim() || undefined,
          status: form.status === undefined ? undefined : Number(form.status),
          page: 1,
          rows: params.rows,
        })
      }
      onReset={() => setParams({ page: 1, rows: params.rows })}
      options={{ reload: () => void found.refetch(), density: false, setting: false }}
      pagination={{
        current: params.page,
        pageSize: params.rows,
        total: found.data?.total ?? 0,
        showSizeChanger: true,
        onChange: (page, rows) =>
          setParams({ ...params, page: rows === params.rows ? page : 1, rows }),
      }}
    />
  )
}
