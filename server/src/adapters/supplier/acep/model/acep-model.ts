/**
 * ACEP's own model of the actions we call (acep-actions.json, written by scripts/acep-model.mjs from
 * Volcengine's Go SDKs and the document pages it names), and the one check of a request or an answer
 * against it. The client checks every request before it is sent; the fake ACEP of the tests refuses
 * what does not match, with the error codes Volcengine's gateway answers (docs 6408/78947, 6448/76370).
 */
import model from './acep-actions.json'

export type FieldType =
  'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'map' | 'any'

export interface FieldModel {
  type: FieldType
  required?: boolean
  items?: FieldModel
  fields?: Record<string, FieldModel>
  /** The documented values (keys), where the documents list them. */
  values?: Record<string, string>
  maxItems?: number
  /** A requirement only the documents state. */
  requiredBy?: string
  note?: string
  /** The document page (volcengine.com/docs/<doc>). */
  doc?: string
}

export interface ActionModel {
  version: string
  method: 'GET' | 'POST'
  /** Where the fields go: the query string of a GET, the JSON body of a POST. */
  in: 'query' | 'body'
  source: string
  request: Record<string, FieldModel>
  answer: FieldModel
}

export type AcepAction = keyof typeof model.actions

export const ACEP_ACTIONS = model.actions as Record<AcepAction, ActionModel>

export const isAcepAction = (action: string): action is AcepAction =>
  Object.hasOwn(ACEP_ACTIONS, action)

/** A refusal as Volcengine's gateway words it: its error code, HTTP status and message. */
export interface ModelRefusal {
  code: 'InvalidActionOrVersion' | 'MethodNotAllowed' | 'MissingParameter' | 'InvalidParameter'
  status: number
  message: string
}

const refusal = (code: ModelRefusal['code'], message: string): ModelRefusal => ({
  code,
  status: { InvalidActionOrVersion: 404, MethodNotAllowed: 405 }[code as string] ?? 400,
  message,
})

/** Whether a query-string text reads as a value of the model's type. */
function textFits(model: FieldModel, text: string) {
  switch (model.type) {
    case 'integer':
      return /^-?\d{1,19}$/.test(text)
    case 'number':
      return text.trim() !== '' && Number.isFinite(Number(text))
    case 'boolean':
      return text === 'true' || text === 'false'
    case 'string':
    case 'any':
      return true
    default:
      return false
  }
}

/**
 * Every way `value` differs from its model, as "<path>: <why>": a wrong type, a value outside the
 * documented list, a field the model does not have, a required field missing, a list too long.
 */
export function valueProblems(model: FieldModel, value: unknown, path: string): string[] {
  const values = model.values ? Object.keys(model.values) : null
  if (values && !values.includes(String(value))) {
    return [`${path}: ${JSON.stringify(value)} is none of ${values.join(', ')}`]
  }
  switch (model.type) {
    case 'any':
      return []
    case 'string':
      return typeof value === 'string' ? [] : [`${path}: not a string`]
    case 'integer':
      return Number.isInteger(value) ? [] : [`${path}: not an integer`]
    case 'number':
      return typeof value === 'number' && Number.isFinite(value) ? [] : [`${path}: not a number`]
    case 'boolean':
      return typeof value === 'boolean' ? [] : [`${path}: not a boolean`]
    case 'array': {
      if (!Array.isArray(value)) return [`${path}: not a list`]
      if (model.maxItems !== undefined && value.length > model.maxItems) {
        return [`${path}: more than ${model.maxItems} items`]
      }
      return value.flatMap((item, i) => valueProblems(model.items!, item, `${path}[${i}]`))
    }
    case 'map':
      return isRecord(value) ? [] : [`${path}: not an object`]
    case 'object':
      return isRecord(value)
        ? fieldsProblems(model.fields ?? {}, value, `${path}.`)
        : [`${path}: not an object`]
  }
}

function fieldsProblems(
  fields: Record<string, FieldModel>,
  value: Record<string, unknown>,
  prefix: string,
) {
  const problems: string[] = []
  for (const [name, field] of Object.entries(value)) {
    const model = Object.hasOwn(fields, name) ? fields[name] : null
    if (!model) problems.push(`${prefix}${name}: not a field of the model`)
    else if (field !== null && field !== undefined) {
      problems.push(...valueProblems(model, field, `${prefix}${name}`))
    }
  }
  for (const [name, model] of Object.entries(fields)) {
    if (model.required && (value[name] === undefined || value[name] === null)) {
      problems.push(`${prefix}${name}: required`)
    }
  }
  return problems
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

export interface RequestToCheck {
  action: string
  version: string
  method: string
  /** The query parameters besides Action and Version. */
  query: Record<string, string>
  /** The parsed JSON body, or undefined when there is none. */
  body: unknown
}

/** What the gateway answers a request that does not match the model, or null when it matches. */
export function requestRefusal(request: RequestToCheck): ModelRefusal | null {
  if (!isAcepAction(request.action)) {
    return refusal('InvalidActionOrVersion', `Could not find operation ${request.action}`)
  }
  const model = ACEP_ACTIONS[request.action]
  if (request.version !== model.version) {
    return refusal(
      'InvalidActionOrVersion',
      `Could not find operation ${request.action} at version ${request.version}`,
    )
  }
  if (request.method !== model.method) {
    return refusal(
      'MethodNotAllowed',
      `${request.action} is ${model.method}, not ${request.method}`,
    )
  }
  const [given, other] =
    model.in === 'query'
      ? [request.query, request.body]
      : [request.body ?? {}, Object.keys(request.query).length > 0 ? request.query : undefined]
  if (other !== undefined && !(isRecord(other) && Object.keys(other).length === 0)) {
    const names = isRecord(other) ? Object.keys(other).join(', ') : 'a body'
    return refusal(
      'InvalidParameter',
      `${request.action} takes its fields in the ${model.in}, not ${names}`,
    )
  }
  if (!isRecord(given))
    return refusal('InvalidParameter', `${request.action}: the body is not an object`)
  const missing = Object.entries(model.request)
    .filter(
      ([name, field]) => field.required && (given[name] === undefined || given[name] === null),
    )
    .map(([name]) => name)
  if (missing.length > 0) {
    return refusal('MissingParameter', `The request is missing ${missing.join(', ')} parameter.`)
  }
  const problems =
    model.in === 'query'
      ? Object.entries(given).flatMap(([name, text]) => {
          const field = Object.hasOwn(model.request, name) ? model.request[name] : null
          if (!field) return [`${name}: not a field of the model`]
          return textFits(field, String(text))
            ? []
            : [`${name}: ${JSON.stringify(text)} is not ${field.type}`]
        })
      : fieldsProblems(model.request, given, '')
  return problems.length > 0
    ? refusal('InvalidParameter', `The specified parameter is not valid: ${problems.join('; ')}`)
    : null
}

/** Every way an answer's Result differs from the action's model (empty: it fits). */
export function answerProblems(action: AcepAction, result: unknown): string[] {
  return valueProblems(ACEP_ACTIONS[action].answer, result, `${action}.Result`)
}
