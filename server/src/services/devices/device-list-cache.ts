import type { DeviceListQuery } from '../../contract/device'
import type { Reference } from '../catalogue/reference-data'

/**
 * Pages kept, all users together; the oldest goes first. A page of 20 phones is about 12 KB, 25 KB with
 * the envelope and compressed forms sendOkJson keeps with it: 50 MB at most.
 */
const LIST_PAGES_KEPT = 2000

export interface ListPage {
  /** The user's fleet version the page was read at (or after). */
  version: number
  /** The names it was written with. */
  reference: Reference
  /** When a grant it lists phones under runs out (the list then changes by itself). */
  until: number
  /** The page as the route sends it. */
  json: Buffer
}

/** One key per user and query, as the list reads the query. */
export function listPageKey(userId: number, query: DeviceListQuery): string {
  const { page = 1, rows = 20, groupId, version, keyword, status } = query
  return `${userId}|${page}|${rows}|${groupId ?? ''}|${version ?? ''}|${status ?? ''}|${keyword?.trim() ?? ''}`
}

/**
 * Device-list pages as served, kept while nothing they show has changed: the user's fleet version
 * (raised by triggers in the transaction of every change, db/schema/devices.ts) and the reference data
 * are the same, and no grant they list phones under has run out. A studio's app asks for the same
 * pages again and again; one that is kept costs a one-row read of the version instead of the list's
 * query and its serialisation. Every server instance keeps its own, and each reads the version from
 * PostgreSQL, so a change made through another instance is seen at once.
 */
export class DeviceListCache {
  private readonly pages = new Map<string, ListPage>()

  find(key: string, version: number, reference: Reference, now: number): Buffer | null {
    const page = this.pages.get(key)
    if (!page) return null
    if (page.version === version && page.reference === reference && now < page.until) {
      return page.json
    }
    this.pages.delete(key)
    return null
  }

  keep(key: string, page: ListPage) {
    this.pages.delete(key)
    if (this.pages.size >= LIST_PAGES_KEPT) this.pages.delete(this.pages.keys().next().value!)
    this.pages.set(key, page)
  }
}
