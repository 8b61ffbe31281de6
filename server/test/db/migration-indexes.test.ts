/**
 * From migration 0030 on, every index a migration adds is written `CREATE INDEX IF NOT EXISTS`, so that
 * on a large database an operator can build it beforehand with CREATE INDEX CONCURRENTLY (which holds no
 * writes) and the migration at start finds it (docs/deploy.md, section 4). drizzle-kit writes plain
 * `CREATE INDEX`: edit the generated file.
 */
import assert from 'node:assert/strict'
import fs from 'node:fs'
import path from 'node:path'
import { test } from 'node:test'
import { MIGRATIONS_DIR } from '../../src/db/migrate'

const FIRST_CHECKED = 30

test('migrations from 0030 on create their indexes if not exists', () => {
  const plain = fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((file) => file.endsWith('.sql') && Number(file.slice(0, 4)) >= FIRST_CHECKED)
    .flatMap((file) =>
      fs
        .readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8')
        .split('\n')
        .filter((line) => /CREATE (UNIQUE )?INDEX (?!IF NOT EXISTS)/i.test(line))
        .map((line) => `${file}: ${line.slice(0, 80)}`),
    )
  assert.deepEqual(plain, [])
})
