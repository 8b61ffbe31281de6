/** Cloud-phone calls (docs/cloud-phones.md "Calls": /device/*, /user/getAuthToken). */
import type {
  AuthTokenResult,
  CommandResult,
  Device,
  DeviceCommandBody,
  DeviceCover,
  DeviceListQuery,
  DeviceModel,
  SetAutoRenewBody,
  SetAutoRenewResult,
  SystemUpdateProgress,
} from '@/types/api'
import { client } from '@/runtime/request'
import type { RequestOptions } from '@/runtime/request-types'

type Loading = Pick<RequestOptions, 'loading'>

/** One page of my phones; `query` holds only the filters that narrow the list. */
export const listDevices = (
  query: Omit<DeviceListQuery, 'page' | 'rows'>,
  page: number,
  rows: number,
  options?: Loading,
) =>
  client.fetchPage<Device>({
    url: '/device/list',
    page,
    rows,
    params: query,
    loading: options?.loading,
  })

export const getDevice = async (deviceId: number, options?: Loading) =>
  (await client.get<Device>('/device/detail', { deviceId }, options)).data

export const renameDevice = async (deviceId: number, name: string) =>
  (await client.post<null>('/device/rename', { deviceId, name })).data

export const sendCommand = async (body: DeviceCommandBody) =>
  (await client.post<CommandResult>('/device/command', body)).data

export const batchCommand = async (deviceIds: number[], command: DeviceCommandBody['command']) =>
  (await client.post<CommandResult[]>('/device/batchCommand', { deviceIds, command })).data ?? []

/** The latest screenshot; fetched in the background, so no loading overlay. */
export const getCover = async (deviceId: number) =>
  (await client.get<DeviceCover>('/device/cover', { deviceId }, { loading: false })).data

/** The new zone may have sold out since the list was shown (1017): an outcome. */
export const changeZone = (deviceId: number, zoneId: number) =>
  client.postOutcome<Device>('/device/changeZone', { deviceId, zoneId })

export const replaceDevice = async (deviceId: number) =>
  (await client.post<Device>('/device/replace', { deviceId })).data

export const startSystemUpdate = async (deviceId: number) =>
  (await client.post<SystemUpdateProgress>('/device/systemUpdate', { deviceId })).data

/** Polled while an update runs: no overlay. */
export const getSystemUpdateProgress = async (deviceId: number) =>
  (
    await client.get<SystemUpdateProgress>(
      '/device/systemUpdateProgress',
      { deviceId },
      { loading: false },
    )
  ).data

export const listModels = async () => (await client.get<DeviceModel[]>('/device/models')).data ?? []

export const setModel = async (deviceId: number, modelId: string) =>
  (await client.post<Device>('/device/setModel', { deviceId, modelId })).data

/** A short-lived one-time token for the control page of one phone. */
export const getAuthToken = async (deviceId: number) =>
  (await client.get<AuthTokenResult>('/user/getAuthToken', { deviceId })).data

export const deviceApi = {
  listDevices,
  getDevice,
  renameDevice,
  sendCommand,
  batchCommand,
  getCover,
  changeZone,
  replaceDevice,
  startSystemUpdate,
  getSystemUpdateProgress,
  listModels,
  setModel,
  getAuthToken,
}
export type DeviceApi = typeof deviceApi

/** 自动续费 on (with its duration and what pays) or off for the given phones. */
export const setAutoRenew = async (body: SetAutoRenewBody) =>
  (await client.post<SetAutoRenewResult>('/device/autoRenew', body)).data
