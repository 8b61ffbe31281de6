/**
 * ACEP's part of the go-live smoke check (`npm run providers:check`): read-only calls with the
 * configured credentials — ListDc (reachable, credentials taken, each mapped zone a data centre of the
 * business), ListPod, and DetailPod of one pod of ours when there is one — and the catalogue mapping
 * the server refuses to start without (catalogue.ts). Nothing is created, changed or deleted.
 */
import { and, eq, isNotNull, isNull } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { acepPods, supplierCatalogue, zones } from '../../../db/schema'
import type { ProviderCheckResult } from '../../provider-check'
import { acepClientFor, AcepError } from './acep-client'
import { ACEP, unmappedCatalogue } from './catalogue'
import { acepCredentialsFromEnv } from './credentials'

/** Error codes with which Volcengine's gateway refuses the caller's keys (docs 6408/78947). */
const KEYS_REFUSED = new Set([
  'SignatureDoesNotMatch',
  'InvalidAccessKey',
  'InvalidClientTokenId',
  'MissingAuthenticationToken',
  'InvalidAuthorization',
  'InvalidCredential',
  'InvalidTimestamp',
  'AccessDenied',
])

const said = (error: unknown) =>
  error instanceof AcepError ? `${error.code} ${error.message}` : String(error)

/**
 * What the smoke check finds of ACEP with the environment's credentials (SUPPLIER_PROVIDER=acep's
 * variables, credentials.ts) and the database's catalogue and pods. One attempt per call.
 */
export async function checkAcep(
  db: Db,
  env: NodeJS.ProcessEnv,
  options: { timeoutMs?: number } = {},
): Promise<ProviderCheckResult> {
  const result: ProviderCheckResult = {
    provider: 'acep',
    reachable: false,
    credentialsAccepted: null,
    // ACEP signs none of its answers.
    signatureVerified: null,
    missing: await unmappedCatalogue(db),
    notes: [],
  }
  const given = acepCredentialsFromEnv(env)
  if (!given.ok) {
    result.missing.unshift(...given.problems)
    return result
  }
  const { credentials } = given
  const client = acepClientFor(credentials, { attempts: 1, timeoutMs: options.timeoutMs ?? 10_000 })
  const product = { ProductId: credentials.productId }

  let dcs: { Dc?: string }[]
  try {
    dcs = (await client.call<{ Row?: { Dc?: string }[] }>('ListDc', product))?.Row ?? []
  } catch (error) {
    if (!(error instanceof AcepError)) {
      result.notes.push(`${credentials.endpoint} unreachable: ${said(error)}`)
      return result
    }
    result.reachable = true
    result.credentialsAccepted = !KEYS_REFUSED.has(error.code)
    if (result.credentialsAccepted) {
      result.missing.push(
        `ACEP_PRODUCT_ID ${credentials.productId}: ListDc refused it (${error.code})`,
      )
    } else if (error.code === 'InvalidTimestamp') {
      result.notes.push(
        'this machine’s clock is more than 15 minutes off: ACEP refused the signing time',
      )
    }
    result.notes.push(`ListDc: ${said(error)}`)
    return result
  }
  result.reachable = true
  result.credentialsAccepted = true
  const known = new Set(dcs.map((row) => row.Dc))
  const mappedZones = await db
    .select({ id: zones.id, name: zones.name, dc: supplierCatalogue.remoteId })
    .from(supplierCatalogue)
    .innerJoin(zones, eq(supplierCatalogue.localId, zones.id))
    .where(and(eq(supplierCatalogue.supplier, ACEP), eq(supplierCatalogue.kind, 'zone')))
  for (const zone of mappedZones) {
    if (!known.has(zone.dc)) {
      result.missing.push(
        `zone ${zone.id} ${zone.name}: Dc ${zone.dc} is none of the business's data centres (ListDc)`,
      )
    }
  }
  result.notes.push(`ListDc: ${dcs.length} data centres`)

  try {
    const pods = await client.call<{ Total?: number }>('ListPod', { ...product, Count: 1 })
    result.notes.push(`ListPod: ${pods?.Total ?? 0} pods in the business`)
  } catch (error) {
    result.notes.push(`ListPod: ${said(error)}`)
  }

  const [ours] = await db
    .select({ podId: acepPods.podId })
    .from(acepPods)
    .where(and(isNotNull(acepPods.podId), isNull(acepPods.releasedAt)))
    .limit(1)
  if (ours?.podId) {
    try {
      const pod = await client.call<{ Online?: number }>('DetailPod', {
        ...product,
        PodId: ours.podId,
      })
      result.notes.push(`DetailPod ${ours.podId}: Online ${pod?.Online ?? '?'}`)
    } catch (error) {
      result.notes.push(`DetailPod ${ours.podId} (a pod of ours): ${said(error)}`)
    }
  } else {
    result.notes.push('no pod of ours yet: DetailPod not tried')
  }
  return result
}
