/** Catalogue display rules (docs/cloud-phones.md "Catalogue"): levels, stock status, version and duration labels. */
import {
  GoodsLevel,
  type ImageType,
  InventoryStatus,
  imageTypeLabels,
  inventoryStatusLabels,
} from './enums'

export type AndroidVersion = 'B' | 'H'

export interface LevelInfo {
  level: GoodsLevel
  name: string
  themeColor: string
}

export const LEVELS: readonly LevelInfo[] = [
  { level: GoodsLevel.enjoy, name: '畅享版', themeColor: '#2F5FE8' },
  { level: GoodsLevel.exclusive, name: '尊享版', themeColor: '#6A45F0' },
  { level: GoodsLevel.flagship, name: '旗舰版', themeColor: '#B34D00' },
  { level: GoodsLevel.supreme, name: '至尊版', themeColor: '#8F6B00' },
  { level: GoodsLevel.gameCustom, name: '游戏定制版', themeColor: '#007D59' },
]

/** The level's name and colour; undefined for a level that does not exist. */
export function levelInfo(level: GoodsLevel): LevelInfo
export function levelInfo(level: number): LevelInfo | undefined
export function levelInfo(level: number): LevelInfo | undefined {
  return LEVELS.find((info) => info.level === level)
}

/** Stock thresholds for the derived inventory status (SPEC enum inventory status). */
export const STOCK_ADEQUATE = 50
export const STOCK_NORMAL = 10

export function inventoryStatus(stock: number): InventoryStatus {
  if (stock >= STOCK_ADEQUATE) return InventoryStatus.adequate
  if (stock >= STOCK_NORMAL) return InventoryStatus.normal
  if (stock >= 1) return InventoryStatus.nervous
  return InventoryStatus.insufficient
}

/** What a buyer sees: an empty zone reads 售罄 (sold out) rather than the enum's 不足. */
export const INVENTORY_STATUS_TEXT: Record<InventoryStatus, string> = {
  ...inventoryStatusLabels,
  [InventoryStatus.insufficient]: '售罄',
}

export function androidVersionLabel(version: AndroidVersion): string {
  return `安卓10/${version}`
}

export function imageTypeLabel(type: ImageType): string {
  return imageTypeLabels[type]
}

const durationNames: Record<number, string> = {
  1: '1天',
  7: '7天',
  30: '1个月',
  90: '3个月',
  180: '半年',
  365: '1年',
}

/** A price row's duration (goodTime, in days) as shown on duration chips. */
export function durationLabel(days: number): string {
  return durationNames[days] ?? `${days}天`
}
