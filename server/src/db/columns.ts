import { timestamp } from 'drizzle-orm/pg-core'

/** A point in time: timestamptz read and written as a JS Date. Every table's time columns use it. */
export const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' })
