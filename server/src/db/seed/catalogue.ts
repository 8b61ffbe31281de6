import { sql } from 'drizzle-orm'
import { LEVELS } from '#domain/catalogue'
import type { Db } from '../client'
import { goods, goodsLevels, goodsPrices, goodsStockSlots, STOCK_SLOTS, zones } from '../schema'

/** docs/cloud-phones.md "Catalogue": a realistic starting catalogue, seeded once with stable ids. */

const LEVEL_DESCRIPTIONS: Record<number, string> = {
  1: '入门之选，适合日常挂机、轻量应用多开',
  2: '性能均衡，适合社交运营、直播助手',
  3: '高性能配置，适合重度应用与多开工作室',
  4: '顶级配置，适合大型应用长时间稳定运行',
  5: '为手游优化的高帧率配置，适合游戏挂机与代练',
}

export const SEED_ZONES = [
  { id: 1, name: '华东-上海', sort: 1 },
  { id: 2, name: '华南-广州', sort: 2 },
  { id: 3, name: '华北-北京', sort: 3 },
  { id: 4, name: '西南-成都', sort: 4 },
]

/** Units per zone for every goods; 西南-成都 is nearly sold out. */
const ZONE_STOCK: Record<number, number> = { 1: 500, 2: 120, 3: 40, 4: 3 }

interface SeedConfig {
  cores: number
  ramGb: number
  storageGb: number
  /** Fen for 30 days. */
  monthly: number
}

const CONFIGS: Record<number, SeedConfig[]> = {
  1: [
    { cores: 4, ramGb: 4, storageGb: 64, monthly: 2990 },
    { cores: 6, ramGb: 6, storageGb: 64, monthly: 3990 },
  ],
  2: [
    { cores: 6, ramGb: 8, storageGb: 128, monthly: 4990 },
    { cores: 8, ramGb: 8, storageGb: 128, monthly: 5990 },
  ],
  3: [
    { cores: 8, ramGb: 8, storageGb: 128, monthly: 6990 },
    { cores: 8, ramGb: 12, storageGb: 256, monthly: 7990 },
  ],
  4: [
    { cores: 8, ramGb: 12, storageGb: 256, monthly: 8990 },
    { cores: 8, ramGb: 16, storageGb: 256, monthly: 9990 },
  ],
  5: [
    { cores: 8, ramGb: 12, storageGb: 128, monthly: 7990 },
    { cores: 8, ramGb: 16, storageGb: 256, monthly: 9990 },
  ],
}

/** Price of each duration as a share of the monthly price; longer terms are cheaper per day. */
const DURATIONS: { days: number; factor: number }[] = [
  { days: 1, factor: 0.05 },
  { days: 7, factor: 0.3 },
  { days: 30, factor: 1 },
  { days: 90, factor: 2.8 },
  { days: 180, factor: 5.4 },
  { days: 365, factor: 10 },
]

/** A seeded promotion that outlives any test clock. */
export const SEED_ACTIVITY_ENDS_AT = new Date('2027-12-31T16:00:00.000Z')

const roundTo10 = (fen: number) => Math.round(fen / 10) * 10

function permissionsOf(level: number): string[] {
  if (level === 1) return ['upOrDownConfig', 'zoneChangeOpType']
  return ['changeConfig', 'upOrDownConfig', 'zoneChangeOpType', 'videoChangeOpType']
}

/** A goods × zone's stock spread evenly over its slots (as migration 0014 spread the stock there was). */
export function stockSlotRows(goodId: number, zoneId: number, stock: number) {
  return Array.from({ length: STOCK_SLOTS }, (_, slot) => ({
    goodId,
    zoneId,
    slot,
    stock: Math.floor(stock / STOCK_SLOTS) + (slot < stock % STOCK_SLOTS ? 1 : 0),
  }))
}

function buildCatalogue() {
  const goodsRows: (typeof goods.$inferInsert)[] = []
  const priceRows: (typeof goodsPrices.$inferInsert)[] = []
  const stockRows: (typeof goodsStockSlots.$inferInsert)[] = []
  for (const info of LEVELS) {
    const configs = CONFIGS[info.level]
    configs.forEach((config, c) => {
      const versions = ['B', 'H'] as const
      versions.forEach((version, v) => {
        const id = info.level * 100 + c * 2 + v + 1
        const imageType = info.level === 5 ? 3 : version === 'H' && c === 1 ? 2 : 1
        goodsRows.push({
          id,
          level: info.level,
          name: `${info.name} ${config.cores}核${config.ramGb}G`,
          configName: `${config.cores}核CPU · ${config.ramGb}GB内存 · ${config.storageGb}GB存储`,
          androidVersion: version,
          imageType,
          maxPerOrder: info.level === 5 ? 20 : 50,
          description: LEVEL_DESCRIPTIONS[info.level],
          permissions: permissionsOf(info.level),
          videoDailyFee: info.level >= 3 ? 100 + (info.level - 3) * 50 : null,
          sort: c * 2 + v,
        })
        DURATIONS.forEach((duration, d) => {
          const goodPrice = roundTo10(config.monthly * duration.factor)
          const listPrice = roundTo10((config.monthly * duration.days) / 30)
          // First-purchase offer on the entry levels' monthly price; a running activity on 旗舰版/B
          // monthly and an open-ended one on the game edition's weekly price.
          const firstOffer = info.level <= 2 && duration.days === 30
          const activity =
            (info.level === 3 && version === 'B' && duration.days === 30) ||
            (info.level === 5 && duration.days === 7)
          priceRows.push({
            id: id * 10 + d + 1,
            goodId: id,
            goodTime: duration.days,
            goodPrice,
            oldGoodPrice: listPrice > goodPrice ? listPrice : null,
            firstPurchasePrice: firstOffer ? roundTo10(goodPrice / 2) : null,
            firstCount: firstOffer ? 1 : 0,
            activityId: activity ? info.level : null,
            activityPrice: activity ? roundTo10(goodPrice * 0.7) : null,
            activityEndsAt: activity && info.level === 3 ? SEED_ACTIVITY_ENDS_AT : null,
          })
        })
        for (const zone of SEED_ZONES) {
          // One configuration is sold out in 北京 so the buyer sees 售罄 somewhere.
          const soldOut = info.level === 4 && version === 'H' && c === 1 && zone.id === 3
          stockRows.push(...stockSlotRows(id, zone.id, soldOut ? 0 : ZONE_STOCK[zone.id]))
        }
      })
    })
  }
  return { goodsRows, priceRows, stockRows }
}

/** Idempotent like the rest of the seed: existing rows (and stock already sold) are left alone. */
export async function seedCatalogue(db: Db): Promise<void> {
  const { goodsRows, priceRows, stockRows } = buildCatalogue()
  await db
    .insert(goodsLevels)
    .values(
      LEVELS.map((info) => ({
        level: info.level,
        name: info.name,
        themeColor: info.themeColor,
        description: LEVEL_DESCRIPTIONS[info.level],
      })),
    )
    .onConflictDoNothing()
  await db.insert(zones).values(SEED_ZONES).onConflictDoNothing()
  await db.insert(goods).values(goodsRows).onConflictDoNothing()
  await db.insert(goodsPrices).values(priceRows).onConflictDoNothing()
  await db.insert(goodsStockSlots).values(stockRows).onConflictDoNothing()
  // Explicit ids leave the serial sequences behind; move them past the seeded rows.
  for (const table of ['goods', 'goods_prices', 'zones']) {
    await db.execute(
      sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.identifier(table)}))`,
    )
  }
}
