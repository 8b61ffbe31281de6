/** Accounts and what hangs off them: login, tokens, messages, feedback, usage logs. */
import { sql } from 'drizzle-orm'
import {
  bigserial,
  boolean,
  check,
  doublePrecision,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
} from 'drizzle-orm/pg-core'
import { at } from '../columns'

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    /** NULL once the account is deleted, which frees the number for a new account. */
    mobilePhone: text('mobile_phone'),
    passwordHash: text('password_hash'),
    name: text('name').notNull().default(''),
    avatar: text('avatar').notNull().default(''),
    userType: smallint('user_type').notNull().default(1),
    checkStatus: smallint('check_status').notNull().default(0),
    realName: text('real_name'),
    idCardHash: text('id_card_hash'),
    idCardMasked: text('id_card_masked'),
    openId: text('open_id'),
    unionId: text('union_id'),
    inviteCode: text('invite_code').notNull(),
    invitedBy: text('invited_by'),
    channel: text('channel'),
    clientType: text('client_type'),
    channelCode: text('channel_code'),
    preGroup: text('pre_group'),
    shareUser: integer('share_user'),
    deviceId: text('device_id'),
    brand: text('brand'),
    deviceModel: text('device_model'),
    osName: text('os_name'),
    system: text('system'),
    osVersion: text('os_version'),
    companyName: text('company_name'),
    companyAddress: text('company_address'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    openActivityBall: smallint('open_activity_ball').notNull().default(0),
    frozen: boolean('frozen').notNull().default(false),
    /**
     * Company verification: 0 none, 1 requested (company details saved), 2 verified by an operator,
     * 3 rejected. userType is 2 only while verified.
     */
    companyStatus: smallint('company_status').notNull().default(0),
    /**
     * Stock units held by this user's unpaid orders, kept by a trigger on orders; a check caps it
     * (users_unpaid_units_cap, migration 0016) so nobody can hold a zone's stock without paying.
     */
    unpaidUnits: integer('unpaid_units').notNull().default(0),
    /**
     * The person behind this account took the first-purchase price, or the first-recharge offer, on an
     * earlier account (benefit_claims): set when the account is registered or a WeChat is bound to it,
     * never cleared (services/accounts/benefits.ts).
     */
    firstPurchaseUsed: boolean('first_purchase_used').notNull().default(false),
    firstRechargeUsed: boolean('first_recharge_used').notNull().default(false),
    createdAt: at('created_at').notNull(),
    lastLoginAt: at('last_login_at'),
    deletedAt: at('deleted_at'),
  },
  (t) => [
    uniqueIndex('users_mobile_phone_key').on(t.mobilePhone),
    // The console's search by a number's last digits (console/services/users.ts): a prefix of the reversed
    // number, so `reverse(mobile_phone) like '4321%'` reads this index instead of every user.
    index('users_mobile_tail_idx').using('btree', sql`reverse(${t.mobilePhone}) text_pattern_ops`),
    uniqueIndex('users_open_id_key').on(t.openId),
    uniqueIndex('users_invite_code_key').on(t.inviteCode),
    uniqueIndex('users_id_card_hash_key').on(t.idCardHash),
    // The console's company-verification filter (admin-users.ts), newest first.
    index('users_company_status_idx').on(t.companyStatus, t.id),
    // The orphan-upload purge asks whether any user shows a file as avatar (file-service.ts).
    index('users_avatar_idx').on(t.avatar),
    check('users_user_type_check', sql`${t.userType} in (1, 2)`),
  ],
)

export const userWorkTypes = pgTable(
  'user_work_types',
  {
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    industryId: integer('industry_id').notNull(),
    worktypeId: integer('worktype_id').notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.industryId, t.worktypeId] })],
)

export const authTokens = pgTable(
  'auth_tokens',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull(),
    clientType: text('client_type'),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (t) => [
    uniqueIndex('auth_tokens_token_hash_key').on(t.tokenHash),
    index('auth_tokens_user_idx').on(t.userId),
    // the purge's two rules (SessionService.purgeDead)
    index('auth_tokens_expires_idx').on(t.expiresAt),
    index('auth_tokens_revoked_idx')
      .on(t.revokedAt)
      .where(sql`${t.revokedAt} is not null`),
  ],
)

export const smsCodes = pgTable(
  'sms_codes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    mobilePhone: text('mobile_phone').notNull(),
    type: text('type').notNull(),
    codeHash: text('code_hash').notNull(),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    /** Wrong guesses against this code; it is burned after a few, so 6 digits cannot be brute-forced. */
    failedAttempts: integer('failed_attempts').notNull().default(0),
  },
  (t) => [
    index('sms_codes_mobile_idx').on(t.mobilePhone, t.createdAt),
    index('sms_codes_created_idx').on(t.createdAt),
  ],
)

export const loginFailures = pgTable(
  'login_failures',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    mobilePhone: text('mobile_phone').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('login_failures_mobile_idx').on(t.mobilePhone, t.createdAt),
    index('login_failures_created_idx').on(t.createdAt),
  ],
)

export const mobileChangeTickets = pgTable(
  'mobile_change_tickets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    ticketHash: text('ticket_hash').notNull().unique(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [index('mobile_change_tickets_expires_idx').on(t.expiresAt)],
)

/**
 * The only way to bind a WeChat identity to a number: a WeChat login (code → openid) that found no
 * account hands its client a ticket, kept here hashed with the identity and the kind of login; the bind
 * call brings it back once, before it expires. An openid is no secret and is never taken from a client.
 */
export const wechatBindTickets = pgTable(
  'wechat_bind_tickets',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    ticketHash: text('ticket_hash').notNull().unique(),
    /** applet | officialAccount: the login that issued it, the only kind of bind that takes it */
    source: text('source').notNull(),
    openId: text('open_id').notNull(),
    unionId: text('union_id'),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
  },
  (t) => [index('wechat_bind_tickets_expires_idx').on(t.expiresAt)],
)

export const messages = pgTable(
  'messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    type: smallint('type').notNull(),
    title: text('title').notNull(),
    content: text('content').notNull(),
    readAt: at('read_at'),
    createdAt: at('created_at').notNull(),
    /** operator_messages.id when an operator sent it: one row per (operator message, user), ever. */
    operatorMessageId: integer('operator_message_id'),
  },
  (t) => [
    index('messages_user_idx').on(t.userId, t.createdAt),
    /** the retention purge (MESSAGE_KEEP_MS), oldest first */
    index('messages_created_idx').on(t.createdAt),
    uniqueIndex('messages_operator_message_user_key').on(t.operatorMessageId, t.userId),
    check('messages_type_check', sql`${t.type} between 1 and 5`),
  ],
)

export const messageSettings = pgTable('message_settings', {
  userId: integer('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  notice: boolean('notice').notNull().default(true),
  renewal: boolean('renewal').notNull().default(true),
  transfer: boolean('transfer').notNull().default(true),
  create: boolean('create').notNull().default(true),
})

export const usageLogs = pgTable(
  'usage_logs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    logId: text('log_id').notNull().unique(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    client: text('client').notNull(),
    version: integer('version').notNull(),
    terminalType: text('terminal_type').notNull(),
    accessingPages: text('accessing_pages').notNull(),
    exitMark: smallint('exit_mark').notNull(),
    firstAt: at('first_at').notNull(),
    lastAt: at('last_at').notNull(),
    reportCount: integer('report_count').notNull().default(1),
  },
  // The retention purge (USAGE_LOG_KEEP_MS). On first_at, which is written once: every report updates
  // last_at, and an index on it would make each of those updates touch an index (no HOT update).
  (t) => [index('usage_logs_first_at_idx').on(t.firstAt)],
)

export const feedback = pgTable(
  'feedback',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    content: text('content').notNull(),
    contact: text('contact'),
    /** 0 submitted, 1 replied, 2 closed */
    status: smallint('status').notNull().default(0),
    reply: text('reply'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('feedback_user_idx').on(t.userId, t.createdAt)],
)
