import { bigserial, index, integer, pgTable, text } from 'drizzle-orm/pg-core'
import { at } from '../columns'
import { users } from './users'

/**
 * Every file a user uploaded (under FILES_DIR/uploads), so uploads can be counted against the daily
 * quota and a file nothing refers to can be found and deleted (FileService.purgeOrphans). Whether a
 * file is in use is not stored: it is asked of the rows that refer to uploads (users.avatar) when the
 * purge runs, so no flag can drift from the truth.
 */
export const uploads = pgTable(
  'uploads',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Kept when the account goes: the file is still on disk and still needs its clean-up. */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The public path, `/files/uploads/<uuid>.<ext>` (the extension of the sniffed type). */
    path: text('path').notNull().unique(),
    sizeBytes: integer('size_bytes').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    index('uploads_user_idx').on(t.userId, t.createdAt),
    index('uploads_created_idx').on(t.createdAt),
  ],
)
