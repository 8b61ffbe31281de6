/**
 * A large tenant base made inside PostgreSQL: every table that grows with users is filled by
 * `insert … select … from generate_series(lo, hi)` in chunks, so no row crosses the wire and a chunk is
 * one transaction. Each chunk commits with its step's progress in `scale_seed_progress`, so a run that
 * dies (or is stopped) resumes at the next chunk. Used by bench/seed-scale.ts (the large database,
 * never CI's) and by the query-plan test (a database just large enough that PostgreSQL would choose a
 * sequential scan wherever an index is missing).
 *
 * Rows are made consistent by construction (owners of phones, grants and backups agree; ids are
 * explicit), so the chunks run with `session_replication_role = replica`: no foreign-key checks and no
 * triggers per row. What triggers keep elsewhere (fleet_versions, users.unpaid_units) is right without
 * them here: a missing fleet version is version 0, and no seeded order is unpaid.
 */

/** What seeding needs of a connection: node-postgres' client and PGlite both have it. */
export interface SqlConnection {
  query<R = Record<string, unknown>>(text: string, params?: unknown[]): Promise<{ rows: R[] }>
}

export interface ScaleSizes {
  users: number
  phones: number
  /** Phones of user 1, the biggest studio. */
  bigStudioPhones: number
  /** Studios after it (users 2…studios+1), each with studioPhones phones. */
  studios: number
  studioPhones: number
  orders: number
  /** Half bean ledger, half account ledger. */
  ledgerRows: number
  messages: number
  coupons: number
  grants: number
  backups: number
  usageLogs: number
  /** Finished jobs of the last week (what purge keeps). */
  doneJobs: number
  /**
   * Rows of each smaller per-user table: tokens, SMS codes, tickets, uploads, transfers, refunds,
   * feedback, invites, activation codes, notifications, claims, settings, the console's audit.
   */
  otherRows: number
}

/** The scale target's large tenant base. */
export const LARGE: ScaleSizes = {
  users: 100_000,
  phones: 1_000_000,
  bigStudioPhones: 10_000,
  studios: 100,
  studioPhones: 1_000,
  orders: 5_000_000,
  ledgerRows: 10_000_000,
  messages: 2_000_000,
  coupons: 2_000_000,
  grants: 2_000_000,
  backups: 2_000_000,
  usageLogs: 3_000_000,
  doneJobs: 500_000,
  otherRows: 100_000,
}

/** The same shape at 1/100: the small side of the bench's comparison (the big studio keeps 10,000). */
export const SMALL: ScaleSizes = {
  users: 1_000,
  phones: 20_000,
  bigStudioPhones: 10_000,
  studios: 1,
  studioPhones: 1_000,
  orders: 50_000,
  ledgerRows: 100_000,
  messages: 20_000,
  coupons: 20_000,
  grants: 20_000,
  backups: 20_000,
  usageLogs: 30_000,
  doneJobs: 5_000,
  otherRows: 1_000,
}

/**
 * For the benches' short mode (BENCH_SHORT=1, scripts/bench-smoke.mjs): the same shape and the same
 * 1,000 users as SMALL (the API benches sign in users by id), a tenth of their rows; seeded in seconds.
 */
export const TINY: ScaleSizes = {
  users: 1_000,
  phones: 2_000,
  bigStudioPhones: 500,
  studios: 1,
  studioPhones: 100,
  orders: 5_000,
  ledgerRows: 10_000,
  messages: 2_000,
  coupons: 2_000,
  grants: 2_000,
  backups: 2_000,
  usageLogs: 3_000,
  doneJobs: 500,
  otherRows: 1_000,
}

/**
 * For the query-plan test: every table that grows holds tens of thousands of rows, enough that
 * PostgreSQL reads a selective lookup through an index when there is one and must scan when there is
 * none; small enough to make in seconds.
 */
export const PLAN_TEST: ScaleSizes = {
  users: 20_000,
  phones: 200_000,
  bigStudioPhones: 2_000,
  studios: 10,
  studioPhones: 500,
  // 30× the console's order count cap, so a capped count reads a small share of the table
  orders: 300_000,
  ledgerRows: 60_000,
  messages: 40_000,
  coupons: 40_000,
  grants: 20_000,
  backups: 20_000,
  usageLogs: 40_000,
  doneJobs: 20_000,
  otherRows: 20_000,
}

const CHUNK = 100_000
const DAY = `interval '1 day'`

/** The number of user `i` (17 + 9 digits): valid, and apart from the numbers tests and benches use. */
export const scaleMobile = (userId: number) => `17${String(userId).padStart(9, '0')}`

/** The owner of phone `d` (an SQL expression over the column or number `d`). */
function ownerOf(s: ScaleSizes, d: string) {
  const studiosEnd = s.bigStudioPhones + s.studios * s.studioPhones
  const ordinaryUsers = s.users - s.studios - 1
  return `(case when ${d} <= ${s.bigStudioPhones} then 1
    when ${d} <= ${studiosEnd} then 2 + (${d} - ${s.bigStudioPhones} - 1) / ${s.studioPhones}
    else ${s.studios + 2} + (${d} - ${studiosEnd} - 1) % ${ordinaryUsers} end)`
}

/** A user for row `i` of a per-user table: one row in ten goes to a studio, the rest spread evenly. */
function userOf(s: ScaleSizes, i: string) {
  return `(case when ${i} % 10 = 0 then 1 + (${i} / 10) % ${s.studios + 1}
    else 1 + (${i}::bigint * 7919) % ${s.users} end)::int`
}

interface Step {
  name: string
  rows: (s: ScaleSizes) => number
  /** The insert for rows lo…hi (`$1`, `$2`), with times around `$3` (the seeding's now). */
  sql: (s: ScaleSizes) => string
}

const STEPS: Step[] = [
  {
    name: 'users',
    rows: (s) => s.users,
    sql: (s) => `
      insert into users (id, mobile_phone, name, invite_code, user_type, company_status, company_name,
        created_at, last_login_at)
      select i, '17' || lpad(i::text, 9, '0'), '用户' || i, 'SC' || i,
        case when i <= ${s.studios + 1} then 2 else 1 end,
        case when i <= ${s.studios + 1} then 2 else 0 end,
        case when i <= ${s.studios + 1} then '工作室' || i end,
        $3::timestamptz - (i % 365) * ${DAY}, $3::timestamptz - (i % 30) * ${DAY}
      from generate_series($1::int, $2::int) i`,
  },
  {
    name: 'balances',
    rows: (s) => s.users,
    sql: () => `
      with b as (insert into bean_accounts (user_id, balance, updated_at)
        select i, (i % 50) * 100, $3::timestamptz from generate_series($1::int, $2::int) i returning user_id)
      insert into account_balances (user_id, balance, updated_at)
      select user_id, (user_id % 20) * 1000, $3::timestamptz from b`,
  },
  {
    // Ten groups for each studio, then one for every other ordinary user.
    name: 'device_groups',
    rows: (s) => (s.studios + 1) * 10 + Math.floor((s.users - s.studios - 1) / 2),
    sql: (s) => `
      insert into device_groups (id, user_id, name, sort, created_at)
      select i, case when i <= ${(s.studios + 1) * 10} then 1 + (i - 1) / 10
          else ${s.studios + 2} + (i - ${(s.studios + 1) * 10} - 1) * 2 end,
        '分组' || ((i - 1) % 10 + 1), (i - 1) % 10, $3::timestamptz - interval '90 days'
      from generate_series($1::int, $2::int) i`,
  },
  {
    name: 'devices',
    rows: (s) => s.phones,
    sql: (s) => `
      insert into devices (id, user_id, name, good_id, level, zone_id, android_version, image_type,
        status, group_id, supplier_instance_id, op_seq, expire_at, released_at, supplier_released,
        created_at)
      select d, o.owner, '云手机' || d, g.id, g.level, z.id, g.android_version, g.image_type,
        st.status,
        case when o.owner <= ${s.studios + 1} and d % 4 <> 0 then (o.owner - 1) * 10 + d % 10 + 1 end,
        case when st.status <> 5 then 'scale-' || d end, 1,
        case st.status when 1 then $3::timestamptz + (d % 30) * ${DAY} + (d % 1440) * interval '1 minute'
          when 2 then $3::timestamptz - (d % 120) * interval '1 minute'
          else $3::timestamptz - (10 + d % 300) * ${DAY} end,
        case when st.status = 3 then $3::timestamptz - (d % 300) * ${DAY} end,
        st.status = 3,
        $3::timestamptz - (30 + d % 300) * ${DAY}
      from generate_series($1::int, $2::int) d
      cross join lateral (select ${ownerOf(s, 'd')} as owner) o
      cross join lateral (select case when d % 100 < 85 then 1 when d % 100 < 92 then 2
        when d % 100 < 99 then 3 else 5 end as status) st
      join scale_goods g on g.k = d % (select count(*) from scale_goods)
      join scale_zones z on z.k = d % (select count(*) from scale_zones)`,
  },
  {
    name: 'orders',
    rows: (s) => s.orders,
    sql: (s) => `
      insert into orders (id, order_no, user_id, business_type, kind, status, amount, original_amount,
        quantity, good_id, price_id, good_time, zone_id, pay_method, pay_deadline, idempotency_key,
        created_at, paid_at, completed_at, closed_at)
      select i, 'SC' || lpad(i::text, 14, '0'), u.id,
        case k.kind when 'beanRecharge' then 3 else 1 end, k.kind, st.status,
        g.price, g.price, 1,
        case when k.kind in ('new', 'renew') then g.id end,
        case when k.kind in ('new', 'renew') then g.price_id end,
        case when k.kind in ('new', 'renew') then g.good_time end,
        case when k.kind = 'new' then z.id end,
        1 + i % 2, t.at + interval '15 minutes', 'scale-' || i, t.at,
        case when st.status = 2 then t.at + interval '1 minute' end,
        case when st.status = 2 then t.at + interval '2 minutes' end,
        case when st.status <> 2 then t.at + interval '15 minutes' end
      from generate_series($1::bigint, $2::bigint) i
      cross join lateral (select ${userOf(s, 'i')} as id) u
      cross join lateral (select case i % 10 when 0 then 'beanRecharge' when 1 then 'balanceRecharge'
        when 2 then 'new' when 3 then 'new' when 4 then 'new' else 'renew' end as kind) k
      cross join lateral (select case when i % 17 = 0 then 3 when i % 23 = 0 then 4 else 2 end as status) st
      cross join lateral (select $3::timestamptz - (i % 365) * ${DAY} - (i % 1440) * interval '1 minute' as at) t
      join scale_goods g on g.k = i % (select count(*) from scale_goods)
      join scale_zones z on z.k = i % (select count(*) from scale_zones)`,
  },
  {
    name: 'payments',
    rows: (s) => s.orders,
    sql: () => `
      insert into payments (id, trade_no, order_id, payer_id, provider, pay_method, amount, status,
        return_url, created_at, settled_at)
      select o.id, 'SCT' || lpad(o.id::text, 14, '0'), o.id, o.user_id,
        case o.pay_method when 1 then 'alipay' else 'wechat' end, o.pay_method, o.amount,
        case o.status when 2 then 'paid' else 'closed' end, '', o.created_at,
        o.paid_at
      from orders o where o.id between $1 and $2`,
  },
  {
    name: 'bean_ledger',
    rows: (s) => s.ledgerRows / 2,
    sql: (s) => `
      insert into bean_ledger (id, user_id, change, balance_after, reason, remark, created_at)
      select i, ${userOf(s, 'i')}, case when i % 3 = 0 then -100 else 200 end, (i % 50) * 100,
        case when i % 3 = 0 then 'order' else 'recharge' end, '',
        $3::timestamptz - (i % 365) * ${DAY} - (i % 1440) * interval '1 minute'
      from generate_series($1::bigint, $2::bigint) i`,
  },
  {
    name: 'account_ledger',
    rows: (s) => s.ledgerRows / 2,
    sql: (s) => `
      insert into account_ledger (id, user_id, change, balance_after, reason, created_at)
      select i, ${userOf(s, 'i')}, case when i % 3 = 0 then -1000 else 2000 end, (i % 20) * 1000,
        case when i % 3 = 0 then 'order' else 'recharge' end,
        $3::timestamptz - (i % 365) * ${DAY} - (i % 1440) * interval '1 minute'
      from generate_series($1::bigint, $2::bigint) i`,
  },
  {
    name: 'messages',
    rows: (s) => s.messages,
    sql: (s) => `
      insert into messages (id, user_id, type, title, content, read_at, created_at)
      select i, ${userOf(s, 'i')}, 1 + i % 5, '云手机即将到期',
        '您的云手机将于24小时后到期，请及时续费。', t.at + case when i % 4 <> 0 then interval '1 hour' end, t.at
      from generate_series($1::bigint, $2::bigint) i
      cross join lateral (select $3::timestamptz - (i % 180) * ${DAY} - (i % 1440) * interval '1 minute' as at) t`,
  },
  {
    name: 'user_coupons',
    rows: (s) => s.coupons,
    sql: (s) => `
      insert into user_coupons (id, user_id, template_id, status, valid_from, valid_until, issued_at,
        used_at)
      select i, ${userOf(s, 'i')}, c.id, 1 + i % 4, t.at, t.at + interval '30 days', t.at,
        case when i % 4 = 1 then t.at + interval '1 day' end
      from generate_series($1::bigint, $2::bigint) i
      cross join lateral (select $3::timestamptz - (i % 120) * ${DAY} as at) t
      join scale_coupons c on c.k = i % (select count(*) from scale_coupons)`,
  },
  {
    name: 'device_grants',
    rows: (s) => s.grants,
    sql: (s) => `
      insert into device_grants (id, owner_id, grantee_id, device_id, permission, expires_at, created_at,
        revoked_at)
      select i, ${ownerOf(s, 'd.id')}, 1 + (i::bigint * 31 + i / ${s.phones}) % ${s.users}, d.id,
        1 + i % 2, $3::timestamptz + (i % 60 - 20) * ${DAY}, $3::timestamptz - (i % 90) * ${DAY},
        case when i > ${s.phones} then $3::timestamptz - (i % 30) * ${DAY} end
      from generate_series($1::int, $2::int) i
      cross join lateral (select 1 + (i::bigint * 13) % ${s.phones} as id) d`,
  },
  {
    name: 'space_tasks',
    rows: (s) => s.backups,
    sql: (s) => `
      insert into space_tasks (id, user_id, device_id, device_name, kind, status, size_bytes,
        supplier_task_id, created_at, finished_at)
      select i, ${ownerOf(s, 'd.id')}, d.id, '云手机' || d.id, 'backup', 'done',
        (1 + i % 8) * 536870912, 'scale-' || i, t.at, t.at + interval '3 minutes'
      from generate_series($1::bigint, $2::bigint) i
      cross join lateral (select 1 + (i * 17) % ${s.phones} as id) d
      cross join lateral (select $3::timestamptz - (i % 365) * ${DAY} as at) t`,
  },
  {
    name: 'usage_logs',
    rows: (s) => s.usageLogs,
    sql: (s) => `
      insert into usage_logs (id, log_id, user_id, client, version, terminal_type, accessing_pages,
        exit_mark, first_at, last_at, report_count)
      select i, 'scale-' || i, 1 + (i * 7) % ${s.users}, 'h5', 100, 'android',
        'pages/home/index,pages/device/detail', 1, t.at, t.at + interval '8 minutes', 1 + i % 5
      from generate_series($1::bigint, $2::bigint) i
      cross join lateral (select $3::timestamptz - (i % 30) * ${DAY} - (i % 1440) * interval '1 minute' as at) t`,
  },
  {
    name: 'jobs',
    rows: (s) => s.doneJobs,
    sql: (s) => `
      insert into jobs (id, kind, payload, status, run_at, attempts, created_at)
      select i, 'sync-device', jsonb_build_object('deviceId', 1 + i % ${s.phones}), 'done',
        $3::timestamptz - (i % 7) * ${DAY}, 1, $3::timestamptz - (i % 7) * ${DAY}
      from generate_series($1::bigint, $2::bigint) i`,
  },
]

/** The smaller per-user tables, `otherRows` rows each (ids, keys and owners unique by construction). */
const OTHER_STEPS: Step[] = [
  {
    name: 'user_work_types',
    rows: (s) => s.otherRows,
    sql: (s) => `
      insert into user_work_types (user_id, industry_id, worktype_id)
      select 1 + (i - 1) % ${s.users}, 1, 101 + (i - 1) / ${s.users} from generate_series($1::int, $2::int) i`,
  },
  {
    name: 'message_settings',
    rows: (s) => Math.min(s.otherRows, s.users),
    sql: () => `
      insert into message_settings (user_id, notice, renewal, transfer, "create")
      select i, i % 2 = 0, true, true, i % 3 <> 0 from generate_series($1::int, $2::int) i`,
  },
  {
    name: 'fleet_versions',
    rows: (s) => s.users,
    sql: () => `
      insert into fleet_versions (user_id, version) select i, i % 97 from generate_series($1::int, $2::int) i`,
  },
  {
    name: 'floating_ball_settings',
    rows: (s) => Math.min(s.otherRows, s.users),
    sql: () => `
      insert into floating_ball_settings (user_id, visible, side, opacity, shortcuts, updated_at)
      select i, true, 'right', 80, '["home"]', $3::timestamptz from generate_series($1::int, $2::int) i`,
  },
  {
    name: 'trial_claims',
    rows: (s) => Math.min(s.otherRows, s.users),
    sql: (s) => `
      insert into trial_claims (user_id, device_id, good_id, zone_id, claimed_at)
      select i, 1 + (i::bigint * 11) % ${s.phones}, (select min(id) from goods), (select min(id) from zones),
        $3::timestamptz - (i % 300) * ${DAY}
      from generate_series($1::int, $2::int) i`,
  },
  {
    name: 'benefit_claims',
    rows: (s) => s.otherRows,
    sql: () => `
      insert into benefit_claims (subject, benefit, claimed_at)
      select 'scale-' || i, 'welcome', $3::timestamptz - (i % 300) * ${DAY} from generate_series($1::int, $2::int) i`,
  },
  {
    name: 'invites',
    rows: (s) => Math.min(s.otherRows, s.users - 1),
    sql: (s) => `
      insert into invites (invitee_id, inviter_id, invite_code, created_at)
      select i + 1, u.id, 'SC' || u.id, $3::timestamptz - (i % 300) * ${DAY}
      from generate_series($1::int, $2::int) i
      cross join lateral (select 1 + (i::bigint * 7919) % ${s.users} as id) u`,
  },
  {
    name: 'auth_tokens',
    rows: (s) => s.otherRows,
    sql: (s) => `
      insert into auth_tokens (id, user_id, token_hash, client_type, created_at, expires_at, revoked_at)
      select i, ${userOf(s, 'i')}, md5('scale-token-' || i), 'h5', t.at, t.at + interval '30 days',
        case when i % 5 = 0 then t.at + interval '1 day' end
      from generate_series($1::bigint, $2::bigint) i
      cross join lateral (select $3::timestamptz - (i % 40) * ${DAY} as at) t`,
  },
  {
    name: 'sms_codes',
    rows: (s) => s.otherRows,
    sql: (s) => `
      insert into sms_codes (id, mobile_phone, type, code_hash, created_at, expires_at, used_at)
      select i, '17' || lpad((1 + i % ${s.users})::text, 9, '0'), 'login', md5('code-' || i), t.at,
        t.at + interval '5 minutes', case when i % 3 <> 0 then t.at + interval '1 minute' end
      from generate_series($1::bigint, $2::bigint) i
      cross join lateral (select $3::timestamptz - (i % 1440) * interval '1 minute' as at) t`,
  },
  {
    name: 'login_failures',
    rows: (s) => s.otherRows,
    sql: (s) => `
      insert into login_failures (id, mobile_phone, created_at)
      select i, '17' || lpad((1 + i % ${s.users})::text, 9, '0'), $3::timestamptz - (i % 1440) * interval '1 minute'
      from generate_series($1::bigint, $2::bigint) i`,
  },
  {
    name: 'mobile_change_tickets',
    rows: (s) => s.otherRows,
    sql: (s) => `
      insert into mobile_change_tickets (id, user_id, ticket_hash, expires_at, used_at)
      select i, ${userOf(s, 'i')}, md5('ticket-' || i), $3::timestamptz - (i % 30) * ${DAY}, null
      from generate_series($1::bigint, $2::bigint) i`,
  },
  {
    name: 'wechat_bind_tickets',
    rows: (s) => s.otherRows,
    sql: () => `
      insert into wechat_bind_tickets (id, ticket_hash, source, open_id, expires_at)
      select i, md5('bind-' || i), 'applet', 'scale-openid-' || i, $3::timestamptz - (i % 30) * ${DAY}
      from generate_series($1::bigint, $2::bigint) i`,
  },
  {
    name: 'scan_login_sessions',
    rows: (s) => s.otherRows,
    sql: () => `
      insert into scan_login_sessions (id, status, requester, requester_ip, created_at, expires_at)
      select 'scale-' || i, 'expired', 'Chrome', '127.0.0.1', t.at, t.at + interval '2 minutes'
      from generate_series($1::bigint, $2::bigint) i
      cross join lateral (select $3::timestamptz - (i % 1440) * interval '1 minute' as at) t`,
  },
  {
    name: 'device_auth_tokens',
    rows: (s) => s.otherRows,
    sql: (s) => `
      insert into device_auth_tokens (id, token_hash, user_id, device_id, created_at, expires_at, used_at,
        session_hash, session_expires_at)
      select i, md5('device-token-' || i), ${ownerOf(s, 'd.id')}, d.id, t.at, t.at + interval '1 minute',
        t.at, md5('device-session-' || i), t.at + interval '2 hours'
      from generate_series($1::bigint, $2::bigint) i
      cross join lateral (select 1 + (i * 19) % ${s.phones} as id) d
      cross join lateral (select $3::timestamptz - (i % 1440) * interval '1 minute' as at) t`,
  },
  {
    name: 'uploads',
    rows: (s) => s.otherRows,
    sql: (s) => `
      insert into uploads (id, user_id, path, size_bytes, created_at)
      select i, ${userOf(s, 'i')}, 'scale/' || i || '.jpg', 50000, $3::timestamptz - (i % 300) * ${DAY}
      from generate_series($1::bigint, $2::bigint) i`,
  },
  {
    name: 'feedback',
    rows: (s) => s.otherRows,
    sql: (s) => `
      insert into feedback (id, user_id, content, contact, status, created_at)
      select i, ${userOf(s, 'i')}, '云手机偶尔卡顿', null, i % 3, $3::timestamptz - (i % 300) * ${DAY}
      from generate_series($1::bigint, $2::bigint) i`,
  },
  {
    name: 'device_transfers',
    rows: (s) => s.otherRows,
    sql: (s) => `
      insert into device_transfers (id, batch_id, from_user_id, to_user_id, device_id, device_name, expire_at,
        created_at)
      select i, 'scale-' || (i / 10), ${userOf(s, 'i')}, 1 + (i::bigint * 31) % ${s.users}, d.id,
        '云手机' || d.id, $3::timestamptz + 30 * ${DAY}, $3::timestamptz - (i % 300) * ${DAY}
      from generate_series($1::int, $2::int) i
      cross join lateral (select 1 + (i::bigint * 23) % ${s.phones} as id) d`,
  },
  {
    name: 'device_share_codes',
    rows: (s) => s.otherRows,
    sql: (s) => `
      insert into device_share_codes (id, code, owner_id, device_ids, permission, grant_days, expires_at,
        created_at)
      select i, 'SC' || lpad(i::text, 10, '0'), ${userOf(s, 'i')}, '[1]', 1, 7,
        $3::timestamptz - (i % 30) * ${DAY}, $3::timestamptz - (i % 30 + 1) * ${DAY}
      from generate_series($1::int, $2::int) i`,
  },
  {
    name: 'activation_codes',
    rows: (s) => s.otherRows,
    sql: (s) => `
      insert into activation_codes (id, code, order_id, owner_id, good_id, good_time, status, created_at)
      select i, 'SCALE' || lpad(i::text, 11, '0'), i, ${userOf(s, 'i')}, (select min(id) from goods), 30, i % 2,
        $3::timestamptz - (i % 300) * ${DAY}
      from generate_series($1::bigint, $2::bigint) i`,
  },
  {
    name: 'refunds',
    rows: (s) => Math.min(s.otherRows, s.orders),
    sql: () => `
      insert into refunds (id, refund_no, order_id, payment_id, provider, amount, reason, status, attempts,
        created_at, sent_at, settled_at)
      select p.id, 'SCR' || lpad(p.id::text, 14, '0'), p.order_id, p.id, p.provider, greatest(p.amount, 1),
        '云手机开通失败', 'succeeded', 1, p.created_at, p.created_at, p.created_at + interval '1 hour'
      from payments p where p.id between $1 and $2`,
  },
  {
    name: 'payment_notifications',
    rows: (s) => Math.min(s.otherRows, s.orders),
    sql: () => `
      insert into payment_notifications (id, provider, trade_no, event, outcome, payload, received_at)
      select p.id, p.provider, p.trade_no, 'paid', 'settled', '{}', p.created_at + interval '1 minute'
      from payments p where p.id between $1 and $2`,
  },
  {
    name: 'space_grants',
    rows: (s) => Math.min(s.otherRows, s.orders),
    sql: (s) => `
      insert into space_grants (id, user_id, bytes, package_id, order_id, created_at, expires_at)
      select i, ${userOf(s, 'i')}, 10737418240, 1, i, $3::timestamptz - (i % 300) * ${DAY},
        $3::timestamptz + (i % 300 - 150) * ${DAY}
      from generate_series($1::bigint, $2::bigint) i`,
  },
  {
    name: 'seckill_purchases',
    rows: (s) => Math.min(s.otherRows, s.users, s.orders),
    sql: () => `
      insert into seckill_purchases (id, item_id, user_id, order_id, status, created_at)
      select i, (select min(id) from seckill_items), i, i, 'paid', $3::timestamptz - (i % 300) * ${DAY}
      from generate_series($1::bigint, $2::bigint) i`,
  },
  {
    name: 'operator_audit',
    rows: (s) => s.otherRows,
    sql: () => `
      insert into operator_audit (id, operator_id, actor, at, action, target_type, target_id, before, after, ip)
      select i, null, 'cli', $3::timestamptz - (i % 300) * ${DAY}, 'user.freeze', 'user', (1 + i % 1000)::text,
        '{"frozen": false}', '{"frozen": true}', '127.0.0.1'
      from generate_series($1::bigint, $2::bigint) i`,
  },
  {
    // one phone in ten has 自动续费 on, one of those in twenty with its last try failed
    name: 'device_auto_renew',
    rows: (s) => Math.floor(s.phones / 10),
    sql: (s) => `
      insert into device_auto_renew (device_id, user_id, days, pay_method, failure, failed_at,
        failed_for_expire_at, retry_at, created_at, updated_at)
      select d.id, ${ownerOf(s, 'd.id')}, 30, 3,
        case when i % 20 = 0 then '云豆余额不足' end, case when i % 20 = 0 then $3::timestamptz - (i % 3) * ${DAY} end,
        case when i % 20 = 0 then $3::timestamptz + ${DAY} end, null,
        $3::timestamptz - (i % 300) * ${DAY}, $3::timestamptz - (i % 30) * ${DAY}
      from generate_series($1::int, $2::int) i
      cross join lateral (select (i::bigint * 10 - 9)::int as id) d`,
  },
  {
    // a user's uploads, one in fifty the operators' catalogue
    name: 'apps',
    rows: (s) => s.otherRows,
    sql: (s) => `
      insert into apps (id, owner_id, package_name, name, version_name, version_code, size_bytes, sha256,
        apk_path, icon_path, hidden, created_at)
      select i, case when i % 50 = 0 then null else ${userOf(s, 'i')} end, 'com.scale.app' || i, '应用' || i,
        '1.0', i, 5000000, lpad(to_hex(i), 64, '0'), '/private/apks/scale-' || i || '.apk',
        case when i % 4 = 0 then null else '/files/app-icons/scale-' || i || '.png' end, i % 100 = 0,
        $3::timestamptz - (i % 300) * ${DAY}
      from generate_series($1::int, $2::int) i`,
  },
  {
    name: 'app_supplier_copies',
    rows: (s) => s.otherRows,
    sql: () => `
      insert into app_supplier_copies (app_id, supplier, status, supplier_app_id, supplier_version_id,
        updated_at)
      select i, 'acep', 'ready', 'app-' || i, 'v-' || i, $3::timestamptz - (i % 300) * ${DAY}
      from generate_series($1::int, $2::int) i`,
  },
  {
    name: 'app_installs',
    rows: (s) => s.otherRows,
    sql: (s) => `
      insert into app_installs (id, user_id, app_id, app_name, package_name, total, created_at, finished_at)
      select i, ${userOf(s, 'i')}, 1 + i % ${s.otherRows}, '应用' || i, 'com.scale.app' || i, 1,
        $3::timestamptz - (i % 300) * ${DAY}, $3::timestamptz - (i % 300) * ${DAY} + interval '1 minute'
      from generate_series($1::bigint, $2::bigint) i`,
  },
  {
    name: 'app_install_results',
    rows: (s) => s.otherRows,
    sql: (s) => `
      insert into app_install_results (install_id, device_id, status, reason, supplier_task, updated_at)
      select i, 1 + (i::bigint * 13) % ${s.phones}, 'installed', null, null,
        $3::timestamptz - (i % 300) * ${DAY}
      from generate_series($1::bigint, $2::bigint) i`,
  },
]

/** Tables whose id sequence the steps wrote past. */
const SERIAL_TABLES = [
  'users',
  'device_groups',
  'devices',
  'orders',
  'payments',
  'bean_ledger',
  'account_ledger',
  'messages',
  'user_coupons',
  'device_grants',
  'space_tasks',
  'usage_logs',
  'jobs',
  'auth_tokens',
  'sms_codes',
  'login_failures',
  'mobile_change_tickets',
  'wechat_bind_tickets',
  'device_auth_tokens',
  'uploads',
  'feedback',
  'device_transfers',
  'device_share_codes',
  'activation_codes',
  'refunds',
  'payment_notifications',
  'space_grants',
  'seckill_purchases',
  'operator_audit',
  'apps',
  'app_installs',
]

/**
 * Lookup tables of the seeded catalogue (k = 0…n-1), so each step joins on `k = i % n` instead of
 * reading the catalogue per row. Remade each run: they only name what the catalogue seed holds.
 */
async function makeLookups(client: SqlConnection) {
  // one statement per query: PGlite's query() takes no more
  for (const statement of [
    'drop table if exists scale_goods, scale_zones, scale_coupons',
    `create unlogged table scale_goods as
      select (row_number() over (order by g.id, p.good_time) - 1)::int as k, g.id, g.level,
        g.android_version, g.image_type, p.id as price_id, p.good_time, p.good_price as price
      from goods g join goods_prices p on p.good_id = g.id`,
    `create unlogged table scale_zones as
      select (row_number() over (order by id) - 1)::int as k, id from zones`,
    `create unlogged table scale_coupons as
      select (row_number() over (order by id) - 1)::int as k, id from coupon_templates`,
  ]) {
    await client.query(statement)
  }
}

export interface SeedReport {
  step: string
  rows: number
  seconds: number
  resumedFrom: number
}

/**
 * Fills the database on `client`, one connection whose transactions the chunks are (migrated and
 * seeded, with no users yet or a partial run of these same sizes), up to `sizes`, with times around `now` (a test's clock). Returns each step's rows and
 * time; `onChunk` hears of every chunk.
 */
export async function seedScale(
  client: SqlConnection,
  sizes: ScaleSizes,
  options: { now?: Date; onChunk?: (step: string, done: number, total: number) => void } = {},
): Promise<SeedReport[]> {
  const { now = new Date(), onChunk = () => {} } = options
  const report: SeedReport[] = []
  await client.query(`create table if not exists scale_seed_progress (
    step text primary key, done bigint not null, total bigint not null, sizes jsonb not null)`)
  const { rows: previous } = await client.query<{ sizes: ScaleSizes }>(
    'select sizes from scale_seed_progress limit 1',
  )
  // Sizes added since that run (new steps) may differ; the ones it was made with may not.
  const changed = Object.entries(previous[0]?.sizes ?? {}).filter(
    ([key, value]) => sizes[key as keyof ScaleSizes] !== value,
  )
  if (changed.length > 0) {
    throw new Error(
      `this database was seeded with other sizes (${JSON.stringify(previous[0].sizes)}); use a new database`,
    )
  }
  await makeLookups(client)
  await client.query(`set session_replication_role = replica`)
  for (const step of [...STEPS, ...OTHER_STEPS]) {
    const total = step.rows(sizes)
    const { rows } = await client.query<{ done: string }>(
      'select done from scale_seed_progress where step = $1',
      [step.name],
    )
    const resumedFrom = Number(rows[0]?.done ?? 0)
    const started = performance.now()
    const insert = step.sql(sizes)
    for (let lo = resumedFrom + 1; lo <= total; lo += CHUNK) {
      const hi = Math.min(total, lo + CHUNK - 1)
      await client.query('begin')
      try {
        await client.query(insert, insert.includes('$3') ? [lo, hi, now] : [lo, hi])
        await client.query(
          `insert into scale_seed_progress (step, done, total, sizes) values ($1, $2, $3, $4)
           on conflict (step) do update set done = excluded.done`,
          [step.name, hi, total, JSON.stringify(sizes)],
        )
        await client.query('commit')
      } catch (error) {
        await client.query('rollback')
        throw error
      }
      onChunk(step.name, hi, total)
    }
    report.push({
      step: step.name,
      rows: total - resumedFrom,
      seconds: (performance.now() - started) / 1000,
      resumedFrom,
    })
  }
  await client.query(`set session_replication_role = origin`)
  for (const table of SERIAL_TABLES) {
    await client.query(
      `select setval(pg_get_serial_sequence('${table}', 'id'), (select max(id) from ${table}))`,
    )
  }
  await client.query('drop table if exists scale_goods, scale_zones, scale_coupons')
  // As autovacuum would have left a database this old: statistics, and the visibility map that lets an
  // index-only scan skip the table.
  await client.query('vacuum analyze')
  return report
}

/**
 * Tables that do not grow with users: the catalogue, settings and dictionaries an operator keeps, the
 * console's own operators, sessions and broadcasts (they grow with what a few operators do), and the
 * sandbox providers' books (they play a remote party; production talks to the real one). Every other
 * table grows, so a new table counts as growing unless it is named here (the query-plan test checks
 * every growing table's reads; tableBytes prints each one's size).
 */
const NOT_GROWING = new Set([
  'goods_levels',
  'goods',
  'goods_prices',
  'zones',
  'goods_stock_slots',
  'common_config',
  'dictionaries',
  'device_statuses',
  'coupon_templates',
  'coupon_issues',
  'new_user_guide_steps',
  'trial_offers',
  'game_trials',
  'activities',
  'seckill_items',
  'server_secrets',
  'supplier_catalogue',
  'operators',
  'operator_sessions',
  'operator_messages',
  'scale_seed_progress',
  '__drizzle_migrations',
])
export const isGrowing = (table: string) => !NOT_GROWING.has(table) && !table.startsWith('sandbox_')

/** Growing tables whose rows come with phones (and are counted per phone); the rest, per user. */
const PER_PHONE = new Set([
  'devices',
  'device_grants',
  'device_transfers',
  'device_auth_tokens',
  'space_tasks',
  'jobs',
  'acep_pods',
  'acep_tasks',
])

export interface TableBytes {
  table: string
  rows: number
  /** Heap, indexes and TOAST. */
  bytes: number
  per: 'user' | 'phone'
  bytesPer: number
}

/** Each growing table's size on disk, and its bytes per user or per phone of the database. */
export async function tableBytes(client: SqlConnection): Promise<TableBytes[]> {
  const counts = await client.query<{ users: string; phones: string }>(
    `select (select count(*) from users) as users, (select count(*) from devices) as phones`,
  )
  const users = Number(counts.rows[0].users)
  const phones = Number(counts.rows[0].phones)
  const tables = await client.query<{ name: string }>(
    `select tablename as name from pg_tables where schemaname = 'public' order by 1`,
  )
  const result: TableBytes[] = []
  for (const table of tables.rows.map((row) => row.name).filter(isGrowing)) {
    const per = PER_PHONE.has(table) ? 'phone' : 'user'
    const { rows } = await client.query<{ rows: string; bytes: string }>(
      `select (select count(*) from ${table}) as rows, pg_total_relation_size('${table}') as bytes`,
    )
    const bytes = Number(rows[0].bytes)
    result.push({
      table,
      rows: Number(rows[0].rows),
      bytes,
      per,
      bytesPer: Math.round(bytes / Math.max(1, per === 'user' ? users : phones)),
    })
  }
  return result
}
