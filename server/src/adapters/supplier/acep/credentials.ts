import fs from 'node:fs'
import { QUALITIES, type Quality, type StreamProfiles } from '#domain/control-page'

/**
 * Where the SDK connects from the page (Content-Security-Policy connect-src): Volcengine's RTC
 * signalling and media hosts, its log host, and ACEP's OpenAPI gateway. ACEP_STREAM_CONNECT_SRC
 * replaces the list when Volcengine names others.
 */
export const DEFAULT_STREAM_CONNECT_SRC = [
  'https://open.volcengineapi.com',
  'https://*.rtc.volcvideo.com',
  'wss://*.rtc.volcvideo.com',
  'https://log.snssdk.com',
]
/** A vePhoneSDK-Web.js bigger than this is not the SDK. */
export const MAX_SDK_BYTES = 20 * 1024 * 1024

export interface AcepStreamSettings {
  /** The operator's copy of vePhoneSDK-Web.js. */
  sdkFile: string
  /** trn:iam::<account>:role/<name>: the role AssumeRole takes (ACEP access, trusted by our account). */
  roleTrn: string
  /** The Volcengine account (主账号 ID) that owns the pods: the SDK's accountId and the Policy's. */
  accountId: string
  stsEndpoint: string
  connectSrc: string[]
  /**
   * ACEP_STREAM_PROFILES: the business's 清晰度档位 ids for the control page's 画质
   * (auto:<id>,hd:<id>,sd:<id>,smooth:<id>, as configured in the ACEP console); null: no 画质 choice.
   */
  profiles: StreamProfiles | null
}

/** What the ACEP adapter needs from the environment (SUPPLIER_PROVIDER=acep). */
export interface AcepCredentials {
  accessKeyId: string
  secretAccessKey: string
  /** The ACEP business (业务) our pods belong to. */
  productId: string
  region: string
  endpoint: string
  /**
   * CreatePod's ResourceType: the business's storage, 200 本地存储 or 100 云盘存储 (a local-storage
   * business must send 200, docs 6394/1905408).
   */
  resourceType: 100 | 200
  /** The AK/SK pair configured for callbacks in the ACEP console (功能配置 → 回调). */
  callbackAccessKey: string
  callbackSecret: string
  /** The live stream on the control page (stream.ts); null: the page shows screenshots. */
  stream: AcepStreamSettings | null
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
  'ACEP_RESOURCE_TYPE',
  'ACEP_CALLBACK_ACCESS_KEY',
  'ACEP_CALLBACK_SECRET',
] as const

/** ACEP_RESOURCE_TYPE: the business's storage as CreatePod's ResourceType names it. */
const RESOURCE_TYPES = { '200': 200, '100': 100 } as const

/** An origin the page may connect to: https/wss, or http/ws on this machine (the fakes). */
const SOURCE = /^(https|wss|http|ws):\/\/(\*\.)?[A-Za-z0-9.-]+(:\d{1,5})?$/
const isSource = (value: string) =>
  SOURCE.test(value) &&
  (/^(https|wss):/.test(value) || /^\w+:\/\/(127\.0\.0\.1|localhost)(:|$)/.test(value))

function readableFile(file: string) {
  try {
    fs.accessSync(file, fs.constants.R_OK)
    const stat = fs.statSync(file)
    return stat.isFile() && stat.size > 0 && stat.size <= MAX_SDK_BYTES
  } catch {
    return false
  }
}

/**
 * The live stream's settings, with ACEP_WEB_SDK_FILE set (else null: screenshots), or its problems: a
 * file the server cannot read, a missing STS role or account id, a malformed one.
 */
function streamFromEnv(env: NodeJS.ProcessEnv, problems: string[]): AcepStreamSettings | null {
  const sdkFile = env.ACEP_WEB_SDK_FILE
  if (!sdkFile) return null
  const before = problems.length
  if (!readableFile(sdkFile)) {
    problems.push(
      `ACEP_WEB_SDK_FILE=${sdkFile} is not a readable file of at most ${MAX_SDK_BYTES / 1024 / 1024} MB (Volcengine's vePhoneSDK-Web.js)`,
    )
  }
  const missing = ['ACEP_STS_ROLE_TRN', 'ACEP_ACCOUNT_ID'].filter((name) => !env[name])
  if (missing.length > 0) problems.push(`ACEP_WEB_SDK_FILE needs ${missing.join(', ')}`)
  const roleTrn = env.ACEP_STS_ROLE_TRN ?? ''
  const accountId = env.ACEP_ACCOUNT_ID ?? ''
  if (roleTrn && !/^trn:iam::\d+:role\/[\w+=,.@-]{1,64}$/.test(roleTrn)) {
    problems.push(
      `ACEP_STS_ROLE_TRN must be trn:iam::<account id>:role/<role name> (got "${roleTrn}")`,
    )
  }
  if (accountId && !/^\d{1,20}$/.test(accountId)) {
    problems.push(`ACEP_ACCOUNT_ID must be the Volcengine account id, digits (got "${accountId}")`)
  }
  const stsEndpoint = (env.ACEP_STS_ENDPOINT || 'https://sts.volcengineapi.com').replace(/\/+$/, '')
  if (!isHttpUrl(stsEndpoint)) problems.push(`ACEP_STS_ENDPOINT must be an http(s) URL`)
  const connectSrc = env.ACEP_STREAM_CONNECT_SRC
    ? env.ACEP_STREAM_CONNECT_SRC.split(/\s+/).filter(Boolean)
    : DEFAULT_STREAM_CONNECT_SRC
  const bad = connectSrc.filter((source) => !isSource(source))
  if (bad.length > 0) {
    problems.push(`ACEP_STREAM_CONNECT_SRC: not https/wss origins: ${bad.join(' ')}`)
  }
  const profiles = streamProfiles(env.ACEP_STREAM_PROFILES, problems)
  if (problems.length > before) return null
  return { sdkFile, roleTrn, accountId, stsEndpoint, connectSrc, profiles }
}

/** `auto:1,hd:2,sd:3,smooth:4` → the ids, every choice named once with a positive integer. */
function streamProfiles(value: string | undefined, problems: string[]): StreamProfiles | null {
  if (!value) return null
  const ids: Partial<Record<Quality, number>> = {}
  for (const part of value.split(',')) {
    const [name, id] = part.split(':').map((x) => x.trim())
    if (QUALITIES.some((q) => q.id === name) && /^\d{1,6}$/.test(id ?? '') && Number(id) > 0) {
      ids[name as Quality] = Number(id)
    }
  }
  if (QUALITIES.every((q) => ids[q.id] !== undefined)) return ids as StreamProfiles
  problems.push(
    `ACEP_STREAM_PROFILES must name auto, hd, sd and smooth with the business's 清晰度档位 ids, e.g. auto:1,hd:2,sd:3,smooth:4 (got "${value}")`,
  )
  return null
}

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
  const resourceType = env.ACEP_RESOURCE_TYPE
  if (resourceType && !Object.hasOwn(RESOURCE_TYPES, resourceType)) {
    problems.push(
      `ACEP_RESOURCE_TYPE must be 200 (本地存储) or 100 (云盘存储), as the ACEP business is (got "${resourceType}")`,
    )
  }
  const stream = streamFromEnv(env, problems)
  if (problems.length > 0) return { ok: false, problems }
  return {
    ok: true,
    credentials: {
      accessKeyId: env.ACEP_ACCESS_KEY_ID!,
      secretAccessKey: env.ACEP_SECRET_ACCESS_KEY!,
      productId: env.ACEP_PRODUCT_ID!,
      resourceType: RESOURCE_TYPES[resourceType as keyof typeof RESOURCE_TYPES],
      region: env.ACEP_REGION || 'cn-north-1',
      endpoint,
      callbackAccessKey: env.ACEP_CALLBACK_ACCESS_KEY!,
      callbackSecret: env.ACEP_CALLBACK_SECRET!,
      stream,
    },
  }
}
