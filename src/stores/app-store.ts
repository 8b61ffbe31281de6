/** SPEC 3 "App state": onPath, logId, hideTime, homeGroupId (persisted). */
import { makeAutoObservable } from 'mobx'
import type { UsageLogId } from '@/domain/usage-log-id'
import type { KeyValueStorage } from '@/platform/types'
import { STORAGE_KEYS } from '@/runtime/storage-keys'

export class AppStore {
  onPath = ''
  logId: UsageLogId | null = null
  /** when the app was last hidden, null while shown */
  hideTime: number | null = null
  homeGroupId: number | string | null

  constructor(private readonly storage: KeyValueStorage) {
    this.homeGroupId = storage.get<number | string>(STORAGE_KEYS.homeGroupId) ?? null
    makeAutoObservable<AppStore, 'storage'>(this, { storage: false }, { autoBind: true })
  }

  setOnPath(path: string) {
    this.onPath = path
  }

  setLogId(logId: UsageLogId | null) {
    this.logId = logId
  }

  setHideTime(time: number | null) {
    this.hideTime = time
  }

  setHomeGroupId(id: number | string | null) {
    this.homeGroupId = id
    if (id === null) this.storage.remove(STORAGE_KEYS.homeGroupId)
    else this.storage.set(STORAGE_KEYS.homeGroupId, id)
  }
}
