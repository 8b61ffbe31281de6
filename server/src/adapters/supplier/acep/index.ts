import type { Clock } from '../../../clock'
import type { Db } from '../../../db/client'
import { AcepClient, acepClientFor } from './acep-client'
import { ACEP_PREFIX, AcepSupplier } from './acep-supplier'
import { assertAcepCatalogue } from './catalogue'
import type { AcepCredentials } from './credentials'
import { AcepStream } from './stream'

export { checkAcep } from './acep-check'

/**
 * The live stream's key issuer when the operator gave the web SDK (credentials.stream), else null: STS
 * AssumeRole signed with our ACEP pair for service `sts`.
 */
export function acepStreamFor(
  credentials: AcepCredentials,
  options: { backoffMs?: number } = {},
): AcepStream | null {
  const { stream } = credentials
  if (!stream) return null
  const sts = new AcepClient({
    endpoint: stream.stsEndpoint,
    keys: {
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      region: credentials.region,
      service: 'sts',
    },
    attempts: 3,
    backoffMs: options.backoffMs,
  })
  return new AcepStream(stream, credentials.productId, sts, ACEP_PREFIX)
}

/**
 * The ACEP supplier main.ts runs with SUPPLIER_PROVIDER=acep, once the database is migrated: it refuses
 * to start while a goods on sale or a zone has no ACEP id (catalogue.ts).
 */
export async function createAcepSupplier(
  db: Db,
  clock: Clock,
  settings: { credentials: AcepCredentials; imageId: string; publicBase?: string },
): Promise<AcepSupplier> {
  await assertAcepCatalogue(db)
  const { credentials } = settings
  return new AcepSupplier(db, clock, credentials, acepClientFor(credentials), {
    imageId: settings.imageId,
    publicBase: settings.publicBase,
    stream: acepStreamFor(credentials),
  })
}
