import { sql } from 'drizzle-orm'
import { check, index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { at } from '../columns'
import { users } from './users'

/**
 * Scan-login: a logged-out browser shows `cloudphone:login:<id>` as a QR; a logged-in phone scans it
 * (scanned), then confirms or refuses. The browser polls the status; the first poll after confirmation
 * receives a login token once (consumed). id is a random unguessable secret; a session lives ~2 min.
 */
export const scanLoginSessions = pgTable(
  'scan_login_sessions',
  {
    id: text('id').primaryKey(),
    /** pending | scanned | confirmed | refused | expired | consumed */
    status: text('status').notNull().default('pending'),
    /** Who asked: a short browser/OS summary and the IP, shown on the confirming phone. */
    requester: text('requester').notNull(),
    requesterIp: text('requester_ip').notNull(),
    /** The account that scanned; only it may confirm or refuse. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    scannedAt: at('scanned_at'),
    confirmedAt: at('confirmed_at'),
    consumedAt: at('consumed_at'),
  },
  (t) => [
    index('scan_login_sessions_expires_idx').on(t.expiresAt),
    check(
      'scan_login_sessions_status_check',
      sql`${t.status} in ('pending', 'scanned', 'confirmed', 'refused', 'expired', 'consumed')`,
    ),
  ],
)
