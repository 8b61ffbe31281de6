import path from 'node:path'
import { SANDBOX_PAY_DEV_SECRET } from './adapters/payment/sandbox-payment'
import { DEFAULT_SESSION_CACHE_MS } from './services/session-service'

export type SmsProviderName = 'sandbox' | 'aliyun'
export type WechatProviderName = 'sandbox' | 'wechat'

export interface ServerConfig {
  port: number
  /** 0.0.0.0 by default so a phone on the same network can reach a dev server; set HOST=127.0.0.1 to keep it local. */
  host: string
  nodeEnv: string
  dataDir: string
  databaseUrl: string | null
  allowSandboxInProduction: boolean
  customerServiceUrl: string | null
  h5Dist: string
  filesDir: string
  tokenTtlDays: number
  /**
   * How long a looked-up session is trusted: a revocation made on another instance shows here within
   * this time (0: look every session up).
   */
  sessionCacheMs: number
  logLevel: string
  /** Behind a reverse proxy, take the client IP (for rate limits) from X-Forwarded-For. */
  trustProxy: boolean
  /** Per-IP requests per minute: whole API, and SMS/login routes. 0 turns rate limiting off. */
  rateLimitPerMinute: number
  sensitiveRateLimitPerMinute: number
  smsProvider: SmsProviderName
  wechatProvider: WechatProviderName
  /** Sandbox supplier: how long provisioning and reboots take, and the share of operations that fail. */
  sandboxSupplierDelayMs: number
  sandboxSupplierFailureRate: number
  /** Sandbox payment provider: HMAC secret of its notifications, and how long it takes to send one. */
  sandboxPaySecret: string
  sandboxPayDelayMs: number
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T
  throw new Error(`${name} must be one of ${allowed.join(', ')} (got "${value}")`)
}

function positiveInt(name: string, value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n <= 0)
    throw new Error(`${name} must be a positive integer (got "${value}")`)
  return n
}

function nonNegativeInt(name: string, value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`${name} must be a whole number (got "${value}")`)
  return n
}

function fraction(name: string, value: string): number {
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw new Error(`${name} must be a number from 0 to 1 (got "${value}")`)
  return n
}

/** Reads the server settings from the environment; every value has a default that runs out of the box. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = path.resolve(env.DATA_DIR || './data')
  return {
    port: positiveInt('PORT', env.PORT || '3000'),
    host: env.HOST || '0.0.0.0',
    nodeEnv: env.NODE_ENV || 'development',
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    allowSandboxInProduction: env.ALLOW_SANDBOX_IN_PRODUCTION === '1',
    customerServiceUrl: env.CUSTOMER_SERVICE_URL || null,
    h5Dist: path.resolve(env.H5_DIST || 'dist/h5'),
    filesDir: path.resolve(env.FILES_DIR || path.join(dataDir, 'files')),
    tokenTtlDays: positiveInt('TOKEN_TTL_DAYS', env.TOKEN_TTL_DAYS || '30'),
    sessionCacheMs: nonNegativeInt(
      'SESSION_CACHE_MS',
      env.SESSION_CACHE_MS || String(DEFAULT_SESSION_CACHE_MS),
    ),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: env.TRUST_PROXY === '1',
    rateLimitPerMinute: nonNegativeInt('RATE_LIMIT_PER_MINUTE', env.RATE_LIMIT_PER_MINUTE || '300'),
    sensitiveRateLimitPerMinute: nonNegativeInt(
      'SENSITIVE_RATE_LIMIT_PER_MINUTE',
      env.SENSITIVE_RATE_LIMIT_PER_MINUTE || '20',
    ),
    smsProvider: oneOf('SMS_PROVIDER', env.SMS_PROVIDER || 'sandbox', [
      'sandbox',
      'aliyun',
    ] as const),
    wechatProvider: oneOf('WECHAT_PROVIDER', env.WECHAT_PROVIDER || 'sandbox', [
      'sandbox',
      'wechat',
    ] as const),
    sandboxSupplierDelayMs: nonNegativeInt(
      'SANDBOX_SUPPLIER_DELAY_MS',
      env.SANDBOX_SUPPLIER_DELAY_MS || '3000',
    ),
    sandboxSupplierFailureRate: fraction(
      'SANDBOX_SUPPLIER_FAILURE_RATE',
      env.SANDBOX_SUPPLIER_FAILURE_RATE || '0',
    ),
    sandboxPaySecret: env.SANDBOX_PAY_SECRET || SANDBOX_PAY_DEV_SECRET,
    sandboxPayDelayMs: nonNegativeInt('SANDBOX_PAY_DELAY_MS', env.SANDBOX_PAY_DELAY_MS || '300'),
  }
}

/** Sandbox adapters fake SMS and WeChat; production must opt in explicitly to run with them. */
export function assertProductionSafe(config: ServerConfig): void {
  // Anyone who knows the default secret could sign "paid" notifications.
  if (config.nodeEnv === 'production' && config.sandboxPaySecret === SANDBOX_PAY_DEV_SECRET) {
    throw new Error(
      'Refusing to start: NODE_ENV=production with the default SANDBOX_PAY_SECRET. Set a secret of your own.',
    )
  }
  if (config.nodeEnv !== 'production' || config.allowSandboxInProduction) return
  const sandboxed = [
    config.smsProvider === 'sandbox' && 'SMS_PROVIDER',
    config.wechatProvider === 'sandbox' && 'WECHAT_PROVIDER',
    // No real cloud-phone supplier is integrated yet: production always runs the sandbox one.
    'SUPPLIER (sandbox only)',
    // Likewise payments: only the sandbox provider exists so far.
    'PAYMENT (sandbox only)',
  ].filter(Boolean)
  if (sandboxed.length > 0) {
    throw new Error(
      `Refusing to start: NODE_ENV=production with sandbox adapters (${sandboxed.join(', ')}). ` +
        'Configure real providers or set ALLOW_SANDBOX_IN_PRODUCTION=1.',
    )
  }
}
