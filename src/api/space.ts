/** Cloud space calls (docs/api.md "Cloud space"): quota, backups and restores of phones. */
import type {
  CreateSpaceOrderBody,
  DeviceSpace,
  OrderInfo,
  SpaceInfo,
  SpacePackages,
  SpaceTask,
  SpaceTaskKind,
} from '@/types/api'
import { client } from '@/runtime/request'
import type { RequestOptions } from '@/runtime/request-types'

export const getSpaceInfo = async () => (await client.get<SpaceInfo>('/space/info')).data

export const getDeviceSpace = async (deviceId: number, options?: Pick<RequestOptions, 'loading'>) =>
  (await client.get<DeviceSpace>('/space/device', { deviceId }, options)).data

/** 1026 when the cloud space cannot hold it: an outcome. */
export const startBackup = (deviceId: number) =>
  client.postOutcome<SpaceTask>('/space/backup', { deviceId })

export const startRestore = async (backupId: number, deviceId: number) =>
  (await client.post<SpaceTask>('/space/restore', { backupId, deviceId })).data

export const deleteBackup = async (backupId: number) =>
  (await client.post<null>('/space/deleteBackup', { backupId })).data

/** Backups and restores, newest first; `kind` keeps one of them. */
/** quiet: no loading overlay (a page following running tasks loads again every few seconds) */
export const listSpaceHistory = (
  page: number,
  kind?: SpaceTaskKind,
  rows?: number,
  quiet = false,
) =>
  client.fetchPage<SpaceTask>({
    url: '/space/history',
    page,
    rows,
    params: kind ? { kind } : {},
    loading: quiet ? false : undefined,
  })

export const getSpacePackages = async () =>
  (await client.get<SpacePackages>('/space/packages')).data

/** An unpaid cloud-space order (business type 4), paid on pay/pay. */
export const createSpaceOrder = async (body: CreateSpaceOrderBody) =>
  (await client.post<OrderInfo>('/order/createOrder', body, { loading: '正在提交订单' })).data

export const spaceApi = {
  getSpaceInfo,
  getSpacePackages,
  createSpaceOrder,
  getDeviceSpace,
  startBackup,
  startRestore,
  deleteBackup,
  listSpaceHistory,
}
export type SpaceApi = typeof spaceApi
