#!/usr/bin/env node
/**
 * `node scripts/acep-model.mjs <volc-sdk-golang git dir> <volcengine-go-sdk git dir>` — writes
 * server/src/adapters/supplier/acep/model/acep-actions.json: every ACEP action the adapter calls, as
 * Volcengine's own Go SDKs define it (method, version, whether the fields go in the query or the JSON
 * body, each request field with its type and whether it is required, each answer field), plus the few
 * facts only the documents state (value lists, conditional requirements), each with its doc page.
 *
 * - API version 2023-10-30: volcengine/volc-sdk-golang, service/acep (config.go: method per action;
 *   trait.go: query or JSON body; model.go: `<Action>Query`/`<Action>Body` and `<Action>Res`, whose
 *   comments say "REQUIRED").
 * - API version 2025-05-01: volcengine/volcengine-go-sdk, service/acep (api_<action>.go: `op<Action>`'s
 *   HTTPMethod, `<Action>Input` with `required:"true"`, `<Action>Output`); a POST of that SDK sends
 *   every field as JSON (volcengine/volcenginebody BodyJson).
 *
 * The SDKs are read from bare git directories (the search tool's `fetch` brings them), never copied.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

const [oldSdk, newSdk] = process.argv.slice(2)
if (!oldSdk || !newSdk) {
  console.error(
    'usage: node scripts/acep-model.mjs <volc-sdk-golang git dir> <volcengine-go-sdk git dir>',
  )
  process.exit(2)
}
const repoRoot = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..')
const OUT = path.join(repoRoot, 'server/src/adapters/supplier/acep/model/acep-actions.json')

/** The actions the adapter calls, at the version it calls each. */
const CALLED = {
  '2023-10-30': [
    'CreatePod',
    'ListPod',
    'DetailPod',
    'DeletePod',
    'UpdatePod',
    'RebootPod',
    'RunSyncCommand',
    'GetPodAppList',
    'UninstallApp',
    'ListDc',
    'UploadApp',
    'ListApp',
    'InstallApp',
    'LaunchApp',
  ],
  '2025-05-01': [
    'PowerOnPod',
    'PowerOffPod',
    'ResetPod',
    'BackupData',
    'RestoreData',
    'DeleteBackupData',
    'ListBackupData',
    'MigratePod',
    'GetTaskInfo',
    'BatchScreenShot',
  ],
}

/**
 * What only the documents say, laid over the SDK's fields: `values` (the documented value list),
 * `requiredBy` (a requirement the SDK does not mark), `doc` (the page, volcengine.com/docs/<id>).
 */
const DOC_FACTS = {
  CreatePod: {
    request: {
      ResourceType: {
        values: { 100: '云盘存储', 200: '本地存储' },
        requiredBy:
          'a business on local storage (本地存储方案) must send 200 whether it creates one pod or many',
        doc: '6394/1905408',
      },
    },
  },
  DetailPod: {
    answer: {
      Online: {
        values: { 0: '开机中', 1: '开机完成', 2: '关机完成', 3: '关机中', 4: '重启中' },
        doc: '6394/658586',
      },
    },
  },
  GetTaskInfo: {
    answer: {
      'Jobs[].Status': {
        values: { '-2': '部分失败', '-1': '全部失败', 10: '执行中', 100: '成功' },
        doc: '6394/2189053',
      },
      TaskResult: { note: '100: 执行完成; <0: 执行失败', doc: '6394/2189053' },
    },
  },
  ListBackupData: {
    answer: {
      'Rows[].Status': {
        values: {
          pending: '待处理',
          running: '备份中',
          completed: '备份完成，可用于恢复数据',
          failed: '备份失败',
          deleting: '删除中',
        },
        doc: '6394/1852296',
      },
    },
  },
  DeleteBackupData: { request: { BackupDataIdList: { maxItems: 100, doc: '6394/1852297' } } },
}

const git = (dir, ...args) =>
  execFileSync('git', [`--git-dir=${dir}`, ...args], { encoding: 'utf8' })
const show = (dir, file) => git(dir, 'show', `HEAD:${file}`)
const head = (dir) => git(dir, 'rev-parse', 'HEAD').trim()

/** Every `type X struct { … }` of a Go source: its fields (name, Go type, tags, REQUIRED comment). */
function goStructs(source) {
  const structs = new Map()
  const re = /^type (\w+) struct \{\n([\s\S]*?)^\}/gm
  for (const [, name, body] of source.matchAll(re)) {
    const fields = []
    let required = false
    for (const line of body.split('\n')) {
      const text = line.trim()
      if (text.startsWith('//')) {
        if (/^\/\/ REQUIRED\b/.test(text) || /is a required field/.test(text)) required = true
        continue
      }
      const m = /^(\w+)\s+(\S+)(?:\s+`([^`]*)`)?$/.exec(text)
      if (!m) {
        if (text === '') required = false
        continue
      }
      const [, goName, goType, tags = ''] = m
      const tag = (key) => new RegExp(`${key}:"([^"]*)"`).exec(tags)?.[1]
      const json = tag('json')
      const jsonName = json === undefined ? goName : json.split(',')[0] || goName
      if (goName !== '_' && jsonName !== '-') {
        fields.push({
          goName,
          goType,
          name: jsonName,
          query: tag('query'),
          required: required || tag('required') === 'true',
        })
      }
      required = false
    }
    structs.set(name, fields)
  }
  return structs
}

const INTEGER = /^(u?int(8|16|32|64)?|Enum\d+|\w+ErrorCodeN)$/

/** A Go type as the model writes it: string, integer, number, boolean, array, object, map, any. */
function modelType(goType, structs, seen = new Set()) {
  const bare = goType.replace(/^\*/, '')
  if (bare.startsWith('[]'))
    return { type: 'array', items: modelType(bare.slice(2), structs, seen) }
  if (bare.startsWith('map[')) return { type: 'map' }
  if (bare === 'string') return { type: 'string' }
  if (INTEGER.test(bare)) return { type: 'integer' }
  if (/^float(32|64)$/.test(bare)) return { type: 'number' }
  if (bare === 'bool') return { type: 'boolean' }
  if (bare === 'interface{}' || bare === 'any') return { type: 'any' }
  const fields = structs.get(bare)
  if (!fields) throw new Error(`unknown Go type ${goType}`)
  if (seen.has(bare)) return { type: 'object', fields: {} }
  return { type: 'object', fields: fieldsOf(fields, structs, new Set([...seen, bare])) }
}

function fieldsOf(fields, structs, seen = new Set()) {
  const out = {}
  for (const field of fields) {
    if (field.goName === 'Metadata' || field.goName === 'ResponseMetadata') continue
    out[field.name] = {
      ...modelType(field.goType, structs, seen),
      ...(field.required ? { required: true } : {}),
    }
  }
  return out
}

/** A field by its path ("Jobs[].Status"), for the document facts. */
function fieldAt(fields, dotted) {
  let here = { type: 'object', fields }
  for (const part of dotted.split('.')) {
    const name = part.replace(/\[\]$/, '')
    here = here.fields?.[name]
    if (!here) throw new Error(`no field ${dotted}`)
    if (part.endsWith('[]')) here = here.items
  }
  return here
}

function withDocFacts(action, entry) {
  const facts = DOC_FACTS[action] ?? {}
  for (const side of ['request', 'answer']) {
    const fields = side === 'request' ? entry.request : entry.answer.fields
    for (const [dotted, fact] of Object.entries(facts[side] ?? {})) {
      Object.assign(fieldAt(fields, dotted), fact)
    }
  }
  return entry
}

/** volc-sdk-golang (2023-10-30): method from config.go, query or body from trait.go, types from model.go. */
function oldActions(dir) {
  const config = show(dir, 'service/acep/config.go')
  const trait = show(dir, 'service/acep/trait.go')
  const structs = goStructs(show(dir, 'service/acep/model.go'))
  const commit = head(dir)
  const out = {}
  for (const action of CALLED['2023-10-30']) {
    const block = new RegExp(
      `"${action}": \\{[\\s\\S]*?Method: http\\.Method(\\w+)[\\s\\S]*?"Version":\\s*\\[\\]string\\{"([\\d-]+)"\\}`,
    ).exec(config)
    if (!block || block[2] !== '2023-10-30')
      throw new Error(`${action}: not at 2023-10-30 in config.go`)
    const fn = new RegExp(
      `func \\(c \\*ACEP\\) ${action}\\(ctx context\\.Context, arg \\*(\\w+)\\) \\(\\*(\\w+), error\\) \\{[\\s\\S]*?c\\.(?:Client\\.)?(CtxJson|CtxQuery)\\(`,
    ).exec(trait)
    if (!fn) throw new Error(`${action}: not in trait.go`)
    const [, argType, resType, transport] = fn
    const result = structs.get(resType)?.find((field) => field.goName === 'Result')
    if (!result) throw new Error(`${action}: ${resType} has no Result`)
    out[action] = withDocFacts(action, {
      version: '2023-10-30',
      method: block[1].toUpperCase(),
      in: transport === 'CtxJson' ? 'body' : 'query',
      source: `volcengine/volc-sdk-golang@${commit} service/acep: config.go ${action}, trait.go, model.go ${argType} → ${resType}.Result`,
      request: fieldsOf(structs.get(argType), structs),
      // Some answer with a bare string (RebootPod, DeletePod, UpdatePod: Result "success").
      answer: modelType(result.goType, structs),
    })
  }
  return out
}

const snake = (name) => name.replace(/[A-Z]/g, (ch, at) => `${at ? '_' : ''}${ch.toLowerCase()}`)

/** volcengine-go-sdk (2025-05-01): one api_<action>.go per action. */
function newActions(dir) {
  const service = show(dir, 'service/acep/service_acep.go')
  const version = /APIVersion:\s*"([\d-]+)"/.exec(service)?.[1]
  if (version !== '2025-05-01') throw new Error(`volcengine-go-sdk service/acep is at ${version}`)
  const commit = head(dir)
  const out = {}
  for (const action of CALLED['2025-05-01']) {
    const file = `service/acep/api_${snake(action)}.go`
    const source = show(dir, file)
    const op = new RegExp(
      `func \\(c \\*ACEP\\) ${action}Request\\([\\s\\S]*?HTTPMethod: "(\\w+)"[\\s\\S]*?Header\\.Set\\("Content-Type", "([^"]+)"\\)`,
    ).exec(source)
    if (!op) throw new Error(`${action}: no operation in ${file}`)
    const structs = goStructs(source)
    out[action] = withDocFacts(action, {
      version,
      method: op[1],
      // BodyJson sends a POST's fields as JSON when its Content-Type is application/json.
      in: op[1] === 'POST' && op[2].startsWith('application/json') ? 'body' : 'query',
      source: `volcengine/volcengine-go-sdk@${commit} ${file}: ${action}Input → ${action}Output`,
      request: fieldsOf(structs.get(`${action}Input`), structs),
      answer: { type: 'object', fields: fieldsOf(structs.get(`${action}Output`), structs) },
    })
  }
  return out
}

const model = {
  about:
    'Generated by scripts/acep-model.mjs from Volcengine’s Go SDKs (and the document pages named in `doc`); do not edit by hand, run the script again.',
  actions: { ...oldActions(oldSdk), ...newActions(newSdk) },
}
fs.mkdirSync(path.dirname(OUT), { recursive: true })
fs.writeFileSync(OUT, `${JSON.stringify(model, null, 2)}\n`)
console.log(`wrote ${path.relative(repoRoot, OUT)}: ${Object.keys(model.actions).length} actions`)
