/**
 * The message list and the bean ledger are JSON written by PostgreSQL (db/page-with-total.ts, jsonRecord),
 * sent without the route's response schema. Here each answers exactly what its schema describes: the
 * same keys and types, text of every kind back as it was stored, times to the millisecond as
 * Date.getTime() gives them, a label for every reason and the code itself for one it does not know, an
 * empty page past the end with its total, and the same bytes compressed for a client that asks.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import zlib from 'node:zlib'
import { AjvCompiler } from '@fastify/ajv-compiler'
import { eq, sql } from 'drizzle-orm'
import { Envelope, Paged } from '../../src/contract/common'
import { Message } from '../../src/contract/message'
import { BeanLedgerEntry } from '../../src/contract/wallet'
import { sqlText } from '../../src/db/page-with-total'
import { beanLedger, messages } from '../../src/db/schema'
import type { MessageKind } from '../../src/services/engagement/message-service'
import { beanReasonLabels } from '../../src/services/wallet/wallet-service'
import { authHeaders, buildTestApp, get, loginWithSms, type TestApp } from '../helpers/test-app'

/** Text a message or a remark may hold, each kind JSON must escape or pass through. */
const awkward = [
  '引号 " 反斜杠 \\ 斜杠 /',
  '换行\n制表\t回车\r',
  '表情 😀 与 \u2028 \u2029',
  '</script><script>alert(1)</script>',
  "单引号 ' 与 %s %d ${x}",
]

/** A schema's check by Ajv, as Fastify would have compiled it for the route's response. */
function validator(schema: object) {
  const build = AjvCompiler()({}, { customOptions: {} }) as unknown as (route: object) => {
    (value: unknown): boolean
    errors?: unknown
  }
  return build({ schema, method: 'GET', url: '/', httpPart: 'body' })
}

/** The envelope's records, checked against the page's schema with no key more or less. */
function recordsOf<T>(schema: ReturnType<typeof Paged>, body: unknown): T[] {
  const check = validator(Envelope(schema))
  assert.ok(check(body), JSON.stringify(check.errors))
  const { records } = (body as { data: { records: Record<string, unknown>[] } }).data
  const keys = Object.keys(schema.properties.records.items.properties).sort()
  for (const record of records) assert.deepEqual(Object.keys(record).sort(), keys)
  return records as T[]
}

async function raw(
  ta: TestApp,
  url: string,
  session: { token: string; userId: number },
  encoding?: string,
) {
  const response = await ta.app.inject({
    method: 'GET',
    url: `/vmcloud/api${url}`,
    headers: { ...authHeaders(session), ...(encoding ? { 'accept-encoding': encoding } : {}) },
  })
  assert.equal(response.statusCode, 200)
  assert.match(String(response.headers['content-type']), /^application\/json; charset=utf-8/)
  return response
}

test('the message list is its schema exactly: awkward text, times, read flags, past the end, compressed', async (t) => {
  const ta = await buildTestApp(t)
  const { app, clock, database } = ta
  const user = await loginWithSms(ta, '13400000071')
  // the two welcome messages go, so the page holds only these
  await database.db.delete(messages).where(eq(messages.userId, user.userId))
  // three of each: a page over the 1 KiB from which replies are compressed
  const texts = [...awkward, ...awkward, ...awkward]
  for (const [i, text] of texts.entries()) {
    clock.advance(1000)
    await app.services.messages.sendMessage(
      user.userId,
      (1 + (i % 4)) as MessageKind,
      text,
      text,
      app.services.ctx.db,
    )
  }
  // a time with microseconds, as now() in SQL writes it: the API sends the millisecond it falls in
  await database.db
    .update(messages)
    .set({ createdAt: sql`${messages.createdAt} + interval '0.000789 seconds'` })
    .where(
      eq(
        messages.id,
        (
          await database.db
            .select({ id: messages.id })
            .from(messages)
            .where(eq(messages.title, awkward[0]))
        )[0].id,
      ),
    )
  const stored = await database.db.select().from(messages).where(eq(messages.userId, user.userId))
  await app.services.messages.markRead(user.userId, { ids: [stored[1].id] })

  const body = (await raw(ta, '/message/list?rows=100', user)).json()
  const records = recordsOf<Message>(Paged(Message), body)
  assert.equal(body.data.total, texts.length)
  assert.equal(body.data.totalPage, 1)
  assert.equal(body.data.page, 1)
  const expected = stored
    .map((row) => ({
      id: row.id,
      type: row.type,
      title: row.title,
      content: row.content,
      read: row.id === stored[1].id,
      createdAt: row.createdAt.getTime(),
    }))
    .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
  assert.deepEqual(records, expected)
  assert.deepEqual(
    records.map((m) => m.title),
    [...texts].reverse(),
  )

  const past = await get(app, '/message/list', user, { page: '9', rows: '2' })
  assert.deepEqual(past.data, { records: [], page: 9, totalPage: 8, total: texts.length })
  const none = await get(app, '/message/list', user, { type: '5' })
  assert.deepEqual(none.data, { records: [], page: 1, totalPage: 0, total: 0 })

  for (const encoding of ['br', 'gzip']) {
    const response = await raw(ta, '/message/list?rows=100', user, encoding)
    assert.equal(response.headers['content-encoding'], encoding)
    const plain =
      encoding === 'br'
        ? zlib.brotliDecompressSync(response.rawPayload)
        : zlib.gunzipSync(response.rawPayload)
    assert.deepEqual(JSON.parse(plain.toString()).data, body.data)
  }
})

test('the bean ledger is its schema exactly: labels, order numbers, awkward remarks, an unknown reason', async (t) => {
  const ta = await buildTestApp(t)
  const { app, clock, database } = ta
  const user = await loginWithSms(ta, '13400000072')
  for (const remark of awkward) {
    clock.advance(1000)
    await database.db.transaction((tx) =>
      app.services.beans.credit(tx, user.userId, 5, { reason: 'grant', remark }),
    )
  }
  // a reason written before its label existed is shown as its code
  await database.db
    .update(beanLedger)
    .set({
      reason: 'legacyReason',
      createdAt: sql`${beanLedger.createdAt} + interval '0.000789 seconds'`,
    })
    .where(eq(beanLedger.remark, awkward[0]))
  const stored = await database.db
    .select()
    .from(beanLedger)
    .where(eq(beanLedger.userId, user.userId))

  const body = (await raw(ta, '/wallet/beanLedger?rows=100', user)).json()
  const records = recordsOf<BeanLedgerEntry>(Paged(BeanLedgerEntry), body)
  const expected = stored
    .map((row) => ({
      id: row.id,
      change: row.change,
      balanceAfter: row.balanceAfter,
      reason: row.reason,
      reasonText: row.reason === 'grant' ? beanReasonLabels.grant : row.reason,
      orderNo: null,
      remark: row.remark,
      createdAt: row.createdAt.getTime(),
    }))
    .sort((a, b) => b.createdAt - a.createdAt || b.id - a.id)
  assert.deepEqual(records, expected)
  assert.equal(records.at(-1)?.reasonText, 'legacyReason')
  assert.equal(body.data.total, awkward.length)

  const first = records.at(-1)!.createdAt
  const ranged = await get(app, '/wallet/beanLedger', user, {
    startTime: String(first + 1000),
    endTime: String(first + 3000),
    page: '2',
    rows: '1',
  })
  assert.deepEqual(ranged.data, {
    records: [records.at(-2)],
    page: 2,
    totalPage: 2,
    total: 2,
  })
})

test('sqlText puts any text in a statement as itself', async (t) => {
  const ta = await buildTestApp(t)
  await loginWithSms(ta, '13400000073') // a row to select from: the welcome messages
  const texts = ["单引号 ' 与两个 ''", "\\' or 1=1 --", '$1 ${x} ? %s']
  for (const text of texts) {
    const [row] = await ta.database.db
      .select({ text: sql<string>`${sqlText(text)}` })
      .from(messages)
      .limit(1)
    assert.equal(row.text, text)
  }
})
