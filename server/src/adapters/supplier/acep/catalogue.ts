/**
 * Our catalogue as ACEP knows it: each goods → an ACEP configuration code (ConfigurationCode), each zone →
 * a data-centre id (Dc), in supplier_catalogue rows operators edit. Checked at start-up: with ACEP, a
 * goods on sale or a zone without its id stops the server with the whole list.
 */
import { and, eq } from 'drizzle-orm'
import type { Db } from '../../../db/client'
import { goods, supplierCatalogue, zones } from '../../../db/schema'

export const ACEP = 'acep'
export type CatalogueKind = 'goods' | 'zone'

export class AcepCatalogue {
  constructor(private readonly db: Db) {}

  /** ACEP's id for our goods or zone; throws when it has none (start-up made sure it has). */
  async remote(kind: CatalogueKind, localId: number): Promise<string> {
    const [row] = await this.db
      .select({ remoteId: supplierCatalogue.remoteId })
      .from(supplierCatalogue)
      .where(
        and(
          eq(supplierCatalogue.supplier, ACEP),
          eq(supplierCatalogue.kind, kind),
          eq(supplierCatalogue.localId, localId),
        ),
      )
    if (!row) throw new Error(`ACEP catalogue: no ${kind} mapping for ${localId}`)
    return row.remoteId
  }

  /** Our goods or zone for ACEP's id, or null when none maps to it. */
  async local(kind: CatalogueKind, remoteId: string): Promise<number | null> {
    const [row] = await this.db
      .select({ localId: supplierCatalogue.localId })
      .from(supplierCatalogue)
      .where(
        and(
          eq(supplierCatalogue.supplier, ACEP),
          eq(supplierCatalogue.kind, kind),
          eq(supplierCatalogue.remoteId, remoteId),
        ),
      )
      .limit(1)
    return row?.localId ?? null
  }
}

/** Every goods on sale and every zone without an ACEP id, as lines of the start-up refusal. */
export async function unmappedCatalogue(db: Db): Promise<string[]> {
  const mapped = await db
    .select({ kind: supplierCatalogue.kind, localId: supplierCatalogue.localId })
    .from(supplierCatalogue)
    .where(eq(supplierCatalogue.supplier, ACEP))
  const has = new Set(mapped.map((row) => `${row.kind}:${row.localId}`))
  const onSale = await db
    .select({ id: goods.id, name: goods.name })
    .from(goods)
    .where(eq(goods.onSale, true))
  const allZones = await db.select({ id: zones.id, name: zones.name }).from(zones)
  return [
    ...onSale
      .filter((g) => !has.has(`goods:${g.id}`))
      .map((g) => `goods ${g.id} ${g.name}: no ACEP configuration code`),
    ...allZones
      .filter((z) => !has.has(`zone:${z.id}`))
      .map((z) => `zone ${z.id} ${z.name}: no ACEP data centre (Dc)`),
  ]
}

/** Refuses to run ACEP on a catalogue it cannot fully provision. */
export async function assertAcepCatalogue(db: Db): Promise<void> {
  const missing = await unmappedCatalogue(db)
  if (missing.length > 0) {
    throw new Error(
      `SUPPLIER_PROVIDER=acep needs an ACEP id for every goods on sale and every zone ` +
        `(table supplier_catalogue, supplier 'acep'):\n- ${missing.join('\n- ')}`,
    )
  }
}
