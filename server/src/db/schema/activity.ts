/** Activities and the seckill flash sale (docs/cloud-phones.md "Activities and seckill"). */
import { sql } from 'drizzle-orm'
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { at } from '../columns'
import { users } from './users'
import { goodsPrices, orders } from './commerce'

export type ActivityKind = 'seckill' | 'info'

/** An activity page (webView/activity): shown while enabled = 1 and not yet ended. */
export const activities = pgTable(
  'activities',
  {
    id: serial('id').primaryKey(),
    title: text('title').notNull(),
    summary: text('summary').notNull().default(''),
    /** Path of the banner image under the static files, or null for none. */
    banner: text('banner'),
    rules: text('rules').notNull().default(''),
    kind: text('kind').$type<ActivityKind>().notNull(),
    startsAt: at('starts_at').notNull(),
    endsAt: at('ends_at').notNull(),
    /** SPEC: 1 enabled, 0 disabled. */
    enabled: smallint('enabled').notNull().default(1),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    index('activities_window_idx').on(t.enabled, t.endsAt),
    check('activities_kind_check', sql`${t.kind} in ('seckill', 'info')`),
    check('activities_enabled_check', sql`${t.enabled} in (0, 1)`),
    check('activities_window_check', sql`${t.endsAt} > ${t.startsAt}`),
  ],
)

/**
 * One flash-sale unit pool: a goods price (goods + days) sold at `price` fen. `sold` only moves by a
 * conditional `sold = sold + 1 where sold < stock` and back by one when an unpaid order closes.
 */
export const seckillItems = pgTable(
  'seckill_items',
  {
    id: serial('id').primaryKey(),
    activityId: integer('activity_id')
      .notNull()
      .references(() => activities.id, { onDelete: 'cascade' }),
    priceId: integer('price_id')
      .notNull()
      .references(() => goodsPrices.id),
    price: integer('price').notNull(),
    stock: integer('stock').notNull(),
    sold: integer('sold').notNull().default(0),
    perUserLimit: integer('per_user_limit').notNull().default(1),
    sort: integer('sort').notNull().default(0),
  },
  (t) => [
    index('seckill_items_activity_idx').on(t.activityId, t.sort),
    check('seckill_items_price_check', sql`${t.price} > 0`),
    check('seckill_items_sold_check', sql`${t.sold} >= 0 and ${t.sold} <= ${t.stock}`),
    check('seckill_items_limit_check', sql`${t.perUserLimit} = 1`),
  ],
)

/**
 * A user's unit of a seckill item, held by their order. The row is deleted when the unpaid order is
 * cancelled or times out (in the same transaction that gives the unit back), so UNIQUE(item, user)
 * is "one live purchase per user".
 */
export const seckillPurchases = pgTable(
  'seckill_purchases',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    itemId: integer('item_id')
      .notNull()
      .references(() => seckillItems.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** 'reserved' while the order is unpaid, 'paid' once paid. */
    status: text('status').$type<'reserved' | 'paid'>().notNull().default('reserved'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('seckill_purchases_item_user_key').on(t.itemId, t.userId),
    uniqueIndex('seckill_purchases_order_key').on(t.orderId),
    check('seckill_purchases_status_check', sql`${t.status} in ('reserved', 'paid')`),
  ],
)
