import {
  and,
  count,
  desc,
  eq,
  ilike,
  isNull,
  ne,
  or,
  sql,
  type SQL,
  type SQLWrapper,
} from 'drizzle-orm'
import { alias } from 'drizzle-orm/pg-core'
import { DeviceStatus } from '#domain/device-lifecycle'
import type { DeviceListQuery } from '../../contract/device'
import type { Db } from '../../db/client'
import { preparedOn } from '../../db/prepared'
import {
  deviceAutoRenew,
  deviceGrants,
  deviceGroups,
  devices,
  fleetVersions,
  users,
} from '../../db/schema'
import { autoRenewColumns, autoRenewOf, type AutoRenewColumns } from './device-auto-renew'

/** Which filters a list request uses; each combination is one prepared statement. */
interface ListShape {
  /** Phones authorised to the caller are listed too (not when filtering by a group of theirs). */
  grants: boolean
  status: boolean
  group: 'any' | 'none' | 'one'
  version: boolean
  keyword: 'none' | 'name' | 'nameOrId'
}

/** The columns of a phone that a Device shows (toDevice, device-view.ts). */
const shownColumns = {
  id: devices.id,
  name: devices.name,
  level: devices.level,
  goodId: devices.goodId,
  zoneId: devices.zoneId,
  status: devices.status,
  androidVersion: devices.androidVersion,
  imageType: devices.imageType,
  expireAt: devices.expireAt,
  groupId: devices.groupId,
  supplierInstanceId: devices.supplierInstanceId,
  coverUpdatedAt: devices.coverUpdatedAt,
  videoEdition: devices.videoEdition,
  model: devices.model,
  imageVersion: devices.imageVersion,
  busyOp: devices.busyOp,
  failReason: devices.failReason,
  createdAt: devices.createdAt,
}
export type ShownDevice = Pick<typeof devices.$inferSelect, keyof typeof shownColumns>

const grantOwners = alias(users, 'grant_owner')

/**
 * What the list shows of a phone besides its own columns and the reference data (goods, zone and status
 * names, which the caller takes from ReferenceDataService): its group's name, the grant it is listed under
 * and its owner's 自动续费 (device-view.ts autoRenewColumns).
 */
const relatedColumns = (expireAt: SQLWrapper) => ({
  groupName: deviceGroups.name,
  grantPermission: deviceGrants.permission,
  grantExpiresAt: deviceGrants.expiresAt,
  ownerMobile: grantOwners.mobilePhone,
  ...autoRenewColumns(expireAt),
})

/** One listed phone. */
export interface ListedPhone extends ShownDevice, AutoRenewColumns {
  groupName: string | null
  grantPermission: number | null
  grantExpiresAt: Date | null
  ownerMobile: string | null
}

const p = (name: string) => sql.placeholder(name)

/** The caller's grants that are neither revoked nor run out. */
const liveGrantsToCaller = () =>
  and(
    eq(deviceGrants.granteeId, p('userId')),
    isNull(deviceGrants.revokedAt),
    sql`${deviceGrants.expiresAt} > ${p('now')}`,
  )

const liveGrantOf = (deviceId: SQLWrapper) =>
  and(eq(deviceGrants.deviceId, deviceId), liveGrantsToCaller())

/** The caller's fleet version (db/schema/devices.ts); no row until their list first changes. */
const fleetVersionOfCaller = (db: Db) =>
  db
    .select({ version: fleetVersions.version })
    .from(fleetVersions)
    .where(eq(fleetVersions.userId, p('userId')))

/** The list's fields in the order of each phone's JSON array; `decode` reads them back. */
const listedKeys = [
  ...Object.keys(shownColumns),
  ...Object.keys(relatedColumns(devices.expireAt)),
] as (keyof ListedPhone)[]
const at = Object.fromEntries(listedKeys.map((key, index) => [key, index])) as Record<
  keyof ListedPhone,
  number
>

/**
 * The page of phones (read in id order from an index), then the names and grant of those rows only,
 * each phone as one JSON array, with the total from a count of every match. Prepared, so PostgreSQL
 * plans it once per connection (planning this join cost more than running it); JSON arrays because
 * decoding ~30 columns × 20 rows field by field cost the server more than PostgreSQL spends building
 * them (json_build_object, with keys, cost twice as much as arrays).
 */
function build(db: Db, shape: ListShape) {
  const filters: (SQL | undefined)[] = [
    shape.grants
      ? // an array, not a subquery: PostgreSQL can then read both sides from indexes
        or(
          eq(devices.userId, p('userId')),
          sql`${devices.id} = any(array(${db
            .select({ deviceId: deviceGrants.deviceId })
            .from(deviceGrants)
            .where(liveGrantsToCaller())}))`,
        )
      : eq(devices.userId, p('userId')),
    shape.status ? eq(devices.status, p('status')) : ne(devices.status, DeviceStatus.released),
  ]
  if (shape.group === 'none') filters.push(isNull(devices.groupId))
  if (shape.group === 'one') filters.push(eq(devices.groupId, p('groupId')))
  if (shape.version) filters.push(eq(devices.androidVersion, p('version')))
  if (shape.keyword === 'name') filters.push(ilike(devices.name, p('pattern')))
  if (shape.keyword === 'nameOrId') {
    filters.push(or(ilike(devices.name, p('pattern')), eq(devices.id, p('id'))))
  }
  const where = and(...filters)
  const page = db
    .select(shownColumns)
    .from(devices)
    .where(where)
    .orderBy(desc(devices.id))
    .limit(p('limit'))
    .offset(p('offset'))
    .as('page')
  const pageFields = page._.selectedFields as Record<string, SQLWrapper>
  const related = relatedColumns(pageFields.expireAt) as Record<string, SQLWrapper>
  const values = listedKeys.map((key) => pageFields[key] ?? related[key])
  const total = db.select({ total: count() }).from(devices).where(where)
  const version = fleetVersionOfCaller(db)
  // the list changes by itself when a grant it lists phones under runs out
  const nextGrantExpiry = db
    .select({ at: sql`min(${deviceGrants.expiresAt})` })
    .from(deviceGrants)
    .where(liveGrantsToCaller())
  // the caller's own 自动续费 only: a grantee never sees what pays for the owner's phone
  const autoRenew = autoRenewOf(page.id, p('userId'))
  return db
    .select({
      phones: sql<
        unknown[][] | null
      >`json_agg(json_build_array(${sql.join(values, sql`, `)}) order by ${page.id} desc)`,
      // an aggregate over no rows is still one row, so the total comes back with an empty page
      total: sql<number>`(${total})`.mapWith(Number),
      // read in the same snapshot as the page: what was listed is at least as new as this version
      version: sql<number>`coalesce((${version}), 0)`.mapWith(Number),
      nextGrantExpiry: shape.grants
        ? sql<string | null>`(${nextGrantExpiry})`
        : sql<string | null>`null::timestamptz`,
    })
    .from(page)
    .leftJoin(deviceGroups, eq(deviceGroups.id, page.groupId))
    .leftJoin(deviceGrants, shape.grants ? liveGrantOf(page.id) : sql`false`)
    .leftJoin(grantOwners, eq(grantOwners.id, deviceGrants.ownerId))
    .leftJoin(deviceAutoRenew, autoRenew)
}

const time = (value: unknown) => (value == null ? null : new Date(value as string))

/** One phone's JSON array as an object, written out key by key (a literal builds far faster). */
function decode(v: unknown[]): ListedPhone {
  return {
    id: v[at.id] as number,
    name: v[at.name] as string,
    level: v[at.level] as number,
    goodId: v[at.goodId] as number,
    zoneId: v[at.zoneId] as number,
    status: v[at.status] as number,
    androidVersion: v[at.androidVersion] as string,
    imageType: v[at.imageType] as number,
    expireAt: time(v[at.expireAt])!,
    groupId: v[at.groupId] as number | null,
    supplierInstanceId: v[at.supplierInstanceId] as string | null,
    coverUpdatedAt: time(v[at.coverUpdatedAt]),
    videoEdition: v[at.videoEdition] as boolean,
    model: v[at.model] as string | null,
    imageVersion: v[at.imageVersion] as string | null,
    busyOp: v[at.busyOp] as ListedPhone['busyOp'],
    failReason: v[at.failReason] as string | null,
    createdAt: time(v[at.createdAt])!,
    groupName: v[at.groupName] as string | null,
    grantPermission: v[at.grantPermission] as number | null,
    grantExpiresAt: time(v[at.grantExpiresAt]),
    ownerMobile: v[at.ownerMobile] as string | null,
    autoRenewDays: v[at.autoRenewDays] as number | null,
    autoRenewPayMethod: v[at.autoRenewPayMethod] as number | null,
    autoRenewFailure: v[at.autoRenewFailure] as string | null,
  }
}

/** The device list's prepared statements, one per filter combination, made on first use. */
export class DeviceListQueries {
  constructor(private readonly db: Db) {}

  /** One page of the user's phones (and those authorised to them) with the total. */
  async page(userId: number, query: DeviceListQuery, now: Date, limit: number, offset: number) {
    const keyword = query.keyword?.trim() ?? ''
    const id = /^\d{1,9}$/.test(keyword) ? Number(keyword) : null
    const shape: ListShape = {
      grants: query.groupId == null,
      status: query.status != null,
      group: query.groupId == null ? 'any' : query.groupId === 0 ? 'none' : 'one',
      version: query.version === 1 || query.version === 2,
      keyword: !keyword ? 'none' : id ? 'nameOrId' : 'name',
    }
    const name = `device_list_${+shape.grants}${+shape.status}${shape.group}${+shape.version}${shape.keyword}`
    const statement = preparedOn(this.db, name, (db) => build(db, shape))
    const [{ phones, total, version, nextGrantExpiry }] = await statement.execute({
      userId,
      now: now.toISOString(),
      status: query.status,
      groupId: query.groupId,
      version: query.version === 1 ? 'B' : 'H',
      pattern: `%${keyword.replace(/[\\%_]/g, (c) => `\\${c}`)}%`,
      id,
      limit,
      offset,
    })
    return {
      phones: (phones ?? []).map(decode),
      total,
      version,
      nextGrantExpiry: time(nextGrantExpiry),
    }
  }

  /** The user's fleet version now (0 before their list ever changed). */
  async version(userId: number): Promise<number> {
    const statement = preparedOn(this.db, 'fleet_version', fleetVersionOfCaller)
    const [row] = await statement.execute({ userId })
    return row?.version ?? 0
  }
}
