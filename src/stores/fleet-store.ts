/**
 * The fleet on Home/index: filters (group remembered as AppStore.homeGroupId, view type remembered
 * here), the phones loaded page by page, multi-select and batch commands. Calls go through the
 * injected api so tests pass fakes.
 */
import { makeAutoObservable, observableRef, runInAction } from 'mobx'
import type { CommandResult, Device, DeviceGroup, DeviceStatusEntry } from '@/types/api'
import { summariseBatch, validateBatchSelection } from '@/domain/batch-results'
import { DeviceVersionFilter, HomeViewType } from '@/domain/enums'
import type { KeyValueStorage } from '@/platform/types'
import type { Api } from '@/api'
import { errorMessage, failureCode } from '@/runtime/api-error'
import {
  FLEET_ALL_ROWS,
  FLEET_PAGE_ROWS,
  fleetQuery,
  groupFilterOf,
  type FleetFilters,
  type GroupFilter,
} from '@/domain/fleet-query'
import { isTransient } from '@/domain/device-view'
import { keepExisting, selectAll, selectedIds, toggle } from '@/domain/fleet-selection'
import type { AppStore } from './app-store'

export const VIEW_TYPE_KEY = 'homeViewType'
/** The multi view's dense mode (compact tiles, no screenshots), remembered per device. */
export const DENSE_KEY = 'homeFleetDense'

export type FleetStatus = 'idle' | 'loading' | 'error'

export interface FleetDeps {
  api: Pick<Api, 'device' | 'group' | 'common'>
  storage: KeyValueStorage
  app: AppStore
}

export class FleetStore {
  devices: Device[] = []
  page = 0
  totalPage = 0
  total = 0
  status: FleetStatus = 'idle'
  /** message of the last failed load */
  error = ''
  /** result code of the last failed load; null when it never reached the server's answer */
  errorCode: number | null = null
  /** true once the first page for the current filters has arrived */
  loaded = false
  version: DeviceVersionFilter = DeviceVersionFilter.all
  keyword = ''
  viewType: HomeViewType
  dense: boolean
  selecting = false
  selection: Set<number> = new Set()
  groups: DeviceGroup[] = []
  ungroupedCount = 0
  /**
   * The phone chosen on user/device for user/activateDevice: the chooser sets it and goes back, the
   * activation page reads it when shown (a store field works the same on H5 and in the mini-program).
   */
  pickedDevice: { deviceId: number; name: string } | null = null
  statusList: DeviceStatusEntry[] = []
  /** answers of older loads are dropped when the filters changed meanwhile */
  private seq = 0
  /** the load now running, and a refresh waiting for it to end (refresh) */
  private inFlight: Promise<void> | null = null
  private queuedRefresh: Promise<void> | null = null

  constructor(private readonly deps: FleetDeps) {
    this.viewType =
      Number(deps.storage.get(VIEW_TYPE_KEY)) === HomeViewType.multi
        ? HomeViewType.multi
        : HomeViewType.single
    this.dense = Number(deps.storage.get(DENSE_KEY)) === 1
    makeAutoObservable<FleetStore, 'deps' | 'seq' | 'inFlight' | 'queuedRefresh'>(
      this,
      {
        deps: false,
        seq: false,
        inFlight: false,
        queuedRefresh: false,
        // replaced wholesale, never mutated: no deep proxies for 1,000 phones on every page
        devices: observableRef,
        selection: observableRef,
        groups: observableRef,
        statusList: observableRef,
      },
      { autoBind: true },
    )
  }

  get groupId(): GroupFilter {
    return groupFilterOf(this.deps.app.homeGroupId)
  }

  get filters(): FleetFilters {
    return { groupId: this.groupId, version: this.version, keyword: this.keyword }
  }

  get hasMore(): boolean {
    return this.page < this.totalPage
  }

  get selectedIds(): number[] {
    return selectedIds(this.selection)
  }

  get allSelected(): boolean {
    return this.total > 0 && this.selection.size >= this.total
  }

  /** Name and colour of a status from the cached status config list. */
  statusOf(status: number): DeviceStatusEntry | undefined {
    return this.statusList.find((s) => s.status === status)
  }

  groupName(groupId: number | null): string {
    if (!groupId) return '未分组'
    return this.groups.find((g) => g.groupId === groupId)?.name ?? '未分组'
  }

  /** Forget the phones (logout, account switch); the next show loads the new account's. */
  reset() {
    this.seq += 1
    this.devices = []
    this.page = 0
    this.totalPage = 0
    this.total = 0
    this.status = 'idle'
    this.error = ''
    this.errorCode = null
    this.loaded = false
    this.groups = []
    this.endSelect()
  }

  /**
   * Runs one list load: `work` fetches and returns how to apply the answer. A newer load (filters
   * changed, reset) wins over an older one; a failure becomes the list's error.
   */
  private track(work: () => Promise<() => void>, rethrow = false): Promise<void> {
    const load = this.load(work, rethrow)
    this.inFlight = load
    const settled = () => {
      if (this.inFlight === load) this.inFlight = null
    }
    load.then(settled, settled)
    return load
  }

  private async load(work: () => Promise<() => void>, rethrow: boolean): Promise<void> {
    const seq = ++this.seq
    this.status = 'loading'
    try {
      const apply = await work()
      if (seq !== this.seq) return
      runInAction(() => {
        apply()
        this.status = 'idle'
        this.error = ''
        this.errorCode = null
      })
    } catch (error) {
      if (seq === this.seq) {
        runInAction(() => {
          this.status = 'error'
          this.error = errorMessage(error)
          this.errorCode = failureCode(error)
        })
      }
      if (rethrow) throw error
    }
  }

  /** The first page for the current filters. */
  reload(): Promise<void> {
    const query = fleetQuery(this.filters)
    const loading = this.loaded ? false : undefined
    return this.track(async () => {
      const result = await this.deps.api.device.listDevices(query, 1, FLEET_PAGE_ROWS, { loading })
      return () => {
        this.devices = result.records
        this.page = result.page
        this.totalPage = result.totalPage
        this.total = result.total
        this.loaded = true
        this.selection = keepExisting(
          this.selection,
          result.records.map((d) => d.deviceId),
        )
      }
    })
  }

  /** The next page, when there is one and nothing is loading. */
  async loadMore(): Promise<void> {
    if (this.status === 'loading' || !this.hasMore) return
    const query = fleetQuery(this.filters)
    const next = this.page + 1
    return this.track(async () => {
      const result = await this.deps.api.device.listDevices(query, next, FLEET_PAGE_ROWS, {
        loading: false,
      })
      return () => {
        const known = new Set(this.devices.map((d) => d.deviceId))
        this.devices = [...this.devices, ...result.records.filter((d) => !known.has(d.deviceId))]
        this.page = result.page
        this.totalPage = result.totalPage
        this.total = result.total
      }
    })
  }

  /** Every phone of the current filters (for 全选), at the server's largest page size. */
  loadAll(): Promise<void> {
    return this.readUpTo(Infinity, false)
  }

  /**
   * What the server changed, shown (hooks/use-follow.ts): the phones loaded so far read again, quietly
   * — the first page, or as many pages of the largest size as the loaded phones fill.
   */
  refresh(): Promise<void> {
    // A load in flight (全选's pages, new filters) is not cut short by a quiet read, which would drop
    // its answer: the refresh reads once it has ended, and refreshes asked for meanwhile are one.
    if (this.inFlight) {
      this.queuedRefresh ??= this.inFlight
        .catch(() => undefined)
        .then(() => {
          this.queuedRefresh = null
          return this.refresh()
        })
      return this.queuedRefresh
    }
    if (!this.loaded || this.devices.length <= FLEET_PAGE_ROWS) return this.reload()
    return this.readUpTo(Math.ceil(this.devices.length / FLEET_ALL_ROWS), true)
  }

  /**
   * Reads pages of FLEET_ALL_ROWS from the first, at most `pages` of them, and keeps them all. Quiet:
   * no overlay, and a failure stays the list's error; else (全选) it is also thrown to the caller.
   */
  private readUpTo(pages: number, quiet: boolean): Promise<void> {
    const query = fleetQuery(this.filters)
    const read = (page: number) =>
      quiet
        ? this.deps.api.device.listDevices(query, page, FLEET_ALL_ROWS, { loading: false })
        : this.deps.api.device.listDevices(query, page, FLEET_ALL_ROWS)
    return this.track(async () => {
      const all: Device[] = []
      let page = 0
      let totalPage = 1
      let total = 0
      while (page < totalPage && page < pages) {
        const result = await read(page + 1)
        all.push(...result.records)
        page = result.page
        totalPage = result.totalPage
        total = result.total
        if (result.records.length === 0) break
      }
      return () => {
        this.devices = all
        this.total = total
        // keep paging consistent with FLEET_PAGE_ROWS: the next page follows the last phone read
        this.page = Math.ceil(all.length / FLEET_PAGE_ROWS)
        this.totalPage = Math.max(this.page, Math.ceil(total / FLEET_PAGE_ROWS))
        this.selection = keepExisting(
          this.selection,
          all.map((d) => d.deviceId),
        )
      }
    }, !quiet)
  }

  async loadGroups(): Promise<void> {
    const list = await this.deps.api.group.listGroups()
    runInAction(() => {
      this.groups = list.groups
      this.ungroupedCount = list.ungroupedCount
    })
  }

  async loadStatusList(): Promise<void> {
    const list = await this.deps.api.common.getDeviceStatusList()
    runInAction(() => {
      this.statusList = list
    })
  }

  setGroup(groupId: GroupFilter) {
    this.deps.app.setHomeGroupId(groupId)
    void this.reload()
  }

  setVersion(version: DeviceVersionFilter) {
    this.version = version
    void this.reload()
  }

  setKeyword(keyword: string) {
    this.keyword = keyword
    void this.reload()
  }

  setViewType(viewType: HomeViewType) {
    this.viewType = viewType
    this.deps.storage.set(VIEW_TYPE_KEY, viewType)
    if (viewType === HomeViewType.single) this.endSelect()
  }

  setDense(dense: boolean) {
    this.dense = dense
    this.deps.storage.set(DENSE_KEY, dense ? 1 : 0)
  }

  startSelect() {
    this.selecting = true
    this.selection = new Set()
  }

  endSelect() {
    this.selecting = false
    this.selection = new Set()
  }

  toggleSelected(deviceId: number) {
    this.selection = toggle(this.selection, deviceId)
  }

  /** 全选 ticks every phone of the filters (loading the rest first); again clears the choice. */
  async toggleAll(): Promise<void> {
    if (this.allSelected) {
      this.selection = new Set()
      return
    }
    await this.selectWhere(() => true)
  }

  /**
   * 按状态选: ticks exactly the phones of the filters that `matches` (loading the rest first, as 全选);
   * answers how many.
   */
  async selectWhere(matches: (device: Device) => boolean): Promise<number> {
    if (this.devices.length < this.total) await this.loadAll()
    const ids = this.devices.filter(matches).map((d) => d.deviceId)
    runInAction(() => {
      this.selection = selectAll(ids)
    })
    return ids.length
  }

  /** Replace one phone's fields after an operation (rename, move, refresh). */
  patch(deviceId: number, fields: Partial<Device>) {
    this.devices = this.devices.map((d) => (d.deviceId === deviceId ? { ...d, ...fields } : d))
  }

  /** The same fields for many phones at once (自动续费 set for a studio's selection). */
  patchMany(deviceIds: number[], fields: Partial<Device>) {
    const ids = new Set(deviceIds)
    this.devices = this.devices.map((d) => (ids.has(d.deviceId) ? { ...d, ...fields } : d))
  }

  pickDevice(device: { deviceId: number; name: string } | null) {
    this.pickedDevice = device
  }

  /** Loaded phones that are creating, rebooting or busy: the fleet follows them until they settle. */
  get transientIds(): number[] {
    return this.devices.filter(isTransient).map((d) => d.deviceId)
  }

  /** Batch reboot of the selection; the summary lists failures by reason. */
  async batchReboot(): Promise<ReturnType<typeof summariseBatch>> {
    const ids = this.selectedIds
    const invalid = validateBatchSelection(ids)
    if (invalid) throw new Error(invalid)
    const results: CommandResult[] = await this.deps.api.device.batchCommand(ids, 'Reboot')
    return summariseBatch(results)
  }
}
