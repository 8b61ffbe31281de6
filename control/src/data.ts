import type { ControlPageData, Quality } from '#domain/control-page'
import { QUALITIES } from '#domain/control-page'

/** The server's data for this page: a JSON element it wrote into the built document (never code). */
export function readPageData(doc: Document = document): ControlPageData | null {
  const el = doc.getElementById('control-data')
  if (!el?.textContent) return null
  try {
    return JSON.parse(el.textContent) as ControlPageData
  } catch {
    return null
  }
}

/**
 * 画质 is remembered per user in this browser's storage (the page's own origin, the same for H5's iframe
 * and the mini-program's web-view), keyed by user id: no server column (docs/control-page.md).
 */
const qualityKey = (userId: number) => `cp.control.quality.u${userId}`

export function savedQuality(userId: number, storage: Storage | null = safeStorage()): Quality {
  const value = storage?.getItem(qualityKey(userId))
  return QUALITIES.some((q) => q.id === value) ? (value as Quality) : 'auto'
}

export function saveQuality(userId: number, quality: Quality, storage = safeStorage()) {
  try {
    storage?.setItem(qualityKey(userId), quality)
  } catch {
    // a full or refused storage: the choice holds for this visit only
  }
}

function safeStorage(): Storage | null {
  try {
    return window.localStorage
  } catch {
    return null
  }
}
