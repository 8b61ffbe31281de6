/** What the ACEP adapter needs from the environment (SUPPLIER_PROVIDER=acep). */
export interface AcepCredentials {
  accessKeyId: string
  secretAccessKey: string
  /** The ACEP business (业务) our pods belong to. */
  productId: string
  region: string
  endpoint: string
  /** The AK/SK pair configured for callbacks in the ACEP console (功能配置 → 回调). */
  callbackAccessKey: string
  callbackSecret: string
}

/** adapters/index.ts's CredentialsResult for ACEP. */
export type AcepCredentialsResult =
  { ok: true; credentials: AcepCredentials } | { ok: false; problems: string[] }

const isHttpUrl = (value: string) => {
  try {
    return ['http:', 'https:'].includes(new URL(value).protocol)
  } catch {
    return false
  }
}

const REQUIRED = [
  'ACEP_ACCESS_KEY_ID',
  'ACEP_SECRET_ACCESS_KEY',
  'ACEP_PRODUCT_ID',
  'ACEP_CALLBACK_ACCESS_KEY',
  'ACEP_CALLBACK_SECRET',
] as const

/**
 * The credentials, or every problem (each missing variable, an endpoint that is not an http(s) URL), so
 * that production's one refusal names them all (adapters/index.ts).
 */
export function acepCredentialsFromEnv(env: NodeJS.ProcessEnv): AcepCredentialsResult {
  const problems: string[] = []
  const missing = REQUIRED.filter((name) => !env[name])
  if (missing.length > 0) problems.push(`SUPPLIER_PROVIDER=acep needs ${missing.join(', ')}`)
  const given = env.ACEP_ENDPOINT || 'https://open.volcengineapi.com'
  if (!isHttpUrl(given)) problems.push(`ACEP_ENDPOINT must be an http(s) URL (got "${given}")`)
  const endpoint = given.replace(/\/+$/, '')
  if (problems.length > 0) return { ok: false, problems }
  return {
    ok: true,
    credentials: {
      accessKeyId: env.ACEP_ACCESS_KEY_ID!,
      secretAccessKey: env.ACEP_SECRET_ACCESS_KEY!,
      productId: env.ACEP_PRODUCT_ID!,
      region: env.ACEP_REGION || 'cn-north-1',
      endpoint,
      callbackAccessKey: env.ACEP_CALLBACK_ACCESS_KEY!,
      callbackSecret: env.ACEP_CALLBACK_SECRET!,
    },
  }
}
