/**
 * The providers' own models of the calls our adapters make (provider-models/*.json: JSON Schema of
 * each request and answer, each with its source: an official SDK at a version, or a document page).
 * The fakes check every request they are sent against them (and refuse, as the real service would,
 * what does not fit) and every answer and notification they make (a fake that would invent a shape
 * throws). `seen` records which calls were checked, so a test can hold that every call was.
 */
import fs from 'node:fs'
import path from 'node:path'
import { AjvCompiler } from '@fastify/ajv-compiler'

type Schema = Record<string, unknown>

export interface ModelCall {
  method?: string
  /** A regular expression of the path (WeChat Pay), or the RPC action / OpenAPI method name. */
  path?: string
  source: string
  request?: Schema
  query?: Schema
  /** Alipay: the biz_content JSON's schema. */
  bizContent?: Schema
  /** By HTTP status ("200", "204") or class ("4xx", "5xx"); Alipay and Aliyun by outcome. */
  answers: Record<string, Schema>
}

export interface ProviderModel {
  provider: string
  sources: Record<string, string>
  calls: Record<string, ModelCall>
  notifications?: Record<string, { source: string; body: Schema; resource?: Schema }>
  definitions: Record<string, Schema>
}

export type ProviderName = 'wechatpay' | 'alipay' | 'aliyun-sms'

const read = (name: ProviderName) =>
  JSON.parse(
    fs.readFileSync(path.join(__dirname, 'provider-models', `${name}.json`), 'utf8'),
  ) as ProviderModel

export const MODELS: Record<ProviderName, ProviderModel> = {
  wechatpay: read('wechatpay'),
  alipay: read('alipay'),
  'aliyun-sms': read('aliyun-sms'),
}

/** Which calls' requests and answers were checked, per provider (`call:request`, `call:answer:200`). */
export const seen: Record<ProviderName, Set<string>> = {
  wechatpay: new Set(),
  alipay: new Set(),
  'aliyun-sms': new Set(),
}

type Check = ((value: unknown) => boolean) & {
  errors?: { instancePath?: string; message?: string }[]
}

const compiled = new Map<Schema, Check>()

/** Ajv as Fastify builds it, told not to coerce, default or strip: a value fits or it does not. */
function checkOf(provider: ProviderName, schema: Schema): Check {
  let check = compiled.get(schema)
  if (!check) {
    const build = AjvCompiler()(
      {},
      {
        customOptions: {
          coerceTypes: false,
          useDefaults: false,
          removeAdditional: false,
          allErrors: true,
        },
      },
    ) as unknown as (route: object) => Check
    check = build({
      schema: { definitions: MODELS[provider].definitions, allOf: [schema] },
      method: 'POST',
      url: '/',
      httpPart: 'body',
    })
    compiled.set(schema, check)
  }
  return check
}

/** Why `value` does not fit `schema`, or null when it does. */
export function shapeProblem(
  provider: ProviderName,
  schema: Schema,
  value: unknown,
): string | null {
  const check = checkOf(provider, schema)
  if (check(value)) return null
  return (check.errors ?? [])
    .map((error) => `${error.instancePath || '/'} ${error.message ?? ''}`.trim())
    .join('; ')
}

/** The model's call for this method and path (WeChat Pay) or name (Alipay, Aliyun), or null. */
export function callOf(
  provider: ProviderName,
  method: string,
  path: string,
): [string, ModelCall] | null {
  for (const [name, call] of Object.entries(MODELS[provider].calls)) {
    const methodFits = !call.method || call.method === method
    const pathFits = call.path?.startsWith('^')
      ? new RegExp(call.path).test(path)
      : call.path === path
    if (methodFits && pathFits) return [name, call]
  }
  return null
}

/** A request's problem with its call's model (null: it fits), recorded as seen. */
export function requestProblem(
  provider: ProviderName,
  name: string,
  call: ModelCall,
  parts: { body?: unknown; query?: unknown; bizContent?: unknown },
): string | null {
  seen[provider].add(`${name}:request`)
  const checks: [Schema | undefined, unknown][] = [
    [call.request, parts.body],
    [call.query, parts.query],
    [call.bizContent, parts.bizContent],
  ]
  for (const [schema, value] of checks) {
    const problem = schema ? shapeProblem(provider, schema, value) : null
    if (problem) return problem
  }
  return null
}

/** Throws unless the answer fits its call's model: a fake never answers what the provider would not. */
export function assertAnswer(
  provider: ProviderName,
  name: string,
  outcome: string,
  body: unknown,
): void {
  const call = MODELS[provider].calls[name]
  const schema = call.answers[outcome] ?? call.answers[`${outcome[0]}xx`]
  if (!schema) throw new Error(`${provider} ${name}: the model has no answer ${outcome}`)
  // What is on the wire: keys whose value is undefined are not sent.
  const wire = body === undefined ? null : (JSON.parse(JSON.stringify(body)) as unknown)
  const problem = shapeProblem(provider, schema, wire)
  if (problem) throw new Error(`${provider} ${name} answer ${outcome} off its model: ${problem}`)
  seen[provider].add(`${name}:answer:${outcome}`)
}

/** Throws unless the notification (and its decrypted resource) fits the model. */
export function assertNotification(
  provider: ProviderName,
  name: string,
  body: unknown,
  resource?: unknown,
): void {
  const model = MODELS[provider].notifications?.[name]
  if (!model) throw new Error(`${provider}: the model has no notification ${name}`)
  const wire = (value: unknown) => JSON.parse(JSON.stringify(value ?? null)) as unknown
  const problem =
    shapeProblem(provider, model.body, wire(body)) ??
    (model.resource ? shapeProblem(provider, model.resource, wire(resource)) : null)
  if (problem) throw new Error(`${provider} notification ${name} off its model: ${problem}`)
  seen[provider].add(`notification:${name}`)
}
