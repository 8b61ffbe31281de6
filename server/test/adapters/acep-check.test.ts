/**
 * ACEP's part of the go-live smoke check (checkAcep) against the fake ACEP: read-only calls only; what
 * it reports when everything is in place, when ACEP refuses the keys (SignatureDoesNotMatch,
 * InvalidAccessKey), when ACEP cannot be reached (a closed port), and what is missing (variables, the
 * catalogue, a mapped zone that is no data centre of the business).
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { eq } from 'drizzle-orm'
import { checkAcep } from '../../src/adapters/supplier/acep'
import { supplierCatalogue } from '../../src/db/schema'
import { acepSupplierSetup } from '../helpers/acep-app'
import { acepEnvFor, FakeAcep, type RawRequest } from '../helpers/fake-acep'

const READ_ONLY = new Set(['ListDc', 'ListPod', 'DetailPod'])
const onlyReads = (requests: RawRequest[]) => requests.every((r) => READ_ONLY.has(r.action))

test('all in place: reachable, keys taken, nothing missing; ListDc, ListPod and DetailPod of a pod of ours, nothing else', async (t) => {
  const { fake, database, supplier } = await acepSupplierSetup(t)
  const none = await checkAcep(database.db, acepEnvFor(fake))
  assert.ok(none.notes.includes('no pod of ours yet: DetailPod not tried'), none.notes.join('\n'))

  const { instanceId } = await supplier.create({
    requestId: 'r1',
    name: '云手机-1',
    goodId: 301,
    zoneId: 1,
    expireAt: new Date('2027-04-01T00:00:00.000Z'),
  })
  // Only the zone the fake's business has is mapped to one of its data centres.
  await database.db.delete(supplierCatalogue).where(eq(supplierCatalogue.kind, 'zone'))
  await database.db.insert(supplierCatalogue).values({
    supplier: 'acep',
    kind: 'zone',
    localId: 1,
    remoteId: 'dc-1',
    updatedAt: new Date(),
  })
  const before = fake.requests.length
  const result = await checkAcep(database.db, acepEnvFor(fake))
  const asked = fake.requests.slice(before)
  assert.deepEqual(
    asked.map((r) => r.action),
    ['ListDc', 'ListPod', 'DetailPod'],
  )
  assert.ok(onlyReads(asked))
  assert.equal(result.provider, 'acep')
  assert.equal(result.reachable, true)
  assert.equal(result.credentialsAccepted, true)
  assert.equal(result.signatureVerified, null, 'ACEP signs no answer')
  assert.ok(
    result.notes.some((note) => note.startsWith(`DetailPod ${instanceId}: Online`)),
    result.notes.join('\n'),
  )
  // The other zones of the seed have no Dc: the start-up check's lines.
  assert.ok(
    result.missing.length > 0 &&
      result.missing.every((line) => /^zone \d+ .*no ACEP data centre/.test(line)),
    result.missing.join('\n'),
  )
})

test('a mapped zone whose Dc the business does not have is named', async (t) => {
  const { fake, database } = await acepSupplierSetup(t)
  const result = await checkAcep(database.db, acepEnvFor(fake))
  assert.ok(
    result.missing.some((line) =>
      /^zone 2 .*: Dc dc-2 is none of the business's data centres \(ListDc\)$/.test(line),
    ),
    result.missing.join('\n'),
  )
})

test('refused keys: a wrong secret (SignatureDoesNotMatch), an unknown key (InvalidAccessKey); the refusal noted without the secret', async (t) => {
  const { fake, database } = await acepSupplierSetup(t)
  const wrongSecret = await checkAcep(
    database.db,
    acepEnvFor(fake, { ACEP_SECRET_ACCESS_KEY: 'not-the-secret' }),
  )
  assert.deepEqual([wrongSecret.reachable, wrongSecret.credentialsAccepted], [true, false])
  assert.ok(
    wrongSecret.notes.some((note) => note.startsWith('ListDc: SignatureDoesNotMatch')),
    wrongSecret.notes.join('\n'),
  )
  assert.ok(!JSON.stringify(wrongSecret).includes('not-the-secret'))

  const unknownKey = await checkAcep(
    database.db,
    acepEnvFor(fake, { ACEP_ACCESS_KEY_ID: 'AKLTnobody' }),
  )
  assert.deepEqual([unknownKey.reachable, unknownKey.credentialsAccepted], [true, false])
  assert.ok(unknownKey.notes.some((note) => note.startsWith('ListDc: InvalidAccessKey')))
  assert.equal(fake.calls.length, 0, 'ACEP ran nothing')
})

test('unreachable (a closed port): not reachable, credentials unknown, said so', async (t) => {
  const { database } = await acepSupplierSetup(t)
  const gone = await new FakeAcep().start()
  await gone.stop()
  const started = Date.now()
  const result = await checkAcep(database.db, acepEnvFor(gone))
  assert.deepEqual([result.reachable, result.credentialsAccepted], [false, null])
  assert.ok(
    result.notes.some((note) => note.startsWith(`${gone.endpoint} unreachable`)),
    result.notes.join('\n'),
  )
  assert.ok(Date.now() - started < 5_000, 'one attempt, no retries')
})

test('missing variables and an unknown business are what is missing', async (t) => {
  const { fake, database } = await acepSupplierSetup(t)
  const bare = await checkAcep(database.db, {})
  assert.equal(bare.reachable, false)
  assert.match(
    bare.missing[0],
    /^SUPPLIER_PROVIDER=acep needs ACEP_ACCESS_KEY_ID, .*ACEP_RESOURCE_TYPE/,
  )

  const otherBusiness = await checkAcep(
    database.db,
    acepEnvFor(fake, { ACEP_PRODUCT_ID: '1600000000000000999' }),
  )
  assert.deepEqual([otherBusiness.reachable, otherBusiness.credentialsAccepted], [true, true])
  assert.ok(
    otherBusiness.missing.includes(
      'ACEP_PRODUCT_ID 1600000000000000999: ListDc refused it (InvalidProductId)',
    ),
    otherBusiness.missing.join('\n'),
  )
})
