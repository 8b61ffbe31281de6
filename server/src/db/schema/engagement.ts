import { sql } from 'drizzle-orm'
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  smallint,
  text,
} from 'drizzle-orm/pg-core'
import { goods } from './commerce'
import { users } from './users'
import { at } from '../columns'

/** Steps of the new-user guide, shown in `sort` order. `image` is a bundled asset name or a file URL. */
export const newUserGuideSteps = pgTable('new_user_guide_steps', {
  id: integer('id').primaryKey(),
  sort: integer('sort').notNull().default(0),
  title: text('title').notNull(),
  text: text('text').notNull(),
  image: text('image').notNull(),
})

/**
 * The one free trial phone a new user may claim (single row, id 1). zonePolicy 'mostStock': the zone
 * with the most stock of the goods at claim time.
 */
export const trialOffers = pgTable(
  'trial_offers',
  {
    id: smallint('id').primaryKey(),
    enabled: boolean('enabled').notNull().default(true),
    goodId: integer('good_id')
      .notNull()
      .references(() => goods.id),
    /** How long the trial phone runs. */
    minutes: integer('minutes').notNull(),
    zonePolicy: text('zone_policy').notNull().default('mostStock'),
  },
  (t) => [check('trial_offers_minutes_check', sql`${t.minutes} > 0`)],
)

/** A claimed trial phone: one row per user ever (the primary key is what makes it once). */
export const trialClaims = pgTable('trial_claims', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  deviceId: bigint('device_id', { mode: 'number' }).notNull(),
  goodId: integer('good_id').notNull(),
  zoneId: integer('zone_id').notNull(),
  claimedAt: at('claimed_at').notNull(),
})

/** The game of the play-trial landing pages (single row, id 1). */
export const gameTrials = pgTable('game_trials', {
  id: smallint('id').primaryKey(),
  gameName: text('game_name').notNull(),
  description: text('description').notNull(),
  highlights: jsonb('highlights').$type<string[]>().notNull().default([]),
  packageName: text('package_name').notNull(),
  packageSize: bigint('package_size', { mode: 'number' }).notNull(),
  version: text('version').notNull(),
  downloadUrl: text('download_url').notNull(),
})

/** Floating control ball of the phone control page, per account. */
export const floatingBallSettings = pgTable(
  'floating_ball_settings',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    visible: boolean('visible').notNull(),
    side: text('side').notNull(),
    opacity: smallint('opacity').notNull(),
    shortcuts: jsonb('shortcuts').$type<string[]>().notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [
    check('floating_ball_side_check', sql`${t.side} in ('left', 'right')`),
    check('floating_ball_opacity_check', sql`${t.opacity} between 30 and 100`),
  ],
)

/** Who invited whom: one row per invitee, written when an account registers with an invite code. */
export const invites = pgTable(
  'invites',
  {
    inviteeId: integer('invitee_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    inviterId: integer('inviter_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    inviteCode: text('invite_code').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('invites_inviter_idx').on(t.inviterId, t.createdAt)],
)
