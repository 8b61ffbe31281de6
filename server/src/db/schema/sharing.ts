import { sql } from 'drizzle-orm'
import {
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { at } from '../columns'
import { devices } from './devices'
import { users } from './users'

/**
 * Authorisation center: an owner lets another account use a phone until expiresAt. permission 1 = view
 * (the phone and its screen), 2 = control (also the control page and commands). One live grant per
 * phone and grantee (a new grant replaces it); revoking sets revokedAt and takes effect at once.
 */
export const deviceGrants = pgTable(
  'device_grants',
  {
    id: serial('id').primaryKey(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    granteeId: integer('grantee_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceId: integer('device_id')
      .notNull()
      .references(() => devices.id, { onDelete: 'cascade' }),
    permission: smallint('permission').notNull(),
    expiresAt: at('expires_at').notNull(),
    createdAt: at('created_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (t) => [
    uniqueIndex('device_grants_live_key')
      .on(t.deviceId, t.granteeId)
      .where(sql`${t.revokedAt} is null`),
    index('device_grants_grantee_idx').on(t.granteeId, t.expiresAt),
    index('device_grants_owner_idx').on(t.ownerId, t.createdAt),
    check('device_grants_permission_check', sql`${t.permission} in (1, 2)`),
  ],
)

/**
 * A share of phones as a QR code (`cloudphone:share:<code>`): whoever scans and accepts it first gets
 * grants with its permission and days. Usable once, until expiresAt.
 */
export const deviceShareCodes = pgTable(
  'device_share_codes',
  {
    id: serial('id').primaryKey(),
    code: text('code').notNull(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceIds: jsonb('device_ids').$type<number[]>().notNull(),
    permission: smallint('permission').notNull(),
    grantDays: integer('grant_days').notNull(),
    expiresAt: at('expires_at').notNull(),
    acceptedBy: integer('accepted_by').references(() => users.id, { onDelete: 'set null' }),
    acceptedAt: at('accepted_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('device_share_codes_code_key').on(t.code),
    check('device_share_codes_permission_check', sql`${t.permission} in (1, 2)`),
  ],
)
