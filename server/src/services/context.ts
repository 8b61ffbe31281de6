import type { FastifyBaseLogger } from 'fastify'
import type { PaymentProviders } from '../adapters/payment/payment-providers'
import type { SmsAdapter } from '../adapters/sms/sms-adapter'
import type { SupplierAdapter } from '../adapters/supplier/supplier-adapter'
import type { WechatAdapter } from '../adapters/wechat/wechat-adapter'
import type { Db } from '../db/client'
import type { Clock } from '../clock'
import type { ServerConfig } from '../config'

/** What every service gets: the database, time, adapters and settings. No request state. */
export interface ServiceContext {
  /**
   * The database outside any transaction. The house rule: a service method that may run inside a
   * transaction takes its query layer as a required `db` (or `tx`) parameter, never a default of
   * `ctx.db`, and a caller outside a transaction passes `ctx.db` itself. A forgotten `tx` is then a
   * type error instead of a second connection, which on PGlite (one connection, held by the
   * transaction) waits for ever.
   */
  db: Db
  clock: Clock
  log: FastifyBaseLogger
  sms: SmsAdapter
  wechat: WechatAdapter
  supplier: SupplierAdapter
  /** The payment providers: one per pay method, each trade's by the name on its payment row. */
  paymentProviders: PaymentProviders
  settings: ServiceSettings
}

/** The part of the server's configuration services read. */
export type ServiceSettings = Pick<
  ServerConfig,
  | 'tokenTtlDays'
  | 'sessionCacheMs'
  | 'filesDir'
  | 'privateFilesDir'
  | 'customerServiceUrl'
  | 'benefitPepper'
  | 'autoRenewDaysBefore'
>

/** The services' settings, taken from the configuration here and nowhere else. */
export function serviceSettings(config: ServerConfig): ServiceSettings {
  const { tokenTtlDays, sessionCacheMs, filesDir, customerServiceUrl, benefitPepper } = config
  const { autoRenewDaysBefore, privateFilesDir } = config
  return {
    tokenTtlDays,
    sessionCacheMs,
    filesDir,
    privateFilesDir,
    customerServiceUrl,
    benefitPepper,
    autoRenewDaysBefore,
  }
}

type DatabaseError = { code?: string; constraint?: string }

/** The database's own error behind a failed query, from PGlite or node-postgres (in DrizzleQueryError). */
function databaseError(error: unknown, code: string): DatabaseError | null {
  const e = error as (DatabaseError & { cause?: DatabaseError }) | undefined
  return e?.code === code ? e : e?.cause?.code === code ? e.cause : null
}

/** A unique violation; with `indexes`, only a violation of one of them. */
export function isUniqueViolation(error: unknown, indexes?: string[]): boolean {
  const violation = databaseError(error, '23505')
  return !!violation && (!indexes || indexes.includes(violation.constraint ?? ''))
}

/** A check constraint refused the row (also one a trigger's update ran into). */
export function isCheckViolation(error: unknown, constraint: string): boolean {
  return databaseError(error, '23514')?.constraint === constraint
}

/** PostgreSQL ended this transaction to break a deadlock; run again, it goes through. */
export const isDeadlock = (error: unknown) => databaseError(error, '40P01') !== null
