import { sql } from 'drizzle-orm'
import type { Db } from '../client'
import { activities, seckillItems } from '../schema'
import { SEED_ACTIVITY_ENDS_AT } from './catalogue'

/** 畅享版 4核4G 安卓10/B for 7 days (seed-catalogue price id = goodId × 10 + duration index + 1). */
export const SEED_SECKILL_PRICE_ID = 1012
export const SEED_SECKILL_ACTIVITY_ID = 1
export const SEED_SECKILL_ITEM_ID = 1

export const SEED_ACTIVITIES = [
  {
    id: SEED_SECKILL_ACTIVITY_ID,
    title: '限时秒杀 · 1元抢畅享版云手机',
    summary: '畅享版 4核4G 云手机 7 天仅需 1 元，数量有限，先到先得',
    banner: null,
    rules: [
      '1. 活动期间每个账号限购 1 件，抢到后请在 15 分钟内完成支付。',
      '2. 超时未支付或取消订单，名额将释放给其他用户。',
      '3. 秒杀订单不可使用优惠券。',
      '4. 支付成功后云手机自动开通，可在「我的云机」查看。',
    ].join('\n'),
    kind: 'seckill' as const,
    startsAt: new Date('2026-01-01T00:00:00.000Z'),
    endsAt: SEED_ACTIVITY_ENDS_AT,
    enabled: 1,
    sort: 1,
  },
  {
    id: 2,
    title: '新人福利 · 免费试用云手机',
    summary: '注册即可免费领取一台云手机试用 2 小时',
    banner: null,
    rules: [
      '1. 每个账号限领一次免费试用云机，试用时长 2 小时。',
      '2. 在首页新手引导中点击「免费试用」即可领取。',
      '3. 试用结束后可续费继续使用，数据保留 2 小时。',
    ].join('\n'),
    kind: 'info' as const,
    startsAt: new Date('2026-01-01T00:00:00.000Z'),
    endsAt: SEED_ACTIVITY_ENDS_AT,
    enabled: 1,
    sort: 2,
  },
]

export const SEED_SECKILL_ITEMS = [
  {
    id: SEED_SECKILL_ITEM_ID,
    activityId: SEED_SECKILL_ACTIVITY_ID,
    priceId: SEED_SECKILL_PRICE_ID,
    price: 100,
    stock: 5,
    sort: 1,
  },
]

/** Idempotent: inserts the seeded activities once and never overwrites an operator's changes. */
export async function seedActivities(db: Db): Promise<void> {
  await db.insert(activities).values(SEED_ACTIVITIES).onConflictDoNothing()
  await db.insert(seckillItems).values(SEED_SECKILL_ITEMS).onConflictDoNothing()
  // Explicit ids leave the serial sequences behind; move them past the seeded rows.
  for (const table of ['activities', 'seckill_items']) {
    await db.execute(
      sql`select setval(pg_get_serial_sequence(${table}, 'id'), (select max(id) from ${sql.identifier(table)}))`,
    )
  }
}
