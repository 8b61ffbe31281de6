/**
 * Catalogue, orders, payments, beans and activation codes (docs/cloud-phones.md). Long because it is
 * declarations only: tables with their indexes and checks, and no logic.
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  pgView,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { users } from './users'
import { at } from '../columns'
import { OrderStatus, type OrderKind } from '#domain/order-status'

/** SPEC goods levels 1–5, each with its card colour. */
export const goodsLevels = pgTable('goods_levels', {
  level: smallint('level').primaryKey(),
  name: text('name').notNull(),
  themeColor: text('theme_color').notNull(),
  description: text('description').notNull().default(''),
})

/** One configuration of a level, sold by duration (goods_prices) in zones (goods_inventory). */
export const goods = pgTable(
  'goods',
  {
    id: serial('id').primaryKey(),
    level: smallint('level')
      .notNull()
      .references(() => goodsLevels.level),
    name: text('name').notNull(),
    configName: text('config_name').notNull(),
    androidVersion: text('android_version').notNull(),
    imageType: smallint('image_type').notNull().default(1),
    maxPerOrder: integer('max_per_order').notNull(),
    description: text('description').notNull().default(''),
    /** Which device operations its phones allow: changeConfig, upOrDownConfig, zoneChangeOpType, videoChangeOpType. */
    permissions: jsonb('permissions').$type<string[]>().notNull().default([]),
    /** Fen per day for the video-custom edition; null when the goods cannot have it. */
    videoDailyFee: integer('video_daily_fee'),
    sort: integer('sort').notNull().default(0),
    onSale: boolean('on_sale').notNull().default(true),
  },
  (t) => [
    index('goods_level_idx').on(t.level, t.sort),
    check('goods_android_version_check', sql`${t.androidVersion} in ('B', 'H')`),
    check('goods_image_type_check', sql`${t.imageType} between 1 and 3`),
    check('goods_max_per_order_check', sql`${t.maxPerOrder} >= 1`),
  ],
)

export const goodsPrices = pgTable(
  'goods_prices',
  {
    id: serial('id').primaryKey(),
    goodId: integer('good_id')
      .notNull()
      .references(() => goods.id, { onDelete: 'cascade' }),
    /** Days. */
    goodTime: integer('good_time').notNull(),
    goodPrice: integer('good_price').notNull(),
    oldGoodPrice: integer('old_good_price'),
    firstPurchasePrice: integer('first_purchase_price'),
    firstCount: integer('first_count').notNull().default(0),
    activityId: integer('activity_id'),
    activityPrice: integer('activity_price'),
    activityEndsAt: at('activity_ends_at'),
  },
  (t) => [
    uniqueIndex('goods_prices_good_time_key').on(t.goodId, t.goodTime),
    check('goods_prices_positive_check', sql`${t.goodPrice} > 0 and ${t.goodTime} > 0`),
  ],
)

export const zones = pgTable('zones', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  sort: integer('sort').notNull().default(0),
  /** Off (the console's 商品与价格): not offered for new phones, flash sales, trials or moves; phones there stay. */
  onSale: boolean('on_sale').notNull().default(true),
})

/**
 * A goods' stock in one zone is spread over STOCK_SLOTS rows. An order takes its units from one slot
 * picked at random and holds that row until it commits, so buyers of one goods in one zone wait for
 * each other only when they pick the same slot (reserveStock, stock-slots.ts). 16 is more than a
 * server's database connections (10), so concurrent orders mostly find different slots.
 */
export const STOCK_SLOTS = 16

/** Units still for sale per goods × zone × slot; read summed per goods × zone through goodsInventory. */
export const goodsStockSlots = pgTable(
  'goods_stock_slots',
  {
    goodId: integer('good_id')
      .notNull()
      .references(() => goods.id, { onDelete: 'cascade' }),
    zoneId: integer('zone_id')
      .notNull()
      .references(() => zones.id, { onDelete: 'cascade' }),
    slot: smallint('slot').notNull(),
    stock: integer('stock').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.goodId, t.zoneId, t.slot] }),
    check('goods_stock_slots_stock_check', sql`${t.stock} >= 0`),
    check(
      'goods_stock_slots_slot_check',
      sql`${t.slot} >= 0 and ${t.slot} < ${sql.raw(String(STOCK_SLOTS))}`,
    ),
  ],
)

/** Units still for sale per goods × zone: what every read of stock uses. */
export const goodsInventory = pgView('goods_inventory').as((qb) =>
  qb
    .select({
      goodId: goodsStockSlots.goodId,
      zoneId: goodsStockSlots.zoneId,
      stock: sql<number>`sum(${goodsStockSlots.stock})::int`.as('stock'),
    })
    .from(goodsStockSlots)
    .groupBy(goodsStockSlots.goodId, goodsStockSlots.zoneId),
)

export type { OrderKind }

/**
 * The statuses of a live order (unpaid, paid, completed) as SQL literals. Partial indexes over live
 * orders name them in their predicates, and a query can use such an index in the plan PostgreSQL caches
 * only if it names them the same way: as literals, not parameters (services/orders/order-pricing.ts).
 */
export const LIVE_ORDER_STATUSES = sql.raw(
  [OrderStatus.unpaid, OrderStatus.paid, OrderStatus.completed].join(', '),
)

export const orders = pgTable(
  'orders',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    orderNo: text('order_no').notNull(),
    /** Who created the order. */
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Who paid it, when that is someone else (big-user link orders); the phones go to them. */
    buyerId: integer('buyer_id').references(() => users.id, { onDelete: 'set null' }),
    businessType: smallint('business_type').notNull(),
    kind: text('kind').$type<OrderKind>().notNull(),
    status: smallint('status').notNull().default(0),
    amount: integer('amount').notNull(),
    originalAmount: integer('original_amount').notNull(),
    quantity: integer('quantity').notNull(),
    goodId: integer('good_id').references(() => goods.id),
    priceId: integer('price_id').references(() => goodsPrices.id),
    goodTime: integer('good_time'),
    zoneId: integer('zone_id').references(() => zones.id),
    /** Stock held by this unpaid order; handed back exactly once on cancel or timeout. */
    reservedGoodId: integer('reserved_good_id'),
    reservedZoneId: integer('reserved_zone_id'),
    reservedQuantity: integer('reserved_quantity').notNull().default(0),
    deviceIds: jsonb('device_ids').$type<number[]>().notNull().default([]),
    payMethod: smallint('pay_method'),
    payDeadline: at('pay_deadline').notNull(),
    idempotencyKey: text('idempotency_key').notNull(),
    linkToken: text('link_token'),
    remark: text('remark'),
    detail: jsonb('detail').$type<Record<string, unknown>>().notNull().default({}),
    createdAt: at('created_at').notNull(),
    paidAt: at('paid_at'),
    completedAt: at('completed_at'),
    closedAt: at('closed_at'),
    /** A new-phone order made while its creator had no other live one (priced as a first order). */
    firstOrder: boolean('first_order').notNull().default(false),
  },
  (t) => [
    uniqueIndex('orders_order_no_key').on(t.orderNo),
    uniqueIndex('orders_user_idempotency_key').on(t.userId, t.idempotencyKey),
    // One live first order per user, whichever path made it (services/orders/order-at-once.ts takes no lock on
    // the buyer, so two first orders made at once meet here). Statuses: unpaid, paid, completed.
    uniqueIndex('orders_live_first_order_key')
      .on(t.userId)
      .where(sql`${t.firstOrder} and ${t.status} in (${LIVE_ORDER_STATUSES})`),
    // This and orders_buyer_idx hold only the orders that have a link or another buyer (most have
    // neither), so writing an ordinary order touches neither. `= $1` implies not null: lookups use them.
    uniqueIndex('orders_link_token_key')
      .on(t.linkToken)
      .where(sql`${t.linkToken} is not null`),
    index('orders_user_idx').on(t.userId, t.createdAt),
    // A user's live new-phone orders, newest first (buyer-standing.ts newestLiveNewOrderOf): whether the
    // next is a first order, asked on every new-phone order and quote.
    index('orders_live_new_idx')
      .on(t.userId, t.createdAt)
      .where(sql`${t.kind} = 'new' and ${t.status} in (${LIVE_ORDER_STATUSES})`),
    index('orders_buyer_idx')
      .on(t.buyerId, t.createdAt)
      .where(sql`${t.buyerId} is not null`),
    index('orders_unpaid_idx').on(t.status, t.payDeadline),
    // A user's orders paid and not yet delivered (services/wallet/user-flux.ts): a few at any time.
    index('orders_paid_undelivered_idx')
      .on(t.userId)
      .where(sql`${t.status} = 1`),
    // The console's order list and CSV export, newest first, and their date range (admin-orders.ts).
    index('orders_created_idx').on(t.createdAt, t.id),
    // 概览's revenue by day (admin-overview.ts): reads the window's paid orders, not the whole history.
    index('orders_paid_idx')
      .on(t.paidAt)
      .where(sql`${t.paidAt} is not null`),
    check('orders_status_check', sql`${t.status} between 0 and 5`),
    check('orders_amount_check', sql`${t.amount} >= 0 and ${t.reservedQuantity} >= 0`),
  ],
)

/** One payment attempt at a provider; tradeNo is what the provider's notification names. */
export const payments = pgTable(
  'payments',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    tradeNo: text('trade_no').notNull(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    /** Who started the payment (the buyer of a link order). */
    payerId: integer('payer_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    payMethod: smallint('pay_method').notNull(),
    amount: integer('amount').notNull(),
    /**
     * pending → paid | cancelled | failed | closed (closed at the provider by reconciliation); paid or
     * money for an order no longer payable → refunding → refunded (services/payments/refund-service.ts).
     */
    status: text('status').notNull().default('pending'),
    returnUrl: text('return_url').notNull(),
    createdAt: at('created_at').notNull(),
    settledAt: at('settled_at'),
    /** When reconciliation last asked the provider about this pending trade. */
    checkedAt: at('checked_at'),
  },
  (t) => [
    uniqueIndex('payments_trade_no_key').on(t.tradeNo),
    index('payments_order_idx').on(t.orderId),
    index('payments_pending_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'pending'`),
  ],
)

/**
 * Money sent back through the provider: one per payment, requested in the transaction that decided
 * it, sent by a job and retried (same refundNo, so the provider acts once) until the provider's word
 * is final.
 */
export const refunds = pgTable(
  'refunds',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    refundNo: text('refund_no').notNull(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    paymentId: bigint('payment_id', { mode: 'number' })
      .notNull()
      .references(() => payments.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    amount: integer('amount').notNull(),
    reason: text('reason').notNull(),
    /** requested → succeeded | failed */
    status: text('status').notNull().default('requested'),
    attempts: integer('attempts').notNull().default(0),
    lastError: text('last_error'),
    createdAt: at('created_at').notNull(),
    /** When the provider accepted the request. */
    sentAt: at('sent_at'),
    checkedAt: at('checked_at'),
    settledAt: at('settled_at'),
  },
  (t) => [
    uniqueIndex('refunds_refund_no_key').on(t.refundNo),
    uniqueIndex('refunds_payment_key').on(t.paymentId),
    index('refunds_order_idx').on(t.orderId),
    index('refunds_open_idx')
      .on(t.createdAt)
      .where(sql`${t.status} = 'requested'`),
    check('refunds_amount_check', sql`${t.amount} > 0`),
    check('refunds_status_check', sql`${t.status} in ('requested', 'succeeded', 'failed')`),
  ],
)

/**
 * The sandbox payment provider's own books, as a real provider keeps them on its side: one row per
 * trade. Confirming on the checkout page writes here before any notification is sent, so a restart
 * loses nothing the provider said yes to; our side learns of it by notification or by querying.
 */
export const sandboxPayTrades = pgTable(
  'sandbox_pay_trades',
  {
    tradeNo: text('trade_no').primaryKey(),
    /** The sandbox's own id for the trade (WeChat's transaction_id, Alipay's trade_no). */
    providerTradeId: text('provider_trade_id').notNull(),
    orderNo: text('order_no').notNull(),
    amount: integer('amount').notNull(),
    payMethod: smallint('pay_method').notNull(),
    returnUrl: text('return_url').notNull(),
    /** pending → paid | cancelled | failed | closed */
    status: text('status').notNull(),
    /** Fen refunded so far (succeeded or in progress). */
    refunded: integer('refunded').notNull().default(0),
    /** Not payable after this (the order's pay window), like WeChat's time_expire. */
    expiresAt: at('expires_at').notNull(),
    createdAt: at('created_at').notNull(),
    paidAt: at('paid_at'),
    closedAt: at('closed_at'),
  },
  (t) => [
    check(
      'sandbox_pay_trades_refunded_check',
      sql`${t.refunded} >= 0 and ${t.refunded} <= ${t.amount}`,
    ),
  ],
)

/** The sandbox provider's refunds; one finishes when its notification goes out or a query finds it due. */
export const sandboxPayRefunds = pgTable('sandbox_pay_refunds', {
  refundNo: text('refund_no').primaryKey(),
  tradeNo: text('trade_no')
    .notNull()
    .references(() => sandboxPayTrades.tradeNo, { onDelete: 'cascade' }),
  amount: integer('amount').notNull(),
  reason: text('reason').notNull(),
  /** processing → succeeded */
  status: text('status').notNull(),
  createdAt: at('created_at').notNull(),
  succeededAt: at('succeeded_at'),
})

/** Every provider notification acted upon, once per tradeNo: a replay conflicts here and changes nothing. */
export const paymentNotifications = pgTable(
  'payment_notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    provider: text('provider').notNull(),
    tradeNo: text('trade_no').notNull(),
    event: text('event').notNull(),
    outcome: text('outcome').notNull(),
    payload: jsonb('payload').notNull(),
    receivedAt: at('received_at').notNull(),
  },
  (t) => [uniqueIndex('payment_notifications_trade_key').on(t.provider, t.tradeNo)],
)

export const beanAccounts = pgTable(
  'bean_accounts',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    balance: integer('balance').notNull().default(0),
    /** Raised by every change of the balance (services/wallet/ledger.ts): /user/flux's wallet version. */
    version: integer('version').notNull().default(1),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [check('bean_accounts_balance_check', sql`${t.balance} >= 0`)],
)

/** Every change of a bean balance; the sum of `change` per user equals the balance. */
export const beanLedger = pgTable(
  'bean_ledger',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    change: integer('change').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    reason: text('reason').notNull(),
    orderId: bigint('order_id', { mode: 'number' }).references(() => orders.id, {
      onDelete: 'set null',
    }),
    remark: text('remark').notNull().default(''),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('bean_ledger_user_idx').on(t.userId, t.createdAt)],
)

export const ActivationCodeStatus = { unused: 0, used: 1 } as const

export const activationCodes = pgTable(
  'activation_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    code: text('code').notNull(),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => orders.id, { onDelete: 'cascade' }),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    goodId: integer('good_id')
      .notNull()
      .references(() => goods.id),
    goodTime: integer('good_time').notNull(),
    status: smallint('status').notNull().default(0),
    usedBy: integer('used_by').references(() => users.id, { onDelete: 'set null' }),
    usedAt: at('used_at'),
    deviceId: integer('device_id'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('activation_codes_code_key').on(t.code),
    index('activation_codes_owner_idx').on(t.ownerId, t.createdAt),
    check('activation_codes_status_check', sql`${t.status} in (0, 1)`),
  ],
)
