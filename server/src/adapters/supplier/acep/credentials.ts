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

const REQUIRED = [
  'ACEP_ACCESS_KEY_ID',
  'ACEP_SECRET_ACCESS_KEY',
  'ACEP_PRODUCT_ID',
  'ACEP_CALLBACK_ACCESS_KEY',
  'ACEP_CALLBACK_SECRET',
] as const

/** The credentials, or every variable that is missing (so production names them all at once). */
export function acepCredentialsFromEnv(
  env: NodeJS.ProcessEnv,
): { credentials: AcepCredentials; missing: [] } | { credentials: null; missing: string[] } {
  const missing = REQUIRED.filter((name) => !env[name])
  if (missing.length > 0) return { credentials: null, missing }
  return {
    credentials: {
      accessKeyId: env.ACEP_ACCESS_KEY_ID!,
      secretAccessKey: env.ACEP_SECRET_ACCESS_KEY!,
      productId: env.ACEP_PRODUCT_ID!,
      region: env.ACEP_REGION || 'cn-north-1',
      endpoint: (env.ACEP_ENDPOINT || 'https://open.volcengineapi.com').replace(/\/+$/, ''),
      callbackAccessKey: env.ACEP_CALLBACK_ACCESS_KEY!,
      callbackSecret: env.ACEP_CALLBACK_SECRET!,
    },
    missing: [],
  }
}
