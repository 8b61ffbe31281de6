/** Device groups (docs/cloud-phones.md "Calls": /group/*). */
import type { DeviceGroup, GroupList } from '@/types/api'
import { client } from '@/runtime/request'

/** My groups in their sort order, each with its phone count (plus the 未分组 count). */
export const listGroups = async (): Promise<GroupList> =>
  (await client.get<GroupList>('/group/list')).data ?? { groups: [], ungroupedCount: 0 }

export type { GroupList }

/** A new group; with `deviceIds` it takes those phones at once (all of them or, refused, no group). */
export const createGroup = async (name: string, deviceIds?: number[]) =>
  (await client.post<DeviceGroup>('/group/create', { name, deviceIds })).data

export const renameGroup = async (groupId: number, name: string) =>
  (await client.post<DeviceGroup>('/group/rename', { groupId, name })).data

/** Its phones become 未分组. */
export const deleteGroup = async (groupId: number) =>
  (await client.post<null>('/group/delete', { groupId })).data

/** The whole order of my groups, first to last. */
export const sortGroups = async (groupIds: number[]) =>
  (await client.post<null>('/group/sort', { groupIds })).data

/** groupId 0 moves the phones to 未分组. */
export const moveDevices = async (deviceIds: number[], groupId: number) =>
  (await client.post<null>('/group/moveDevices', { deviceIds, groupId })).data

export const groupApi = {
  listGroups,
  createGroup,
  renameGroup,
  deleteGroup,
  sortGroups,
  moveDevices,
}
export type GroupApi = typeof groupApi
