/**
 * The console's 设置 API (console/routes/settings.ts): the common config the user site reads, the
 * customer-service address (environment, read-only), activities and their flash-sale items. Every edit
 * carries the `version` the operator read; one changed since (or gone) is refused with 4096
 * (OperatorCode.SETTINGS_CHANGED) and one breaking src/domain/console/settings-edits.ts with 4095. Money is fen.
 */
import { Type, type Static } from '@sinclair/typebox'
import { MAX_PRICE_FEN } from '#domain/console/catalogue-edits'
import {
  ACTIVITY_SUMMARY_MAX,
  ACTIVITY_TITLE_MAX,
  COMMON_CONFIG_FIELDS,
  MAX_SECKILL_SORT,
  MAX_SECKILL_STOCK,
  MAX_SETTINGS_TIME,
} from '#domain/console/settings-edits'
import { Nullable } from '../../contract/common'

const Version = Type.String({ minLength: 1, maxLength: 64 })
const Id = Type.Integer({ minimum: 1, maximum: 2_147_483_647 })
const Time = Type.Integer({ minimum: 1, maximum: MAX_SETTINGS_TIME })
/** The schema only bounds the size; the rules (and their Chinese messages) are settings-edits.ts's. */
const Text = (max: number) => Type.String({ maxLength: max * 2 })

export const AdminCommonConfig = Type.Object({
  renewalReminderMsg: Type.String(),
  customerServicePhone: Type.String(),
  customerServiceHours: Type.String(),
  /** The server's own version (APP_VERSION): not editable. */
  appVersion: Type.String(),
  version: Version,
})
export type AdminCommonConfig = Static<typeof AdminCommonConfig>

export const AdminSeckillItem = Type.Object({
  id: Type.Integer(),
  priceId: Type.Integer(),
  goodsName: Type.String(),
  configName: Type.String(),
  /** Days. */
  goodTime: Type.Integer(),
  /** The goods' price for those days (fen), for comparison. */
  goodPrice: Type.Integer(),
  price: Type.Integer(),
  stock: Type.Integer(),
  /** Units sold or held by unpaid orders: the stock can never be set below it. */
  sold: Type.Integer(),
  sort: Type.Integer(),
  version: Version,
})
export type AdminSeckillItem = Static<typeof AdminSeckillItem>

export const AdminActivity = Type.Object({
  id: Type.Integer(),
  title: Type.String(),
  summary: Type.String(),
  kind: Type.Union([Type.Literal('seckill'), Type.Literal('info')]),
  /** ms since epoch */
  startsAt: Type.Integer(),
  endsAt: Type.Integer(),
  enabled: Type.Boolean(),
  sort: Type.Integer(),
  version: Version,
  items: Type.Array(AdminSeckillItem),
})
export type AdminActivity = Static<typeof AdminActivity>

/** GET /settings (every role). */
export const AdminSettings = Type.Object({
  common: AdminCommonConfig,
  /** The online customer-service address (/customer/customerService/getUrl): CUSTOMER_SERVICE_URL. */
  customerServiceUrl: Nullable(Type.String()),
  /** By start time, then sort. */
  activities: Type.Array(AdminActivity),
})
export type AdminSettings = Static<typeof AdminSettings>

/** POST /settings/common (editSettings): the three texts as they should be. */
export const CommonConfigBody = Type.Object({
  version: Version,
  renewalReminderMsg: Text(COMMON_CONFIG_FIELDS.renewalReminderMsg.max),
  customerServicePhone: Text(COMMON_CONFIG_FIELDS.customerServicePhone.max),
  customerServiceHours: Text(COMMON_CONFIG_FIELDS.customerServiceHours.max),
})
export type CommonConfigBody = Static<typeof CommonConfigBody>

export const SettingsIdParams = Type.Object({ id: Id })
export type SettingsIdParams = Static<typeof SettingsIdParams>

/** POST /settings/activities/:id (editSettings): title, summary, time window, on or off. */
export const ActivityEditBody = Type.Object({
  version: Version,
  title: Text(ACTIVITY_TITLE_MAX),
  summary: Text(ACTIVITY_SUMMARY_MAX),
  startsAt: Time,
  endsAt: Time,
  enabled: Type.Boolean(),
})
export type ActivityEditBody = Static<typeof ActivityEditBody>

/** The answer to an activity edit: the activity without its items. */
export const AdminActivityRow = Type.Omit(AdminActivity, ['items'])
export type AdminActivityRow = Static<typeof AdminActivityRow>

/** POST /settings/seckill-items/:id (editSettings): price (fen), total stock, sort. */
export const SeckillItemEditBody = Type.Object({
  version: Version,
  price: Type.Integer({ minimum: 1, maximum: MAX_PRICE_FEN }),
  stock: Type.Integer({ minimum: 0, maximum: MAX_SECKILL_STOCK }),
  sort: Type.Integer({ minimum: 0, maximum: MAX_SECKILL_SORT }),
})
export type SeckillItemEditBody = Static<typeof SeckillItemEditBody>
