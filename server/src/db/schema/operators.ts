/**
 * Operator accounts (the console at /admin), separate from users: their sessions and the append-only
 * audit log of what they did. console/services/operator-*.ts read and write them.
 */
import { sql } from 'drizzle-orm'
import {
  bigint,
  bigserial,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { at } from '../columns'

export const operators = pgTable(
  'operators',
  {
    id: serial('id').primaryKey(),
    /** Sign-in name, stored in lower case (#domain/console/operator-roles OPERATOR_NAME_PATTERN). */
    name: text('name').notNull(),
    role: text('role').notNull(),
    /** argon2id (services/accounts/passwords.ts). */
    passwordHash: text('password_hash').notNull(),
    /** Base32 TOTP secret, shown once when the operator is created. */
    totpSecret: text('totp_secret').notNull(),
    /** The 30 s step of the last TOTP code accepted: a code is accepted once, never replayed. */
    lastTotpStep: bigint('last_totp_step', { mode: 'number' }),
    /**
     * Codes tried after the right password since totp_guesses_since, counted before each is checked and
     * ended by a sign-in (SERVER_DEFAULTS.operatorTotpGuessesPer15Minutes).
     */
    totpGuesses: integer('totp_guesses').notNull().default(0),
    totpGuessesSince: at('totp_guesses_since'),
    disabledAt: at('disabled_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('operators_name_key').on(t.name),
    check('operators_name_length', sql`char_length(${t.name}) between 1 and 32`),
    check('operators_role_known', sql`${t.role} in ('admin', 'operations', 'finance', 'support')`),
  ],
)

export const operatorSessions = pgTable(
  'operator_sessions',
  {
    /** sha-256 (hex) of the cookie's secret; the secret itself is never stored. */
    tokenHash: text('token_hash').primaryKey(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    csrfToken: text('csrf_token').notNull(),
    createdAt: at('created_at').notNull(),
    /** Idle expiry counts from here (SERVER_DEFAULTS.operatorSessionIdleMs). */
    lastSeenAt: at('last_seen_at').notNull(),
    /** Absolute expiry: created_at + SERVER_DEFAULTS.operatorSessionMaxMs. */
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [index('operator_sessions_operator_idx').on(t.operatorId)],
)

/**
 * Every operator action, its target before and after. Append-only in the database: a trigger refuses
 * UPDATE, DELETE and TRUNCATE (migration 0023), whoever asks.
 */
export const operatorAudit = pgTable(
  'operator_audit',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** null for admin:create on the command line (actor 'cli'). */
    operatorId: integer('operator_id').references(() => operators.id),
    actor: text('actor').notNull(),
    at: at('at').notNull(),
    action: text('action').notNull(),
    targetType: text('target_type').notNull(),
    targetId: text('target_id'),
    before: jsonb('before'),
    after: jsonb('after'),
    ip: text('ip'),
  },
  (t) => [
    index('operator_audit_at_idx').on(t.at, t.id),
    index('operator_audit_operator_idx').on(t.operatorId, t.at),
    index('operator_audit_target_idx').on(t.targetType, t.targetId),
    check('operator_audit_actor', sql`${t.actor} in ('operator', 'cli')`),
  ],
)

/**
 * A message an operator sent (POST /messages): to one user, or (userId null) to every user registered
 * when it was sent (id <= lastUserId). A broadcast is delivered by the job deliver-operator-message in
 * batches, each batch in its own transaction together with its cursor (deliveredThrough), so no
 * transaction holds locks over all users and a process dying halfway resumes where it stopped.
 */
export const operatorMessages = pgTable(
  'operator_messages',
  {
    id: serial('id').primaryKey(),
    operatorId: integer('operator_id')
      .notNull()
      .references(() => operators.id),
    /** The one user it goes to; null: a broadcast. */
    userId: integer('user_id'),
    title: text('title').notNull(),
    content: text('content').notNull(),
    /** A broadcast's recipients: users whose id is at most this (those registered when it was sent). */
    lastUserId: integer('last_user_id').notNull(),
    /** Users up to this id have their message row (the delivery job's cursor). */
    deliveredThrough: integer('delivered_through').notNull().default(0),
    /** Message rows written so far. */
    recipients: integer('recipients').notNull().default(0),
    createdAt: at('created_at').notNull(),
    deliveredAt: at('delivered_at'),
  },
  (t) => [index('operator_messages_created_idx').on(t.createdAt, t.id)],
)
