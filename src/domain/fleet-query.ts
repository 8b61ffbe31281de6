/** The fleet filters of Home/index and the /device/list query they make (docs/cloud-phones.md). */
import { DeviceVersionFilter, HomeViewType } from './enums'

/** `null` = every group, 0 = 未分组, otherwise a group id (AppStore.homeGroupId). */
export type GroupFilter = number | null

export interface FleetFilters {
  groupId: GroupFilter
  version: DeviceVersionFilter
  keyword: string
}

export const UNGROUPED = 0
export const KEYWORD_MAX_LENGTH = 30

/**
 * Page size of the fleet: 50 rather than SPEC's 10, so a 1,000-phone account fills the grid in 20
 * requests instead of 100 while one page still answers quickly (the server allows up to 100).
 */
export const FLEET_PAGE_ROWS = 50
/** 全选 loads the remaining pages at the server's maximum page size. */
export const FLEET_ALL_ROWS = 100

export const VERSION_OPTIONS: { label: string; value: DeviceVersionFilter }[] = [
  { label: '全部', value: DeviceVersionFilter.all },
  { label: '安卓10/B', value: DeviceVersionFilter['10/B'] },
  { label: '安卓10/H', value: DeviceVersionFilter['10/H'] },
]

export const VIEW_OPTIONS: { label: string; value: HomeViewType }[] = [
  { label: '单机', value: HomeViewType.single },
  { label: '多机', value: HomeViewType.multi },
]

/** AppStore.homeGroupId is stored as number or string: anything else than a whole number = all. */
export function groupFilterOf(stored: number | string | null | undefined): GroupFilter {
  if (stored === null || stored === undefined || stored === '') return null
  const n = Number(stored)
  return Number.isInteger(n) && n >= 0 ? n : null
}

export const normaliseKeyword = (keyword: string) => keyword.trim().slice(0, KEYWORD_MAX_LENGTH)

/** Only the filters that narrow the list are sent. */
export function fleetQuery(filters: FleetFilters): {
  groupId?: number
  version?: number
  keyword?: string
} {
  const query: { groupId?: number; version?: number; keyword?: string } = {}
  if (filters.groupId !== null) query.groupId = filters.groupId
  if (filters.version !== DeviceVersionFilter.all) query.version = filters.version
  const keyword = normaliseKeyword(filters.keyword)
  if (keyword) query.keyword = keyword
  return query
}

/** A stable key of the filters: a change reloads the list from page 1. */
export const filtersKey = (filters: FleetFilters) => JSON.stringify(fleetQuery(filters))

export function viewTypeOf(stored: unknown): HomeViewType {
  return Number(stored) === HomeViewType.multi ? HomeViewType.multi : HomeViewType.single
}
