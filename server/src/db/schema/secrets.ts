import { pgTable, text } from 'drizzle-orm/pg-core'
import { at } from '../columns'

/**
 * Keys the server makes for itself: random, one per database (so every server instance on it signs
 * alike), made on first use and never configured, so no deployment can run on a known default.
 * Never served: common_config is public, this table is not.
 */
export const serverSecrets = pgTable('server_secrets', {
  name: text('name').primaryKey(),
  /** 32 random bytes, hex. */
  value: text('value').notNull(),
  createdAt: at('created_at').notNull(),
})
