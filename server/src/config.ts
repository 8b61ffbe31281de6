/**
 * The server's settings: read from the environment (loadConfig), checked for production
 * (assertProductionSafe), with their defaults in SERVER_DEFAULTS. It sits below every layer and imports
 * nothing of the server, so adapters, services and the composition root can all read it.
 */
import path from 'node:path'

export type SmsProviderName = 'sandbox' | 'aliyun'
export type WechatProviderName = 'sandbox' | 'wechat'
/** Who collects pay method 1 (alipay) and 2 (wechatPay); the sandbox by default. */
export type AlipayProviderName = 'sandbox' | 'alipay'
export type WechatPayProviderName = 'sandbox' | 'wechatpay'
export type SupplierProviderName = 'sandbox' | 'acep'
export type NodeEnv = 'development' | 'test' | 'production'

/**
 * The switch that lets production run on each adapter's sandbox. One switch per adapter: allowing one
 * sandbox (say the supplier, while ACEP is not yet contracted) never lets another in with it.
 */
export const SANDBOX_SWITCHES = {
  sms: 'ALLOW_SANDBOX_SMS',
  wechat: 'ALLOW_SANDBOX_WECHAT',
  payment: 'ALLOW_SANDBOX_PAYMENT',
  supplier: 'ALLOW_SANDBOX_SUPPLIER',
} as const
export type SandboxAdapter = keyof typeof SANDBOX_SWITCHES

/** Once allowed every sandbox at once; production now refuses to start while it is set. */
export const RETIRED_SANDBOX_SWITCH = 'ALLOW_SANDBOX_IN_PRODUCTION'

export interface ServerConfig {
  port: number
  /** 0.0.0.0 by default so a phone on the same network can reach a dev server; set HOST=127.0.0.1 to keep it local. */
  host: string
  /** NODE_ENV trimmed and lower-cased: `Production` is production too. */
  nodeEnv: NodeEnv
  production: boolean
  /** The sandboxes production may run on (SANDBOX_SWITCHES); outside production every one is allowed. */
  sandboxAllowed: Record<SandboxAdapter, boolean>
  /** RETIRED_SANDBOX_SWITCH is set (production refuses to start with it). */
  retiredSandboxSwitch: boolean
  /** Swagger UI at /docs: on outside production, in production only with ENABLE_API_DOCS=1. */
  apiDocs: boolean
  dataDir: string
  databaseUrl: string | null
  customerServiceUrl: string | null
  /** The H5 build, served at / when its index.html exists; null: not served (tests). */
  h5Dist: string | null
  /** The operator console's build, served at /admin (`npm run build:admin`); null: /admin says it is not built. */
  adminDist: string | null
  filesDir: string
  /** Uploads never served (APKs): PRIVATE_FILES_DIR, default DATA_DIR/private-files. */
  privateFilesDir: string
  tokenTtlDays: number
  /**
   * How long a looked-up session is trusted: a revocation made on another instance shows here within
   * this time (0: look every session up).
   */
  sessionCacheMs: number
  /** 自动续费 renews a phone this many days before it expires (AUTO_RENEW_DAYS_BEFORE). */
  autoRenewDaysBefore: number
  /**
   * How often an instance looks for due jobs (JOB_POLL_MS): a delivery, a provisioning step or a
   * backup's next look waits at most this long for its turn.
   */
  jobPollMs: number
  logLevel: string
  /** Behind a reverse proxy, take the client IP (for rate limits) from X-Forwarded-For. */
  trustProxy: boolean
  /** Per-IP requests per minute: whole API, and SMS/login routes. 0 turns rate limiting off. */
  rateLimitPerMinute: number
  /** 0: the whole API's limit. */
  sensitiveRateLimitPerMinute: number
  /** The operator console's sign-in limits (SERVER_DEFAULTS; no variable sets them). */
  operatorSignInPerIpPerMinute: number
  operatorSignInPerNameAndIpPer15Minutes: number
  smsProvider: SmsProviderName
  wechatProvider: WechatProviderName
  alipayProvider: AlipayProviderName
  wechatpayProvider: WechatPayProviderName
  /**
   * The https origin providers call back (notify URL `${publicBaseUrl}/vmcloud/api/pay/notify/<name>`)
   * and send buyers back to; without a trailing slash. Needed once a real payment provider is on.
   */
  publicBaseUrl: string | null
  /**
   * Production on embedded PGlite (a single-process database in DATA_DIR) instead of DATABASE_URL:
   * only with ALLOW_EMBEDDED_DATABASE=1.
   */
  allowEmbeddedDatabase: boolean
  /** The cloud-phone supplier: the sandbox, or Volcano Engine ACEP (ACEP_* variables). */
  supplierProvider: SupplierProviderName
  /** Sandbox supplier: how long provisioning and reboots take, and the share of operations that fail. */
  sandboxSupplierDelayMs: number
  sandboxSupplierFailureRate: number
  /** Sandbox payment provider: HMAC secret of its notifications, and how long it takes to send one. */
  sandboxPaySecret: string
  sandboxPayDelayMs: number
  /** Key of the hashes that record one-time benefits per person (services/accounts/benefits.ts). */
  benefitPepper: string
}

function oneOf<T extends string>(name: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T
  throw new Error(`${name} must be one of ${allowed.join(', ')} (got "${value}")`)
}

/** An on/off switch: 1 or 0 (unset or empty: the default); anything else is a typo, refused. */
function flag(name: string, value: string | undefined, fallback: boolean): boolean {
  if (value === undefined || value === '') return fallback
  if (value === '1' || value === '0') return value === '1'
  throw new Error(`${name} must be 1 or 0 (got "${value}")`)
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

/** From 100 ms (each poll is a query on every instance) to a minute (a delivery waits a poll at most). */
function jobPollMs(value: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 100 || n > 60_000)
    throw new Error(`JOB_POLL_MS must be a whole number from 100 to 60000 (got "${value}")`)
  return n
}

function fraction(name: string, value: string): number {
  const n = Number(value)
  if (!Number.isFinite(n) || n < 0 || n > 1)
    throw new Error(`${name} must be a number from 0 to 1 (got "${value}")`)
  return n
}

/**
 * What the server runs with when nothing says otherwise, read by loadConfig alone (an unset variable);
 * tests start from loadConfig's answer too (server/test/helpers/test-config.ts).
 */
export const SERVER_DEFAULTS = {
  tokenTtlDays: 30,
  /** How long a revocation made on another instance may go unseen here (SESSION_CACHE_MS). */
  sessionCacheMs: 5_000,
  autoRenewDaysBefore: 3,
  jobPollMs: 5_000,
  rateLimitPerMinute: 300,
  sensitiveRateLimitPerMinute: 20,
  sandboxSupplierDelayMs: 3000,
  sandboxSupplierFailureRate: 0,
  /** For development and tests only: production refuses to start with it (assertProductionSafe). */
  sandboxPaySecret: 'sandbox-pay-dev-secret',
  sandboxPayDelayMs: 300,
  /** For development and tests only: production refuses to start with it (assertProductionSafe). */
  benefitPepper: 'cloudphone-development-benefit-pepper',
  /** Operator console sessions end after 30 minutes without a call, and 12 hours after sign-in. */
  operatorSessionIdleMs: 30 * 60_000,
  operatorSessionMaxMs: 12 * 3_600_000,
  /**
   * Operator sign-in attempts: per IP per minute, and per name from one IP per 15 minutes. Nothing counts
   * per name from every IP, so nobody without the password can lock an operator out.
   */
  operatorSignInPerIpPerMinute: 10,
  operatorSignInPerNameAndIpPer15Minutes: 10,
  /** Wrong TOTP codes after the right password, per operator per 15 minutes, whatever the IP. */
  operatorTotpGuessesPer15Minutes: 10,
} as const

/** Reads the server settings from the environment; every value has a default that runs out of the box. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = path.resolve(env.DATA_DIR || './data')
  // An unknown NODE_ENV (a typo of production, say) is refused rather than run as development.
  const nodeEnv = oneOf('NODE_ENV', env.NODE_ENV?.trim().toLowerCase() || 'development', [
    'development',
    'test',
    'production',
  ] as const)
  const production = nodeEnv === 'production'
  const sandboxAllowed = Object.fromEntries(
    Object.entries(SANDBOX_SWITCHES).map(([adapter, name]) => [
      adapter,
      // Read (and checked for typos) everywhere, needed only in production.
      flag(name, env[name], false) || !production,
    ]),
  ) as Record<SandboxAdapter, boolean>
  return {
    port: positiveInt('PORT', env.PORT || '3000'),
    host: env.HOST || '0.0.0.0',
    nodeEnv,
    production,
    sandboxAllowed,
    retiredSandboxSwitch: Boolean(env[RETIRED_SANDBOX_SWITCH]),
    apiDocs: flag('ENABLE_API_DOCS', env.ENABLE_API_DOCS, !production),
    dataDir,
    databaseUrl: env.DATABASE_URL || null,
    customerServiceUrl: env.CUSTOMER_SERVICE_URL || null,
    h5Dist: path.resolve(env.H5_DIST || 'dist/h5'),
    adminDist: path.resolve(env.ADMIN_DIST || 'dist/admin'),
    filesDir: path.resolve(env.FILES_DIR || path.join(dataDir, 'files')),
    privateFilesDir: path.resolve(env.PRIVATE_FILES_DIR || path.join(dataDir, 'private-files')),
    tokenTtlDays: positiveInt(
      'TOKEN_TTL_DAYS',
      env.TOKEN_TTL_DAYS || String(SERVER_DEFAULTS.tokenTtlDays),
    ),
    sessionCacheMs: nonNegativeInt(
      'SESSION_CACHE_MS',
      env.SESSION_CACHE_MS || String(SERVER_DEFAULTS.sessionCacheMs),
    ),
    autoRenewDaysBefore: positiveInt(
      'AUTO_RENEW_DAYS_BEFORE',
      env.AUTO_RENEW_DAYS_BEFORE || String(SERVER_DEFAULTS.autoRenewDaysBefore),
    ),
    jobPollMs: jobPollMs(env.JOB_POLL_MS || String(SERVER_DEFAULTS.jobPollMs)),
    logLevel: env.LOG_LEVEL || 'info',
    trustProxy: env.TRUST_PROXY === '1',
    rateLimitPerMinute: nonNegativeInt(
      'RATE_LIMIT_PER_MINUTE',
      env.RATE_LIMIT_PER_MINUTE || String(SERVER_DEFAULTS.rateLimitPerMinute),
    ),
    sensitiveRateLimitPerMinute: nonNegativeInt(
      'SENSITIVE_RATE_LIMIT_PER_MINUTE',
      env.SENSITIVE_RATE_LIMIT_PER_MINUTE || String(SERVER_DEFAULTS.sensitiveRateLimitPerMinute),
    ),
    operatorSignInPerIpPerMinute: SERVER_DEFAULTS.operatorSignInPerIpPerMinute,
    operatorSignInPerNameAndIpPer15Minutes: SERVER_DEFAULTS.operatorSignInPerNameAndIpPer15Minutes,
    smsProvider: oneOf('SMS_PROVIDER', env.SMS_PROVIDER || 'sandbox', [
      'sandbox',
      'aliyun',
    ] as const),
    wechatProvider: oneOf('WECHAT_PROVIDER', env.WECHAT_PROVIDER || 'sandbox', [
      'sandbox',
      'wechat',
    ] as const),
    alipayProvider: oneOf('ALIPAY_PROVIDER', env.ALIPAY_PROVIDER || 'sandbox', [
      'sandbox',
      'alipay',
    ] as const),
    wechatpayProvider: oneOf('WECHATPAY_PROVIDER', env.WECHATPAY_PROVIDER || 'sandbox', [
      'sandbox',
      'wechatpay',
    ] as const),
    publicBaseUrl: env.PUBLIC_BASE_URL?.trim().replace(/\/+$/, '') || null,
    allowEmbeddedDatabase: flag('ALLOW_EMBEDDED_DATABASE', env.ALLOW_EMBEDDED_DATABASE, false),
    supplierProvider: oneOf('SUPPLIER_PROVIDER', env.SUPPLIER_PROVIDER || 'sandbox', [
      'sandbox',
      'acep',
    ] as const),
    sandboxSupplierDelayMs: nonNegativeInt(
      'SANDBOX_SUPPLIER_DELAY_MS',
      env.SANDBOX_SUPPLIER_DELAY_MS || String(SERVER_DEFAULTS.sandboxSupplierDelayMs),
    ),
    sandboxSupplierFailureRate: fraction(
      'SANDBOX_SUPPLIER_FAILURE_RATE',
      env.SANDBOX_SUPPLIER_FAILURE_RATE || String(SERVER_DEFAULTS.sandboxSupplierFailureRate),
    ),
    sandboxPaySecret: env.SANDBOX_PAY_SECRET || SERVER_DEFAULTS.sandboxPaySecret,
    sandboxPayDelayMs: nonNegativeInt(
      'SANDBOX_PAY_DELAY_MS',
      env.SANDBOX_PAY_DELAY_MS || String(SERVER_DEFAULTS.sandboxPayDelayMs),
    ),
    benefitPepper: env.BENEFIT_PEPPER || SERVER_DEFAULTS.benefitPepper,
  }
}

/** The per-IP request limits the server enforces; null when RATE_LIMIT_PER_MINUTE is 0 (off). */
export interface RateLimits {
  /** Requests per minute per IP for the whole server. */
  globalPerMinute: number
  /** Requests per minute per IP for SMS sending and logins. */
  sensitivePerMinute: number
  /** The operator console's sign-in attempts. */
  operatorSignIn: { perIpPerMinute: number; perNameAndIpPer15Minutes: number }
}

export function rateLimitsOf(config: ServerConfig): RateLimits | null {
  if (config.rateLimitPerMinute <= 0) return null
  return {
    globalPerMinute: config.rateLimitPerMinute,
    sensitivePerMinute: config.sensitiveRateLimitPerMinute || config.rateLimitPerMinute,
    operatorSignIn: {
      perIpPerMinute: config.operatorSignInPerIpPerMinute,
      perNameAndIpPer15Minutes: config.operatorSignInPerNameAndIpPer15Minutes,
    },
  }
}

/** The adapters this config runs on a sandbox. */
export function sandboxAdapters(config: ServerConfig): SandboxAdapter[] {
  const inUse: Record<SandboxAdapter, boolean> = {
    sms: config.smsProvider === 'sandbox',
    wechat: config.wechatProvider === 'sandbox',
    // in use while either pay method is collected by the sandbox
    payment: sandboxPayMethods(config).length > 0,
    supplier: config.supplierProvider === 'sandbox',
  }
  return (Object.keys(inUse) as SandboxAdapter[]).filter((adapter) => inUse[adapter])
}

/** The pay-method settings the sandbox payment provider serves, e.g. ['ALIPAY_PROVIDER=sandbox']. */
function sandboxPayMethods(config: ServerConfig): string[] {
  return [
    config.alipayProvider === 'sandbox' ? 'ALIPAY_PROVIDER=sandbox' : null,
    config.wechatpayProvider === 'sandbox' ? 'WECHATPAY_PROVIDER=sandbox' : null,
  ].filter((setting): setting is string => setting !== null)
}

/** A real payment provider is on: providers call us back and send buyers back to PUBLIC_BASE_URL. */
export const realPaymentProviderOn = (config: ServerConfig) =>
  config.alipayProvider !== 'sandbox' || config.wechatpayProvider !== 'sandbox'

/** What production loses with each sandbox, said where the switch is asked for. */
const SANDBOX_REFUSALS: Record<SandboxAdapter, string> = {
  sms: `SMS_PROVIDER=sandbox: set SMS_PROVIDER=aliyun, or ${SANDBOX_SWITCHES.sms}=1 (login codes then reach nobody but the server log)`,
  wechat: `WECHAT_PROVIDER=sandbox: set WECHAT_PROVIDER=wechat, or ${SANDBOX_SWITCHES.wechat}=1 (anyone can then log in as any WeChat user)`,
  payment: `the sandbox payment provider: set ALIPAY_PROVIDER=alipay and WECHATPAY_PROVIDER=wechatpay, or ${SANDBOX_SWITCHES.payment}=1 (its checkout is not served in production)`,
  supplier: `SUPPLIER_PROVIDER=sandbox: set SUPPLIER_PROVIDER=acep, or ${SANDBOX_SWITCHES.supplier}=1 (its control page and screens are not served in production)`,
}

/** The one message a refused start gives: every problem, one a line. */
export function refusalMessage(config: ServerConfig, problems: readonly string[]): string {
  const head = config.production
    ? 'Refusing to start with NODE_ENV=production'
    : 'Refusing to start'
  return `${head}:\n- ${problems.join('\n- ')}`
}

/**
 * Production starts only on real adapters or on sandboxes allowed one by one, never with the retired
 * all-at-once switch or the development payment secret. Every problem is named in one message.
 */
export function assertProductionSafe(config: ServerConfig): void {
  const problems = productionProblems(config)
  if (problems.length > 0) throw new Error(refusalMessage(config, problems))
}

/**
 * What production refuses to start with, each named (nothing outside production). The adapters'
 * credentials are checked where they are read (adapters/index.ts), which adds theirs to these.
 */
export function productionProblems(config: ServerConfig): string[] {
  if (!config.production) return []
  const problems: string[] = []
  if (config.retiredSandboxSwitch) {
    problems.push(
      `${RETIRED_SANDBOX_SWITCH} is retired: remove it and allow each sandbox on its own ` +
        `(${Object.values(SANDBOX_SWITCHES).join(', ')})`,
    )
  }
  const sandboxes = sandboxAdapters(config)
  for (const adapter of sandboxes) {
    if (!config.sandboxAllowed[adapter]) {
      problems.push(
        adapter === 'payment'
          ? `${sandboxPayMethods(config).join(', ')}: ${SANDBOX_REFUSALS.payment}`
          : SANDBOX_REFUSALS[adapter],
      )
    }
  }
  // Anyone who knows the default secret could sign "paid" notifications.
  if (
    sandboxes.includes('payment') &&
    config.sandboxPaySecret === SERVER_DEFAULTS.sandboxPaySecret
  ) {
    problems.push('the default SANDBOX_PAY_SECRET: set a secret of your own')
  }
  // With the public default, the hashed numbers of benefit_claims are found again by trying every number.
  if (config.benefitPepper === SERVER_DEFAULTS.benefitPepper) {
    problems.push(
      'the default BENEFIT_PEPPER: set a secret of your own (and keep it: changing it forgets who took the new-user benefits)',
    )
  }
  // Providers call back and return buyers over the public internet, and ACEP fetches the app library's
  // APKs from our signed links (docs/apps.md): https, or nothing arrives.
  if (realPaymentProviderOn(config) || config.supplierProvider === 'acep') {
    const url = config.publicBaseUrl
    if (!url) {
      problems.push(
        'PUBLIC_BASE_URL is not set: the https origin payment providers call back (…/vmcloud/api/pay/notify/<provider>) and return buyers to, and ACEP fetches APKs from',
      )
    } else if (!isHttpsOrigin(url)) {
      problems.push(`PUBLIC_BASE_URL must be an https origin (got "${url}")`)
    }
  }
  // PGlite is one process's embedded database: no second instance, no failover, backups by copying
  // DATA_DIR. A business runs on PostgreSQL unless its operator says otherwise.
  if (!config.databaseUrl && !config.allowEmbeddedDatabase) {
    problems.push(
      'DATABASE_URL is not set: production runs on PostgreSQL (or set ALLOW_EMBEDDED_DATABASE=1 to run on the embedded single-process PGlite in DATA_DIR)',
    )
  }
  return problems
}

/** https://host[:port][/path], nothing else (no query, fragment or credentials). */
function isHttpsOrigin(value: string): boolean {
  try {
    const url = new URL(value)
    return url.protocol === 'https:' && !url.search && !url.hash && !url.username && !url.password
  } catch {
    return false
  }
}
