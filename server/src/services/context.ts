import type { FastifyBaseLogger } from 'fastify'
import type { PaymentProvider } from '../adapters/payment/payment-provider'
import type { SmsAdapter } from '../adapters/sms/sms-adapter'
import type { SupplierAdapter } from '../adapters/supplier/supplier-adapter'
import type { WechatAdapter } from '../adapters/wechat/wechat-adapter'
import type { Db } from '../db/client'
import type { Clock } from './clock'

/** What every service gets: the database, time, adapters and settings. No request state. */
export interface ServiceContext {
  db: Db
  clock: Clock
  log: FastifyBaseLogger
  sms: SmsAdapter
  wechat: WechatAdapter
  supplier: SupplierAdapter
  payment: PaymentProvider
  settings: {
    tokenTtlDays: number
    /** How long a looked-up session is trusted before asking the database again (0: never). */
    sessionCacheMs: number
    filesDir: string
    customerServiceUrl: string | null
  }
}

/** SQLSTATE of a unique violation, for both PGlite and node-postgres (wrapped by DrizzleQueryError). */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; cause?: { code?: string } }
  return e?.code === '23505' || e?.cause?.code === '23505'
}
