/**
 * ACEP's OpenAPI over HTTPS: one signed call per action (signer.ts), sent as ACEP's own model says
 * (model/acep-model.ts: the action's version, GET with the fields in the query or POST with them as
 * JSON) and checked against that model before it goes; retried with exponential backoff and jitter
 * when ACEP throttles (HTTP 429 or a flow-limit error code: each action has its own QPS limit, 30–200
 * a second per account), and a GET also on a 5xx or a lost connection; split into batches where an
 * action takes at most N pods a call (POD_LIST_LIMITS).
 */
import type { AcepCredentials } from './credentials'
import { ACEP_ACTIONS, type AcepAction, requestRefusal } from './model/acep-model'
import type { SigningKeys } from './signer'
import { canonicalQuery, signRequest } from './signer'

/** Error codes Volcengine's gateway answers when an account calls an action too often. */
export const THROTTLE_CODES = new Set(['AccountFlowLimitExceeded', 'FlowLimitExceeded'])

/**
 * The most pods one call of an action may name (ACEP refuses a longer PodIdList): RebootPod,
 * RunSyncCommand and BatchScreenShot 100 (docs 6394/1262198, 2189062, 1262214); PowerOnPod, PowerOffPod
 * and UpdatePod 200 (change note 2024-10-28); UninstallApp 1000 (change note 2024-09-05); InstallApp
 * 1000 (docs 6394/2189058).
 */
export const POD_LIST_LIMITS = {
  RebootPod: 100,
  RunSyncCommand: 100,
  BatchScreenShot: 100,
  PowerOnPod: 200,
  PowerOffPod: 200,
  UpdatePod: 200,
  UninstallApp: 1000,
  InstallApp: 1000,
} as const
export type ListAction = keyof typeof POD_LIST_LIMITS

/** One batch of a list call: ACEP's answer, or why it did not go (refused, or throttled throughout). */
export type Batch<T> =
  { podIds: string[]; ok: true; result: T } | { podIds: string[]; ok: false; error: unknown }

/** ACEP's error codes for a pod or backup that does not exist (any more). */
const NOT_FOUND = new Set(['ResourceNotFound', 'InvalidPodId', 'PodNotFound', 'BackupDataNotFound'])

/** ACEP said the pod or backup asked about does not exist (any more). */
export function isNotFound(error: unknown): boolean {
  return error instanceof AcepError && NOT_FOUND.has(error.code)
}

export class AcepError extends Error {
  constructor(
    readonly action: string,
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(`ACEP ${action}: ${code} ${message}`)
  }

  get throttled() {
    return this.status === 429 || THROTTLE_CODES.has(this.code)
  }
}

export interface AcepClientOptions {
  endpoint: string
  keys: SigningKeys
  /** Attempts per call, the first included. */
  attempts?: number
  /** First backoff; doubled each retry, with up to as much again of jitter. */
  backoffMs?: number
  timeoutMs?: number
  now?: () => Date
  sleep?: (ms: number) => Promise<void>
}

interface Envelope<T> {
  ResponseMetadata?: { Error?: { Code?: string; Message?: string } }
  Result?: T
}

export class AcepClient {
  private readonly attempts: number
  private readonly backoffMs: number
  private readonly timeoutMs: number
  private readonly now: () => Date
  private readonly sleep: (ms: number) => Promise<void>

  constructor(private readonly options: AcepClientOptions) {
    this.attempts = options.attempts ?? 5
    this.backoffMs = options.backoffMs ?? 200
    this.timeoutMs = options.timeoutMs ?? 10_000
    this.now = options.now ?? (() => new Date())
    this.sleep = options.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)))
  }

  /**
   * One ACEP action, as its model says it is sent; a request the model would refuse (a field it does
   * not have, a required one missing, a wrong type) throws here and is never sent.
   */
  async call<T>(action: AcepAction, fields: Record<string, unknown>): Promise<T> {
    const model = ACEP_ACTIONS[action]
    const given = Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined))
    const query =
      model.in === 'query'
        ? Object.fromEntries(Object.entries(given).map(([k, v]) => [k, String(v)]))
        : {}
    const body = model.in === 'body' ? given : undefined
    const refused = requestRefusal({
      action,
      version: model.version,
      method: model.method,
      query,
      body,
    })
    if (refused) throw new Error(`ACEP ${action}: not sent, ${refused.code}: ${refused.message}`)
    return this.send<T>(
      model.method,
      action,
      model.version,
      query,
      body ? JSON.stringify(body) : '',
    )
  }

  /** A GET of a service outside ACEP's model (STS's AssumeRole), signed the same way. */
  get<T>(action: string, params: Record<string, string>, version: string) {
    return this.send<T>('GET', action, version, params, '')
  }

  /**
   * One POST per `POD_LIST_LIMITS[action]` pods, one batch after the other so the QPS limit is not hit
   * at once. Each batch is settled on its own (retried while throttled, as every call is): a refused
   * batch fails only its pods, the others still go.
   */
  async postBatches<T>(
    action: ListAction,
    podIds: string[],
    body: (podIds: string[]) => Record<string, unknown>,
  ): Promise<Batch<T>[]> {
    const limit = POD_LIST_LIMITS[action]
    const batches: Batch<T>[] = []
    for (let i = 0; i < podIds.length; i += limit) {
      const batch = podIds.slice(i, i + limit)
      try {
        batches.push({
          podIds: batch,
          ok: true,
          result: await this.call<T>(action, body(batch)),
        })
      } catch (error) {
        batches.push({ podIds: batch, ok: false, error })
      }
    }
    return batches
  }

  private async send<T>(
    method: 'GET' | 'POST',
    action: string,
    version: string,
    params: Record<string, string>,
    body: string,
  ): Promise<T> {
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.once<T>(method, action, version, params, body)
      } catch (error) {
        // Throttled calls never ran, so any may be sent again; a 5xx or a lost connection may have
        // run, so only a GET is (a second CreatePod would be a second pod).
        const retry =
          error instanceof AcepError
            ? error.throttled || (method === 'GET' && error.status >= 500)
            : method === 'GET' && isNetwork(error)
        if (!retry || attempt >= this.attempts) throw error
        const wait = this.backoffMs * 2 ** (attempt - 1)
        await this.sleep(wait + Math.floor(Math.random() * wait))
      }
    }
  }

  private async once<T>(
    method: 'GET' | 'POST',
    action: string,
    version: string,
    params: Record<string, string>,
    body: string,
  ): Promise<T> {
    const query = { Action: action, Version: version, ...params }
    const headers = signRequest({ method, query, body, date: this.now() }, this.options.keys)
    // The query exactly as signed: RFC 3986 escaping (a space is %20; URLSearchParams would send +).
    const url = `${this.options.endpoint}/?${canonicalQuery(query)}`
    const response = await fetch(url, {
      method,
      headers: { ...headers, ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}) },
      body: method === 'POST' ? body : undefined,
      signal: AbortSignal.timeout(this.timeoutMs),
    })
    const envelope = (await response.json().catch(() => ({}))) as Envelope<T>
    const error = envelope.ResponseMetadata?.Error
    if (!response.ok || error?.Code) {
      throw new AcepError(
        action,
        response.status,
        error?.Code ?? `HTTP${response.status}`,
        error?.Message ?? '',
      )
    }
    return envelope.Result as T
  }
}

function isNetwork(error: unknown) {
  return error instanceof TypeError || (error instanceof Error && error.name === 'TimeoutError')
}

/** The client of ACEP's OpenAPI (service `ACEP`) with the configured keys. */
export function acepClientFor(
  credentials: AcepCredentials,
  options: Omit<AcepClientOptions, 'endpoint' | 'keys'> = {},
) {
  return new AcepClient({
    endpoint: credentials.endpoint,
    keys: {
      accessKeyId: credentials.accessKeyId,
      secretAccessKey: credentials.secretAccessKey,
      region: credentials.region,
      service: 'ACEP',
    },
    ...options,
  })
}
