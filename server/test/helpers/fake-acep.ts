/**
 * A local ACEP (火山引擎云手机) OpenAPI for the tests, played from ACEP's own model: every request is
 * checked against the actions Volcengine's Go SDKs define (src/adapters/supplier/acep/model, extracted
 * by scripts/acep-model.mjs) and refused as the gateway refuses it (InvalidActionOrVersion,
 * MethodNotAllowed, MissingParameter, InvalidParameter: Volcengine's public error codes, docs 6408/78947,
 * 6448/76370), and every answer it gives is checked against the same model before it goes (a fake never
 * invents a shape). Every request's V4 signature is checked with @volcengine/openapi's own Signer (the
 * official SDK, not our signer) over the query as the gateway reads it (RFC 3986: a `+` is a plus), and a
 * bad one is refused as the gateway refuses it (401 SignatureDoesNotMatch, InvalidAccessKey). Pods boot
 * and reboot; backups, restores, resets and migrations run asynchronously, end with GetTaskInfo's
 * documented statuses (10 执行中, 100 成功, −1 全部失败, −2 部分失败) and can fail or never finish; it
 * throttles on demand (429 AccountFlowLimitExceeded), refuses batches over an action's limit, and posts
 * signed callbacks (signed with our own guess at auth-v1: callback.ts says why that is all there is).
 */
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import type { AddressInfo } from 'node:net'
import { Signer } from '@volcengine/openapi'
import { acepClientFor } from '../../src/adapters/supplier/acep/acep-client'
import { AcepSupplier } from '../../src/adapters/supplier/acep/acep-supplier'
import { signCallback } from '../../src/adapters/supplier/acep/callback'
import { acepCredentialsFromEnv } from '../../src/adapters/supplier/acep/credentials'
import { acepStreamFor } from '../../src/adapters/supplier/acep'
import { systemClock, type Clock } from '../../src/clock'
import type { Db } from '../../src/db/client'
import { acepPods, goods, supplierCatalogue, zones } from '../../src/db/schema'
import {
  type AcepAction,
  answerProblems,
  isAcepAction,
  requestRefusal,
} from '../../src/adapters/supplier/acep/model/acep-model'

export const FAKE_KEYS = {
  accessKeyId: 'AKLTfakeacep',
  secretAccessKey: 'fake-acep-secret==',
  productId: '1600000000000000001',
  callbackAccessKey: 'ak-callback',
  callbackSecret: 'callback-secret',
}

/** A 1×1 PNG: what the fake's storage serves for every screenshot. */
export const SCREEN_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
)

/**
 * Pods a call may name, per action, as ACEP documents them (RebootPod, RunSyncCommand and
 * BatchScreenShot: their pages in docs 6394; the power and update actions: the 2024-10-28 change note;
 * app installs and uninstalls: the 2024-09-05 one). Written here from the documents, not imported from
 * the client, so a wrong limit there is refused here.
 */
export const FAKE_LIST_LIMITS: Record<string, number> = {
  PowerOnPod: 200,
  PowerOffPod: 200,
  UpdatePod: 200,
  RebootPod: 100,
  ResetPod: 100,
  RunSyncCommand: 100,
  BatchScreenShot: 100,
  DeletePod: 200,
  UninstallApp: 1000,
  InstallApp: 1000,
}

interface Pod {
  id: string
  name: string
  config: string
  dc: string
  imageId: string
  /** When the current boot ends (Online 0/4 until then). */
  bootUntil: number
  rebooting: boolean
  off: boolean
  apps: { PackageName: string; AppId?: string; AppName?: string; VersionName?: string }[]
}

/** An app of the business's app centre (UploadApp, ListApp), with its versions. */
interface CentreApp {
  AppId: string
  AppName: string
  PackageName: string
  versions: { VersionId: string; VersionCode: number; VersionName: string }[]
}

interface Task {
  id: string
  kind: 'backup' | 'restore' | 'migrate' | 'reset' | 'upload' | 'install'
  podId: string
  /** An install's pods (InstallApp: one Job each) and whether each fails at the end. */
  jobs?: { podId: string; fails: boolean }[]
  /** What an install puts on its pods. */
  installs?: CentreApp & { version: CentreApp['versions'][number] }
  /** An upload's fetch of DownloadUrl: under way, taken (the app is in the centre), or failed. */
  fetch?: 'pending' | 'ok' | 'failed'
  doneAt: number
  /** How it ends if it fails: −1 全部失败, −2 部分失败 (GetTaskInfo, docs 6394/2189053). */
  fails: false | -1 | -2
  never: boolean
  backupDataId?: string
  targetDc?: string
  notified: boolean
  finished?: boolean
}

export interface Call {
  action: string
  query: Record<string, string>
  body: Record<string, unknown>
}

/** A request as it arrived (signed, before any check): what the conformance test holds to the model. */
export interface RawRequest {
  action: string
  version: string
  method: string
  query: Record<string, string>
  body: unknown
}

/** The keys a fake ACEP knows: the API pair, the business, the callback pair. */
export type AcepKeys = typeof FAKE_KEYS

/** The account and STS role of the fake's live stream (ACEP_ACCOUNT_ID, ACEP_STS_ROLE_TRN). */
export const FAKE_STREAM = {
  accountId: '2100000001',
  roleTrn: 'trn:iam::2100000001:role/cloudphone-stream',
}

/** Keys STS handed out: what the fake SDK must present (and prove it holds the secret of). */
interface IssuedKeys {
  secret: string
  sessionToken: string
  expiresAt: number
  roleSessionName: string
  durationSeconds: number
  /** The inline Policy AssumeRole was given, parsed. */
  policy: { Statement?: { Effect?: string; Action?: string[]; Resource?: string[] }[] }
}

/** The fake SDK (fake-vephone-sdk.js) pointed at a fake ACEP, written where ACEP_WEB_SDK_FILE can name it. */
export function writeFakeSdk(file: string, endpoint: string) {
  const source = fs.readFileSync(path.join(__dirname, 'fake-vephone-sdk.js'), 'utf8')
  fs.writeFileSync(file, source.replace('__FAKE_ACEP_ENDPOINT__', endpoint))
  return file
}

/** 2026-11-27T10:00:00+08:00: how Volcengine writes STS times. */
function beijing(ms: number) {
  return `${new Date(ms + 8 * 3_600_000).toISOString().slice(0, 19)}+08:00`
}

export class FakeAcep {
  readonly calls: Call[] = []
  /** Every signed request to an ACEP action, refused or not. */
  readonly requests: RawRequest[] = []
  readonly pods = new Map<string, Pod>()
  readonly tasks = new Map<string, Task>()
  /** How long boots and tasks take, on the fake's own clock (advance). */
  delayMs = 60_000
  /** How far the fake's clock is ahead of the real one. */
  private offsetMs = 0
  /** The next n calls are throttled. */
  throttleNext = 0
  /** Calls answered 429 (they never ran, so they are not in `calls`). */
  throttled = 0
  /** Refuses a call as ACEP would (400 with this error) when it returns one; after signature checks. */
  refuse: ((call: Call) => { Code: string; Message: string } | null) | null = null
  /** The next task started fails (−1) or fails partly (−2) / never finishes. */
  failNextTask = false
  partlyFailNextTask = false
  neverFinishNextTask = false
  /**
   * The business's storage (ACEP_RESOURCE_TYPE): a local-storage business refuses a CreatePod without
   * ResourceType 200 (docs 6394/1905408).
   */
  storage: 'local' | 'cloud' = 'local'
  /** The next CreatePod makes its pod, then answers 500 (the answer lost on the way). */
  loseNextCreateAnswer = false
  /** The business's app centre, by AppId. */
  readonly centre = new Map<string, CentreApp>()
  /** Every DownloadUrl fetch UploadApp made, with the HTTP status our server answered. */
  readonly fetches: { url: string; status: number }[] = []
  /** Pods whose install fails when its task ends (the task then ends −2 部分失败, or −1). */
  readonly failInstallOn = new Set<string>()
  /** Where signed callbacks go (null: none are sent). */
  callbackUrl: string | null = null
  /** The time callbacks are signed at (the app's clock in app tests). */
  callbackNow: () => Date = () => new Date()
  endpoint = ''
  /** STS AssumeRole's keys by AccessKeyId; their own expiry (the fake's clock). */
  readonly issued = new Map<string, IssuedKeys>()
  /** Live streams the fake SDK started, in order. */
  readonly streams: { podId: string; userId: string; accessKeyId: string }[] = []
  /** The stream's account and STS role (FAKE_STREAM unless told). */
  stream = { ...FAKE_STREAM }
  private server: http.Server | null = null
  private seq = BigInt('7300000000000000000')

  /** `keys`: the account's (deploy-check's runner generates its own; tests use FAKE_KEYS). */
  constructor(readonly keys: AcepKeys = FAKE_KEYS) {}

  async start() {
    this.server = http.createServer((req, res) => void this.handle(req, res))
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve))
    this.endpoint = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`
    return this
  }

  async stop() {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()))
  }

  /** The fake's time: boots and tasks end by it. */
  now() {
    return Date.now() + this.offsetMs
  }

  /** Moves the fake's clock on; tasks that end meanwhile are finished and their callbacks sent. */
  async advance(ms: number) {
    this.offsetMs += ms
    for (const task of this.tasks.values()) {
      if (task.notified || task.never || this.now() < task.doneAt) continue
      this.finish(task)
      await this.notify(task)
    }
  }

  /**
   * `count` running pods made at once, as CreatePod and a finished boot would leave them at ACEP and in
   * acep_pods (a 500-pod batch without 500 CreatePods and boots); their ids.
   */
  async seedRunningPods(db: Db, count: number, goodId = 301, zoneId = 1) {
    const now = new Date()
    const made: Pod[] = Array.from({ length: count }, () => ({
      id: this.nextId(),
      name: `cp-seeded-${this.seq}`,
      config: configOf(goodId),
      dc: `dc-${zoneId}`,
      imageId: 'img-standard',
      bootUntil: 0,
      rebooting: false,
      off: false,
      apps: [
        { PackageName: 'com.tencent.mm', AppId: 'app-wechat' },
        { PackageName: 'com.ss.android.ugc.aweme' },
      ],
    }))
    for (const pod of made) this.pods.set(pod.id, pod)
    await db.insert(acepPods).values(
      made.map((pod) => ({
        requestId: `seeded-${pod.id}`,
        podName: pod.name,
        podId: pod.id,
        goodId,
        zoneId,
        expireAt: new Date(now.getTime() + 30 * 86_400_000),
        model: '',
        seenRunning: 1,
        createdAt: now,
      })),
    )
    return made.map((pod) => pod.id)
  }

  count(action: string) {
    return this.calls.filter((call) => call.action === action).length
  }

  private nextId() {
    this.seq += BigInt(1)
    return String(this.seq)
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse) {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    const raw = Buffer.concat(chunks).toString('utf8')
    const url = new URL(req.url ?? '/', 'http://fake')
    // A screenshot in ACEP's storage: a presigned address, no signature of ours.
    if (req.method === 'GET' && /^\/screens\/\d+\.png$/.test(url.pathname)) {
      res.writeHead(200, { 'content-type': 'image/png' })
      return res.end(SCREEN_PNG)
    }
    if (url.pathname.startsWith('/sdk/')) return this.sdkCall(req, res, url.pathname, raw)
    const query = gatewayQuery(url.search.slice(1))
    const action = query.Action ?? ''
    const answer = (status: number, result: unknown, error?: { Code: string; Message: string }) => {
      res.writeHead(status, { 'content-type': 'application/json' })
      res.end(
        JSON.stringify({
          ResponseMetadata: {
            RequestId: randomBytes(8).toString('hex'),
            Action: action,
            Version: query.Version,
            Service: 'ACEP',
            Region: 'cn-north-1',
            ...(error ? { Error: { ...error, CodeN: 100000 } } : {}),
          },
          ...(error ? {} : { Result: result }),
        }),
      )
    }
    // STS is its own service (sts.volcengineapi.com): AssumeRole is signed for `sts`, the rest for ACEP.
    const service = action === 'AssumeRole' ? 'sts' : 'ACEP'
    const refusal = this.checkSignature(req, query, raw, service)
    if (refusal) return answer(401, null, { Code: refusal, Message: 'signature refused' })
    if (action === 'AssumeRole') {
      const { Action: _a, Version: _v, ...params } = query
      this.calls.push({ action, query: params, body: {} })
      if (query.Version !== '2018-01-01') {
        return answer(400, null, { Code: 'InvalidVersion', Message: 'sts is 2018-01-01' })
      }
      const assumed = this.assumeRole(params)
      return typeof assumed === 'string'
        ? answer(400, null, { Code: assumed, Message: assumed })
        : answer(200, assumed)
    }
    if (this.throttleNext > 0) {
      this.throttleNext -= 1
      this.throttled += 1
      return answer(429, null, { Code: 'AccountFlowLimitExceeded', Message: 'flow limit' })
    }
    let parsed: unknown
    if (raw) {
      try {
        parsed = JSON.parse(raw)
      } catch {
        return answer(400, null, { Code: 'InvalidParameter', Message: 'Data unmarshal failed' })
      }
    }
    const { Action: _a, Version: _v, ...params } = query
    const request = {
      action,
      version: query.Version ?? '',
      method: req.method ?? '',
      query: params,
    }
    this.requests.push({ ...request, body: parsed })
    const refusedByModel = requestRefusal({ ...request, body: parsed })
    if (refusedByModel) {
      const { status, code, message } = refusedByModel
      return answer(status, null, { Code: code, Message: message })
    }
    const body = (parsed ?? {}) as Record<string, unknown>
    this.calls.push({ action, query: params, body })
    const product = (body.ProductId ?? params.ProductId) as string | undefined
    if (product !== this.keys.productId) {
      return answer(400, null, { Code: 'InvalidProductId', Message: 'no such product' })
    }
    const list = body.PodIdList as string[] | undefined
    if (list && FAKE_LIST_LIMITS[action] && list.length > FAKE_LIST_LIMITS[action]) {
      return answer(400, null, {
        Code: 'InvalidParameter',
        Message: `PodIdList over ${FAKE_LIST_LIMITS[action]}`,
      })
    }
    if (list && new Set(list).size !== list.length) {
      return answer(400, null, { Code: 'InvalidParameter', Message: 'PodIdList repeats a pod' })
    }
    const refused = this.refuse?.(this.calls.at(-1)!)
    if (refused) return answer(400, null, refused)
    try {
      const result = this.act(action as AcepAction, params, body)
      if (action === 'CreatePod' && this.loseNextCreateAnswer) {
        this.loseNextCreateAnswer = false
        return answer(500, null, { Code: 'InternalError', Message: 'lost' })
      }
      const offModel = isAcepAction(action) ? answerProblems(action, result) : []
      if (offModel.length > 0) {
        // The fake's own mistake: it must answer as ACEP's model says, so the test fails here.
        return answer(500, null, { Code: 'FakeAnswerOffModel', Message: offModel.join('; ') })
      }
      return answer(200, result)
    } catch (error) {
      const code = (error as Error).message
      return answer(code === 'ResourceNotFound' ? 404 : 400, null, { Code: code, Message: code })
    }
  }

  /** Checks the V4 signature with the official SDK's Signer; the error code ACEP answers, or null. */
  private checkSignature(
    req: http.IncomingMessage,
    query: Record<string, string>,
    raw: string,
    service: 'ACEP' | 'sts',
  ) {
    const auth = req.headers.authorization ?? ''
    const match =
      /^HMAC-SHA256 Credential=([^/]+)\/(\d{8})\/([^/]+)\/([A-Za-z]+)\/request, SignedHeaders=([a-z0-9;-]+), Signature=([0-9a-f]{64})$/.exec(
        auth,
      )
    if (!match) return 'MissingAuthenticationToken'
    const [, ak, , region, signedService, signedHeaders, signature] = match
    if (signedService !== service) return 'SignatureDoesNotMatch'
    if (ak !== this.keys.accessKeyId) return 'InvalidAccessKey'
    const xDate = String(req.headers['x-date'] ?? '')
    const when = Date.parse(
      xDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'),
    )
    if (!Number.isFinite(when) || Math.abs(Date.now() - when) > 15 * 60_000)
      return 'InvalidTimestamp'
    const bodyHash = createHash('sha256').update(raw).digest('hex')
    if (req.headers['x-content-sha256'] !== bodyHash) return 'SignatureDoesNotMatch'
    // The headers as the SDK names them (it reads X-Content-Sha256 in this spelling).
    const spelled: Record<string, string> = {
      'x-date': 'X-Date',
      'x-content-sha256': 'X-Content-Sha256',
    }
    const headers: Record<string, string> = {}
    for (const name of signedHeaders.split(';')) {
      headers[spelled[name] ?? name] = String(req.headers[name] ?? '')
    }
    const signer = new Signer(
      { region, method: req.method ?? 'GET', pathname: '/', params: query, headers, body: raw },
      service,
    )
    const expected = signer
      .signature({ accessKeyId: ak, secretKey: this.keys.secretAccessKey }, xDate)
      .toString()
    return expected === signature ? null : 'SignatureDoesNotMatch'
  }

  /**
   * STS AssumeRole (docs 6257/86374): our role only, DurationSeconds 900–43200 (below 900 or absent:
   * 3600, as STS does), an inline Policy kept with the keys; the keys expire on the fake's clock.
   */
  private assumeRole(params: Record<string, string>) {
    if (params.RoleTrn !== this.stream.roleTrn) return 'NoPermission'
    if (!/^[\w.@-]{2,64}$/.test(params.RoleSessionName ?? '')) return 'InvalidParameter'
    let policy: IssuedKeys['policy'] = {}
    if (params.Policy) {
      try {
        policy = JSON.parse(params.Policy) as IssuedKeys['policy']
      } catch {
        return 'MalformedPolicyDocument'
      }
    }
    const asked = Number(params.DurationSeconds)
    const durationSeconds = !Number.isFinite(asked) || asked < 900 ? 3600 : Math.min(asked, 43200)
    const now = this.now()
    const accessKeyId = `AKTP${randomBytes(12).toString('hex')}`
    const keys: IssuedKeys = {
      secret: randomBytes(24).toString('base64'),
      sessionToken: `STS2${randomBytes(32).toString('base64')}`,
      expiresAt: now + durationSeconds * 1000,
      roleSessionName: params.RoleSessionName,
      durationSeconds,
      policy,
    }
    this.issued.set(accessKeyId, keys)
    return {
      Credentials: {
        CurrentTime: beijing(now),
        ExpiredTime: beijing(keys.expiresAt),
        AccessKeyId: accessKeyId,
        SecretAccessKey: keys.secret,
        SessionToken: keys.sessionToken,
      },
      AssumedRoleUser: {
        Trn: `${this.stream.roleTrn.replace(':role/', ':assumed-role/')}/${params.RoleSessionName}`,
        AssumedRoleId: `${randomBytes(8).toString('hex')}:${params.RoleSessionName}`,
      },
    }
  }

  /** Whether issued keys' Policy lets `action` touch the pod of the business. */
  private allows(keys: IssuedKeys, action: string, podId: string) {
    const pod = `trn:ACEP::${this.stream.accountId}:pod_id/${podId}`
    const product = `trn:ACEP::${this.stream.accountId}:product_id/${this.keys.productId}`
    return (keys.policy.Statement ?? []).some(
      (st) =>
        st.Effect === 'Allow' &&
        (st.Action ?? []).includes(action) &&
        (st.Resource ?? []).includes(pod) &&
        (st.Resource ?? []).includes(product),
    )
  }

  /**
   * The stream's side of ACEP as the fake SDK reaches it from a browser (CORS): `POST /sdk/start`
   * with the STS keys — the AccessKeyID and SessionToken, and an HMAC-SHA256 under the secret of what it
   * asks, standing in for the real SDK's V4 signature — answers the pod's first frame, or the SDK's
   * StartErrorCode: 10009 keys refused (unknown, expired, wrong secret, Policy without this pod),
   * 11001 another business or account, 11004 no such pod or not running.
   */
  private sdkCall(req: http.IncomingMessage, res: http.ServerResponse, path: string, raw: string) {
    const cors = {
      'access-control-allow-origin': String(req.headers.origin ?? '*'),
      'access-control-allow-headers': 'content-type',
      'access-control-allow-methods': 'POST',
    }
    if (req.method === 'OPTIONS') {
      res.writeHead(204, cors)
      return res.end()
    }
    const reply = (status: number, body: unknown) => {
      res.writeHead(status, { ...cors, 'content-type': 'application/json' })
      res.end(JSON.stringify(body))
    }
    if (req.method !== 'POST' || path !== '/sdk/start') return reply(404, { errorCode: 10000 })
    let ask: Record<string, string>
    try {
      ask = JSON.parse(raw) as Record<string, string>
    } catch {
      return reply(400, { errorCode: 11006, errorMessage: 'bad request' })
    }
    const refused = (code: number, message: string) =>
      reply(code === 10009 ? 401 : 400, { errorCode: code, errorMessage: message })
    const keys = this.issued.get(ask.accessKeyId ?? '')
    if (!keys || keys.sessionToken !== ask.sessionToken) return refused(10009, 'unknown keys')
    if (this.now() >= keys.expiresAt) return refused(10009, 'keys expired')
    const signed = `${ask.productId}\n${ask.podId}\n${ask.accountId}\n${ask.userId}\n${ask.date}`
    const expected = createHmac('sha256', keys.secret).update(signed).digest()
    const given = Buffer.from(String(ask.signature ?? ''), 'hex')
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      return refused(10009, 'signature does not match')
    }
    if (ask.productId !== this.keys.productId || ask.accountId !== this.stream.accountId) {
      return refused(11001, 'no such business')
    }
    if (!this.allows(keys, 'ACEP:PodStart', ask.podId)) return refused(10009, 'policy denies')
    const pod = this.pods.get(ask.podId)
    if (!pod || pod.off || this.now() < pod.bootUntil) return refused(11004, 'pod not running')
    this.streams.push({ podId: pod.id, userId: ask.userId, accessKeyId: ask.accessKeyId })
    return reply(200, { podId: pod.id, frame: `云手机 ${pod.id} 实时画面` })
  }

  private pod(id: unknown) {
    const pod = typeof id === 'string' ? this.pods.get(id) : undefined
    if (!pod) throw new Error('ResourceNotFound')
    return pod
  }

  private startTask(kind: Task['kind'], podId: string, extra: Partial<Task> = {}) {
    const task: Task = {
      id: this.nextId(),
      kind,
      podId,
      doneAt: this.now() + this.delayMs,
      fails: this.partlyFailNextTask ? -2 : this.failNextTask ? -1 : false,
      never: this.neverFinishNextTask,
      notified: false,
      ...extra,
    }
    this.failNextTask = false
    this.partlyFailNextTask = false
    this.neverFinishNextTask = false
    this.tasks.set(task.id, task)
    return task
  }

  /** GetTaskInfo's Job.Status (docs 6394/2189053): 10 while not due, then 100, or −1 / −2 failed. */
  private taskStatus(task: Task) {
    if (task.never || this.now() < task.doneAt || task.fetch === 'pending') return 10
    if (task.fetch === 'failed') return -1
    return task.fails === false ? 100 : task.fails
  }

  private finish(task: Task) {
    if (task.fails !== false || task.never || task.finished) return
    task.finished = true
    const pod = this.pods.get(task.podId)
    if (task.kind === 'migrate' && pod && task.targetDc) pod.dc = task.targetDc
    // A factory reset leaves the image's own apps only: none of these were in it.
    if (task.kind === 'reset' && pod) pod.apps = []
    // An install puts the app on each pod whose Job succeeded (a newer version replaces the older).
    const app = task.installs
    for (const job of task.jobs ?? []) {
      const target = this.pods.get(job.podId)
      if (job.fails || !app || !target) continue
      target.apps = target.apps
        .filter((a) => a.PackageName !== app.PackageName)
        .concat({
          PackageName: app.PackageName,
          AppId: app.AppId,
          AppName: app.AppName,
          VersionName: app.version.VersionName,
        })
    }
  }

  /**
   * UploadApp's fetch (ACEP downloads the APK itself, after answering): a 200 whose bytes are a zip
   * and whose MD5 is ExtraInfo's makes the app (or its new version) in the centre; anything else fails
   * the task. The fake takes the package and version from ExtraInfo, where ACEP parses the APK.
   */
  private async fetchUpload(task: Task, body: Record<string, unknown>) {
    const url = String(body.DownloadUrl)
    const extra = (body.ExtraInfo ?? {}) as Record<string, unknown>
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) }).catch(() => null)
    this.fetches.push({ url, status: response?.status ?? 0 })
    const bytes = response?.ok ? Buffer.from(await response.arrayBuffer()) : null
    const md5 = bytes ? createHash('md5').update(bytes).digest('hex') : ''
    if (
      !bytes ||
      bytes.subarray(0, 4).toString('latin1') !== 'PK\x03\x04' ||
      (extra.Md5 !== undefined && extra.Md5 !== md5) ||
      typeof extra.PackageName !== 'string' ||
      typeof extra.VersionCode !== 'number'
    ) {
      task.fetch = 'failed'
      return
    }
    const name = String(body.AppName ?? extra.PackageName)
    let app = [...this.centre.values()].find(
      (a) => a.AppName === name && a.PackageName === extra.PackageName,
    )
    if (!app) {
      app = {
        AppId: `app-${this.nextId()}`,
        AppName: name,
        PackageName: extra.PackageName,
        versions: [],
      }
      this.centre.set(app.AppId, app)
    }
    if (!app.versions.some((v) => v.VersionCode === extra.VersionCode)) {
      app.versions.push({
        VersionId: `ver-${this.nextId()}`,
        VersionCode: extra.VersionCode,
        VersionName: String(extra.VersionName ?? ''),
      })
    }
    task.fetch = 'ok'
  }

  /**
   * Posts the task's end to the callback address, signed as we guess ACEP signs callbacks. Its
   * task_status is GetTaskInfo's scale; the adapter reads none of it (it asks GetTaskInfo).
   */
  private async notify(task: Task) {
    if (!this.callbackUrl || task.notified) return
    task.notified = true
    const body = JSON.stringify({
      id: randomBytes(8).toString('hex'),
      event_type: 'AsyncTask',
      event_async_task: [
        { instance_id: task.podId, global_task_id: task.id, task_status: this.taskStatus(task) },
      ],
    })
    await this.postCallback(body)
  }

  /** Sends a callback body; `forge` signs it with the wrong secret. */
  async postCallback(body: string, options: { forge?: boolean; timestamp?: number } = {}) {
    if (!this.callbackUrl) throw new Error('no callback address')
    const header = signCallback(
      body,
      {
        accessKey: this.keys.callbackAccessKey,
        secret: options.forge ? 'not-the-secret' : this.keys.callbackSecret,
      },
      options.timestamp ?? Math.floor(this.callbackNow().getTime() / 1000),
    )
    const response = await fetch(this.callbackUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'iPaaS-Auth': header },
      body,
    }).catch(() => null)
    return response?.status ?? 0
  }

  /** A pod that is on and booted (what backups, resets and migrations need). */
  private ready(pod: Pod | undefined) {
    return !!pod && !pod.off && this.now() >= pod.bootUntil
  }

  /** The Result of a request the model admitted, shaped as the model's answer. */
  private act(
    action: AcepAction,
    query: Record<string, string>,
    body: Record<string, unknown>,
  ): unknown {
    const now = this.now()
    const podIds =
      (body.PodIdList as string[] | undefined) ?? (body.PodId ? [body.PodId as string] : [])
    switch (action) {
      // CreatePod (2023-10-30; docs 6394/1905408): a local-storage business needs ResourceType 200.
      case 'CreatePod': {
        if (!body.ConfigurationCode || !body.Dc) throw new Error('InvalidParameter')
        if (this.storage === 'local' && body.ResourceType !== 200) {
          throw new Error('InvalidParameter.ResourceType')
        }
        const pod: Pod = {
          id: this.nextId(),
          name: String(body.PodName ?? ''),
          config: String(body.ConfigurationCode),
          dc: String(body.Dc),
          imageId: String(body.ImageId ?? 'img-standard'),
          bootUntil: now + this.delayMs,
          rebooting: false,
          off: false,
          apps: [
            { PackageName: 'com.tencent.mm', AppId: 'app-wechat' },
            { PackageName: 'com.ss.android.ugc.aweme' },
          ],
        }
        this.pods.set(pod.id, pod)
        return { PodId: pod.id }
      }
      case 'ListPod': {
        const all = [...this.pods.values()]
        const offset = Number(query.Offset ?? 0)
        const count = Math.min(100, Number(query.Count ?? 10))
        return {
          Row: all
            .slice(offset, offset + count)
            .map((pod) => ({ PodId: pod.id, PodName: pod.name, DcInfo: { Dc: pod.dc } })),
          Total: all.length,
        }
      }
      case 'DetailPod': {
        const pod = this.pod(query.PodId)
        const booting = now < pod.bootUntil
        return {
          PodId: pod.id,
          PodName: pod.name,
          ImageId: pod.imageId,
          Online: pod.off ? 2 : booting ? (pod.rebooting ? 4 : 0) : 1,
          DcInfo: { Dc: pod.dc },
          Configuration: { ConfigurationCode: pod.config },
        }
      }
      case 'ListDc':
        return {
          Row: [...new Set([...this.pods.values()].map((pod) => pod.dc).concat('dc-1'))].map(
            (dc) => ({ Dc: dc, DcName: `机房 ${dc}`, Region: 'cn-north' }),
          ),
          Total: 1,
        }
      // RebootPod, DeletePod and UpdatePod answer a bare "success" (their Result is a string).
      case 'RebootPod':
        for (const id of podIds)
          Object.assign(this.pod(id), { bootUntil: now + this.delayMs, rebooting: true })
        return 'success'
      // Each pod answered on its own (Details, PowerOnPod's page in docs 6394/2189023): an unknown one
      // fails alone ('record not found'); powering on a running pod or off an off one changes nothing.
      case 'PowerOnPod':
      case 'PowerOffPod':
        return {
          Details: podIds.map((id) => {
            const pod = this.pods.get(id)
            if (!pod) return { PodId: id, Success: false, ErrCode: 404, ErrMsg: 'record not found' }
            if (action === 'PowerOffPod') pod.off = true
            else if (pod.off) {
              Object.assign(pod, { off: false, bootUntil: now + this.delayMs, rebooting: true })
            }
            return { PodId: id, Success: true }
          }),
        }
      case 'DeletePod':
        for (const id of podIds) {
          this.pod(id)
          this.pods.delete(id)
        }
        return 'success'
      case 'UpdatePod':
        for (const id of podIds) {
          const pod = this.pod(id)
          if (body.ConfigurationCode) pod.config = String(body.ConfigurationCode)
          if (body.ImageId) pod.imageId = String(body.ImageId)
        }
        return 'success'
      case 'RunSyncCommand': {
        const pods = podIds.map((id) => this.pod(id))
        const command = String(body.Command)
        const uninstall = /^pm uninstall (\S+)$/.exec(command)
        // A booting or powered-off pod runs nothing: its own Status says so, the others' still succeed.
        return {
          Status: pods.map((pod) => {
            const success = !pod.off && now >= pod.bootUntil
            if (success && uninstall) {
              pod.apps = pod.apps.filter((app) => app.PackageName !== uninstall[1])
            }
            return { PodId: pod.id, Success: success, Detail: '' }
          }),
        }
      }
      // UploadApp (2023-10-30): answers its task at once and fetches DownloadUrl meanwhile.
      case 'UploadApp': {
        if (!/^https?:\/\//.test(String(body.DownloadUrl)))
          throw new Error('InvalidParameter.DownloadUrl')
        // The upload ends when the fetch does (not on the fake's clock).
        const task = this.startTask('upload', '', { fetch: 'pending', doneAt: now })
        void this.fetchUpload(task, body)
        return { TaskId: task.id, TaskAction: 'UploadApp' }
      }
      case 'ListApp': {
        const rows = [...this.centre.values()].filter(
          (a) =>
            (!query.AppId || a.AppId === query.AppId) &&
            (!query.AppName || a.AppName === query.AppName),
        )
        const offset = Number(query.Offset ?? 0)
        const count = Math.min(100, Number(query.Count ?? 10))
        return {
          Row: rows.slice(offset, offset + count).map((a) => ({
            AppId: a.AppId,
            AppName: a.AppName,
            PackageName: a.PackageName,
            AppType: 1,
            ProductId: this.keys.productId,
            VersionList: a.versions.map((v) => ({
              AppId: a.AppId,
              PackageName: a.PackageName,
              ...v,
            })),
          })),
          Total: rows.length,
        }
      }
      // InstallApp (2023-10-30, docs 6394/2189058): an app and version of the centre onto up to 1,000
      // pods; a Job per pod, one a pod that is unknown or not running fails at once.
      case 'InstallApp': {
        const app = this.centre.get(String(body.AppId))
        const version = app?.versions.find((v) => v.VersionId === body.VersionId)
        if (!app || !version) throw new Error('InvalidParameter.AppId')
        if (!body.PodIdList || podIds.length === 0) throw new Error('InvalidParameter')
        const task = this.startTask('install', podIds[0], {
          installs: { ...app, version },
          jobs: podIds.map((id) => ({
            podId: id,
            fails: !this.ready(this.pods.get(id)) || this.failInstallOn.has(id),
          })),
        })
        return {
          TaskId: task.id,
          TaskAction: 'InstallApp',
          Jobs: podIds.map((id) => {
            const refused = !this.ready(this.pods.get(id))
            return {
              PodId: id,
              JobId: `job-${task.id}-${id}`,
              PackageName: app.PackageName,
              Status: refused ? -1 : 10,
              ...(refused ? { JobMessage: 'pod is not running' } : {}),
            }
          }),
        }
      }
      // LaunchApp (2023-10-30): a Job per pod, failed where the pod is not running or lacks the app.
      case 'LaunchApp': {
        return {
          TaskId: this.nextId(),
          TaskAction: 'LaunchApp',
          Jobs: podIds.map((id) => {
            const pod = this.pods.get(id)
            const runs =
              this.ready(pod) && pod!.apps.some((a) => a.PackageName === body.PackageName)
            return {
              PodId: id,
              PackageName: String(body.PackageName),
              Status: runs ? 100 : -1,
              ...(runs ? {} : { JobMessage: 'app not installed or pod not running' }),
            }
          }),
        }
      }
      case 'GetPodAppList':
        return { Row: this.pod(query.PodId).apps, Total: this.pod(query.PodId).apps.length }
      case 'UninstallApp': {
        for (const id of podIds) {
          const pod = this.pod(id)
          pod.apps = pod.apps.filter((app) => app.AppId !== body.AppId)
        }
        return { TaskId: this.nextId(), TaskAction: 'UninstallApp' }
      }
      // BatchScreenShot (2025-05-01): each pod's image address in its Details entry; a pod that is off
      // or unknown has an error there instead.
      case 'BatchScreenShot':
        return {
          Details: podIds.map((id) =>
            this.ready(this.pods.get(id))
              ? { PodId: id, DownloadUrl: `${this.endpoint}/screens/${id}.png` }
              : { PodId: id, ErrorCode: 400, ErrorMsg: 'pod is not running' },
          ),
        }
      // ResetPod (2025-05-01, docs 6394/1905410): up to 100 pods, ResetType 0 or 1; a pod must be on
      // and booted. The pods reboot while the task runs (Online 4); the answer is the task and a Job
      // per pod.
      case 'ResetPod': {
        if (body.ResetType !== undefined && body.ResetType !== 0 && body.ResetType !== 1) {
          throw new Error('InvalidParameter')
        }
        if (!body.PodIdList || podIds.length === 0) throw new Error('InvalidParameter')
        const pods = podIds.map((id) => this.pod(id))
        if (pods.some((pod) => !this.ready(pod))) throw new Error('OperationDenied.PodStatus')
        // One task for the call (this fake follows its first pod: we reset one pod a call).
        const task = this.startTask('reset', pods[0].id)
        for (const pod of pods) Object.assign(pod, { bootUntil: task.doneAt, rebooting: true })
        return {
          TaskId: task.id,
          TaskAction: 'ResetPod',
          Jobs: pods.map((pod) => ({
            PodId: pod.id,
            JobId: `job-${task.id}-${pod.id}`,
            Status: 10,
          })),
        }
      }
      // MigratePod (2025-05-01): PodIdList and TargetDc; each pod's Success in Details, no task id. The
      // pod is in the target Dc once the move ends (DetailPod).
      case 'MigratePod': {
        if (!body.TargetDc) throw new Error('InvalidParameter.TargetDc')
        return {
          ProductId: this.keys.productId,
          Details: podIds.map((id) => {
            const pod = this.pods.get(id)
            if (!this.ready(pod)) {
              return { PodId: id, Success: false, ErrCode: 400, ErrMsg: 'pod is not running' }
            }
            this.startTask('migrate', id, { targetDc: String(body.TargetDc) })
            return { PodId: id, Success: true, ErrCode: 0 }
          }),
        }
      }
      // BackupData (2025-05-01): one task and backup per pod in Details (and TaskIdList); a pod that is
      // not running is left out.
      case 'BackupData': {
        const details = podIds
          .filter((id) => this.ready(this.pods.get(id)))
          .map((id) => {
            const task = this.startTask('backup', id, { backupDataId: `bd-${this.nextId()}` })
            return {
              PodId: id,
              TaskId: task.id,
              JobId: `job-${task.id}`,
              BackupDataId: task.backupDataId,
            }
          })
        return { Details: details, TaskIdList: details.map((d) => d.TaskId) }
      }
      case 'RestoreData': {
        const backup = [...this.tasks.values()].find(
          (t) => t.backupDataId === body.BackupDataId && t.kind === 'backup',
        )
        if (!backup || this.taskStatus(backup) !== 100) throw new Error('ResourceNotFound')
        const details = podIds.map((id) => {
          const task = this.startTask('restore', this.pod(id).id)
          return { PodId: id, TaskId: task.id, JobId: `job-${task.id}` }
        })
        return { Details: details, TaskIdList: details.map((d) => d.TaskId) }
      }
      // ListBackupData (2025-05-01, docs 6394/1852296): POST, BackupDataIdList a JSON list.
      case 'ListBackupData': {
        const ids = (body.BackupDataIdList as string[] | undefined) ?? []
        const rows = [...this.tasks.values()]
          .filter((t) => t.kind === 'backup' && ids.includes(t.backupDataId ?? ''))
          .map((t) => {
            const status = this.taskStatus(t)
            return {
              BackupDataId: t.backupDataId,
              SourcePodId: t.podId,
              Status: status === 10 ? 'running' : status === 100 ? 'completed' : 'failed',
              Size: status === 100 ? 512 * 1024 * 1024 : 0,
            }
          })
        return { Rows: rows }
      }
      case 'DeleteBackupData': {
        const ids = (body.BackupDataIdList as string[]) ?? []
        const found = [...this.tasks.values()].filter((t) => ids.includes(t.backupDataId ?? ''))
        if (found.length === 0) throw new Error('ResourceNotFound')
        for (const t of found) this.tasks.delete(t.id)
        return { Details: ids.map((id) => ({ BackupDataId: id, ErrCode: 0, ErrMsg: '' })) }
      }
      // GetTaskInfo (2025-05-01, docs 6394/2189053): the task's Jobs with their Status.
      case 'GetTaskInfo': {
        const task = this.tasks.get(String(body.TaskId))
        if (!task) throw new Error('ResourceNotFound')
        const status = this.taskStatus(task)
        if (task.kind === 'install') {
          const due = status !== 10
          if (due) this.finish(task)
          const failed = task.jobs!.filter((job) => job.fails).length
          return {
            TaskId: task.id,
            TaskAction: 'InstallApp',
            TaskResult: !due ? 50 : failed === 0 ? 100 : failed === task.jobs!.length ? -1 : -2,
            Jobs: task.jobs!.map((job) => ({
              PodId: job.podId,
              JobId: `job-${task.id}-${job.podId}`,
              JobAction: 'InstallApp',
              PackageName: task.installs!.PackageName,
              Status: !due ? 10 : job.fails ? -1 : 100,
            })),
          }
        }
        return {
          TaskId: task.id,
          TaskAction: {
            backup: 'BackupData',
            restore: 'RestoreData',
            migrate: 'MigratePod',
            reset: 'ResetPod',
            upload: 'UploadApp',
          }[task.kind],
          TaskResult: status === 10 ? 50 : status === 100 ? 100 : -1,
          Jobs: [{ PodId: task.podId, JobId: `job-${task.id}`, Status: status }],
        }
      }
    }
  }
}

/**
 * A query string as the gateway reads it for the signature (RFC 3986, as Volcengine's signing guide
 * escapes it): `%XX` decoded, a `+` a plus sign, not a space.
 */
function gatewayQuery(search: string): Record<string, string> {
  const query: Record<string, string> = {}
  for (const pair of search.split('&').filter(Boolean)) {
    const at = pair.indexOf('=')
    const [key, value] = at < 0 ? [pair, ''] : [pair.slice(0, at), pair.slice(at + 1)]
    try {
      query[decodeURIComponent(key)] = decodeURIComponent(value)
    } catch {
      query[key] = value
    }
  }
  return query
}

/** Our whole catalogue mapped to ACEP ids (every goods → a configuration code, every zone → a Dc). */
export async function mapWholeCatalogue(db: Db) {
  const now = new Date()
  const allGoods = await db.select({ id: goods.id }).from(goods)
  const allZones = await db.select({ id: zones.id }).from(zones)
  await db.insert(supplierCatalogue).values([
    ...allGoods.map((g) => ({
      supplier: 'acep',
      kind: 'goods',
      localId: g.id,
      remoteId: configOf(g.id),
      updatedAt: now,
    })),
    ...allZones.map((z) => ({
      supplier: 'acep',
      kind: 'zone',
      localId: z.id,
      remoteId: `dc-${z.id}`,
      updatedAt: now,
    })),
  ])
}

/** The configuration code mapWholeCatalogue gives a goods: goods of one hundred share one. */
export const configOf = (goodId: number) => `config-${Math.floor(goodId / 100)}`

/** Every variable SUPPLIER_PROVIDER=acep needs, for this fake's account and business. */
export function acepEnvFor(fake: FakeAcep, overrides: Record<string, string> = {}) {
  return {
    ACEP_ACCESS_KEY_ID: FAKE_KEYS.accessKeyId,
    ACEP_SECRET_ACCESS_KEY: FAKE_KEYS.secretAccessKey,
    ACEP_PRODUCT_ID: FAKE_KEYS.productId,
    ACEP_RESOURCE_TYPE: fake.storage === 'local' ? '200' : '100',
    ACEP_CALLBACK_ACCESS_KEY: FAKE_KEYS.callbackAccessKey,
    ACEP_CALLBACK_SECRET: FAKE_KEYS.callbackSecret,
    ACEP_ENDPOINT: fake.endpoint,
    ...overrides,
  }
}

/** An ACEP supplier talking to this fake (fast backoff so throttling tests run quickly). */
export function acepSupplierFor(
  fake: FakeAcep,
  db: Db,
  clock: Clock = systemClock,
  imageId = '',
  /** More environment (the live stream's ACEP_WEB_SDK_FILE …: streamEnv). */
  env: Record<string, string> = {},
) {
  const result = acepCredentialsFromEnv(acepEnvFor(fake, env))
  if (!result.ok) throw new Error(result.problems.join('; '))
  const { credentials } = result
  const client = acepClientFor(credentials, { backoffMs: 5 })
  return new AcepSupplier(db, clock, credentials, client, {
    imageId,
    stream: acepStreamFor(credentials, { backoffMs: 5 }),
    // An upload ends when the fake has fetched the APK: asked after every 20 ms.
    apps: { uploadPollMs: 20, uploadWaitMs: 10_000 },
  })
}

/** The live stream's environment against this fake: its STS, account and role, the SDK file. */
export function streamEnv(fake: FakeAcep, sdkFile: string): Record<string, string> {
  return {
    ACEP_WEB_SDK_FILE: sdkFile,
    ACEP_STS_ROLE_TRN: fake.stream.roleTrn,
    ACEP_ACCOUNT_ID: fake.stream.accountId,
    ACEP_STS_ENDPOINT: fake.endpoint,
    ACEP_STREAM_CONNECT_SRC: fake.endpoint,
  }
}
