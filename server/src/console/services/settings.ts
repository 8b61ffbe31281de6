import { createHash } from 'node:crypto'
import { and, asc, eq, inArray, lte, sql } from 'drizzle-orm'
import { OperatorCode } from '#domain/result-codes'
import {
  COMMON_CONFIG_FIELDS,
  stockBelowTaken,
  validateActivityEdit,
  validateCommonConfig,
  validateSeckillItemEdit,
  type CommonConfigEdit,
  type CommonConfigField,
} from '#domain/console/settings-edits'
import type {
  ActivityEditBody,
  AdminActivityRow,
  AdminCommonConfig,
  AdminSeckillItem,
  AdminSettings,
  CommonConfigBody,
  SeckillItemEditBody,
} from '../contract/settings'
import type { Db } from '../../db/client'
import { activities, commonConfig, goods, goodsPrices, seckillItems } from '../../db/schema'
import { DEFAULT_COMMON_CONFIG } from '../../db/seed'
import { BizError } from '../../domain/biz-error'
import type { CommonConfigService } from '../../services/config-service'
import type { ServiceContext } from '../../services/context'
import type { Actor } from './operator-accounts'
import type { OperatorAuditService } from './operator-audit'

/** A row's version: a digest of what the console edits on it (any change, console or SQL, moves it). */
const digest = (values: unknown) =>
  createHash('sha256').update(JSON.stringify(values)).digest('base64url').slice(0, 16)

const COMMON_KEYS = Object.keys(COMMON_CONFIG_FIELDS) as CommonConfigField[]

const commonFields = (config: CommonConfigEdit): CommonConfigEdit => ({
  renewalReminderMsg: config.renewalReminderMsg,
  customerServicePhone: config.customerServicePhone,
  customerServiceHours: config.customerServiceHours,
})

type ActivityDbRow = typeof activities.$inferSelect
type ItemDbRow = typeof seckillItems.$inferSelect

const activityFields = (row: ActivityDbRow) => ({
  title: row.title,
  summary: row.summary,
  startsAt: row.startsAt.getTime(),
  endsAt: row.endsAt.getTime(),
  enabled: row.enabled === 1,
})

const activityRow = (row: ActivityDbRow): AdminActivityRow => {
  const fields = activityFields(row)
  return { id: row.id, kind: row.kind, sort: row.sort, ...fields, version: digest(fields) }
}

/** `sold` moves with every purchase, so it is not part of the version: only what operators set is. */
const itemFields = (row: ItemDbRow) => ({ price: row.price, stock: row.stock, sort: row.sort })
const itemVersion = (row: ItemDbRow) => digest(itemFields(row))

const changed = () => new BizError(OperatorCode.SETTINGS_CHANGED)
const invalid = (why: string) => new BizError(OperatorCode.SETTINGS_INVALID, why)

/**
 * 设置: the common config, the customer-service address and the activities with their flash-sale items
 * as stored, and the edits operators make to them, each checked against the row's version, by
 * #domain/console/settings-edits, and audited before/after in its own transaction. Nothing here is cached on
 * the server: getCommonConfig, getUrl, /activity/list and /activity/detail read the tables on every call,
 * so the user site sees an edit on its next read (the H5 keeps the common config up to 5 minutes).
 */
export class AdminSettingsService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly audit: OperatorAuditService,
    private readonly commonConfig: CommonConfigService,
  ) {}

  async read(): Promise<AdminSettings> {
    const db = this.ctx.db
    const [config, activityRows, itemRows] = await Promise.all([
      this.commonConfig.commonConfig(),
      db
        .select()
        .from(activities)
        .orderBy(asc(activities.startsAt), asc(activities.sort), asc(activities.id)),
      db
        .select({ item: seckillItems, price: goodsPrices, good: goods })
        .from(seckillItems)
        .innerJoin(goodsPrices, eq(goodsPrices.id, seckillItems.priceId))
        .innerJoin(goods, eq(goods.id, goodsPrices.goodId))
        .orderBy(asc(seckillItems.sort), asc(seckillItems.id)),
    ])
    return {
      common: this.commonRow({ ...commonFields(config), appVersion: config.appVersion }),
      customerServiceUrl: this.ctx.settings.customerServiceUrl,
      activities: activityRows.map((row) => ({
        ...activityRow(row),
        items: itemRows
          .filter(({ item }) => item.activityId === row.id)
          .map(({ item, price, good }): AdminSeckillItem => ({
            id: item.id,
            priceId: price.id,
            goodsName: good.name,
            configName: good.configName,
            goodTime: price.goodTime,
            goodPrice: price.goodPrice,
            ...itemFields(item),
            sold: item.sold,
            version: itemVersion(item),
          })),
      })),
    }
  }

  private commonRow(config: CommonConfigEdit & { appVersion: string }): AdminCommonConfig {
    const fields = commonFields(config)
    return { ...fields, appVersion: config.appVersion, version: digest(fields) }
  }

  /** The three common-config texts, set together (appVersion is the server's and stays). */
  async editCommon(actor: Actor, body: CommonConfigBody): Promise<AdminCommonConfig> {
    const edit = commonFields(body)
    const why = validateCommonConfig(edit)
    if (why) throw invalid(why)
    return this.ctx.db.transaction(async (tx) => {
      const before = await this.lockedCommon(tx)
      if (digest(before) !== body.version) throw changed()
      for (const key of COMMON_KEYS) {
        await tx
          .insert(commonConfig)
          .values({ key, value: edit[key] })
          .onConflictDoUpdate({ target: commonConfig.key, set: { value: edit[key] } })
      }
      await this.audit.record(tx, {
        ...actor,
        action: 'settings.common',
        targetType: 'common_config',
        targetId: null,
        before,
        after: edit,
      })
      const [version] = await tx
        .select({ value: commonConfig.value })
        .from(commonConfig)
        .where(eq(commonConfig.key, 'appVersion'))
      return this.commonRow({
        ...edit,
        appVersion: version?.value ?? DEFAULT_COMMON_CONFIG.appVersion,
      })
    })
  }

  /**
   * The stored texts (defaults where a key has no row), with every edited key's row locked so two
   * operators' edits are serialised and the second is refused by its version.
   */
  private async lockedCommon(tx: Db): Promise<CommonConfigEdit> {
    // a key never stored reads as its default (CommonConfigService.commonConfig): store that to lock a row
    await tx
      .insert(commonConfig)
      .values(COMMON_KEYS.map((key) => ({ key, value: DEFAULT_COMMON_CONFIG[key] })))
      .onConflictDoNothing()
    const rows = await tx
      .select()
      .from(commonConfig)
      .where(inArray(commonConfig.key, COMMON_KEYS))
      .orderBy(asc(commonConfig.key))
      .for('update')
    const stored = new Map(rows.map((row) => [row.key, row.value]))
    const pick = (key: CommonConfigField) => stored.get(key) ?? DEFAULT_COMMON_CONFIG[key]
    return {
      renewalReminderMsg: pick('renewalReminderMsg'),
      customerServicePhone: pick('customerServicePhone'),
      customerServiceHours: pick('customerServiceHours'),
    }
  }

  /**
   * An activity's title, summary, time window and on/off. Off (or outside its window), the user site no longer
   * lists it and its flash sale sells nothing (takeSeckillUnit in services/orders/seckill-units.ts checks
   * both in the order's transaction); orders already made keep their units.
   */
  async editActivity(actor: Actor, id: number, body: ActivityEditBody): Promise<AdminActivityRow> {
    const edit = {
      title: body.title,
      summary: body.summary,
      startsAt: body.startsAt,
      endsAt: body.endsAt,
      enabled: body.enabled,
    }
    const why = validateActivityEdit(edit)
    if (why) throw invalid(why)
    return this.ctx.db.transaction(async (tx) => {
      const [row] = await tx.select().from(activities).where(eq(activities.id, id)).for('update')
      if (!row) throw changed()
      const before = activityRow(row)
      if (before.version !== body.version) throw changed()
      const [updated] = await tx
        .update(activities)
        .set({
          title: edit.title,
          summary: edit.summary,
          startsAt: new Date(edit.startsAt),
          endsAt: new Date(edit.endsAt),
          enabled: edit.enabled ? 1 : 0,
        })
        .where(eq(activities.id, id))
        .returning()
      const after = activityRow(updated)
      await this.audit.record(tx, {
        ...actor,
        action: 'settings.activity',
        targetType: 'activity',
        targetId: id,
        before: activityFields(row),
        after: activityFields(updated),
      })
      return after
    })
  }

  /**
   * A flash-sale item's price, stock and sort. `stock` is every unit offered, those sold and held
   * included, so it may not go below `sold`. A purchase takes a unit with
   * `sold = sold + 1 where sold < stock` (takeSeckillUnit, services/orders/seckill-units.ts) and a closed
   * order gives it back with `sold - 1`: the row is locked here, and the new stock is written only
   * `where sold <= stock`, so an edit racing a purchase either sees the unit taken (and is refused if below it) or makes the
   * purchase wait and then check the new stock. Stock is conserved: sold never exceeds stock.
   */
  async editSeckillItem(
    actor: Actor,
    id: number,
    body: SeckillItemEditBody,
  ): Promise<AdminSeckillItem> {
    const edit = { price: body.price, stock: body.stock, sort: body.sort }
    const early = validateSeckillItemEdit(edit, 0)
    if (early) throw invalid(early)
    return this.ctx.db.transaction(async (tx) => {
      const [found] = await tx
        .select({ item: seckillItems, price: goodsPrices, good: goods })
        .from(seckillItems)
        .innerJoin(goodsPrices, eq(goodsPrices.id, seckillItems.priceId))
        .innerJoin(goods, eq(goods.id, goodsPrices.goodId))
        .where(eq(seckillItems.id, id))
        .for('update', { of: seckillItems })
      if (!found) throw changed()
      if (itemVersion(found.item) !== body.version) throw changed()
      const why = validateSeckillItemEdit(edit, found.item.sold)
      if (why) throw invalid(why)
      const [updated] = await tx
        .update(seckillItems)
        .set(edit)
        .where(and(eq(seckillItems.id, id), lte(seckillItems.sold, sql`${edit.stock}`)))
        .returning()
      // the lock makes this unreachable; kept so a missed lock can never write stock below sold
      if (!updated) throw invalid(stockBelowTaken(found.item.sold))
      await this.audit.record(tx, {
        ...actor,
        action: 'settings.seckillItem',
        targetType: 'seckill_item',
        targetId: id,
        before: {
          activityId: found.item.activityId,
          ...itemFields(found.item),
          sold: found.item.sold,
        },
        after: { activityId: updated.activityId, ...itemFields(updated), sold: updated.sold },
      })
      return {
        id,
        priceId: found.price.id,
        goodsName: found.good.name,
        configName: found.good.configName,
        goodTime: found.price.goodTime,
        goodPrice: found.price.goodPrice,
        ...itemFields(updated),
        sold: updated.sold,
        version: itemVersion(updated),
      }
    })
  }
}
