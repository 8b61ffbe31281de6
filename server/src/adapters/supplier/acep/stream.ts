/**
 * ACEP's live stream in a browser: Volcengine's Web H5 SDK (vePhoneSDK) plays a pod when it is given the
 * business (productId), the pod, an account id, a user id and temporary STS keys. The SDK is not on our npm
 * registry, so the operator downloads `vePhoneSDK-Web.js` and names it in ACEP_WEB_SDK_FILE; we serve that
 * file ourselves under a content-hashed address (script-src stays 'self'). The temporary keys come from
 * Volcengine STS AssumeRole (service `sts`, version 2018-01-01, signed like ACEP with our long-lived pair),
 * with an inline Policy that lets them start this one pod's stream and nothing else, for 15 minutes.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import type { AcepClient } from './acep-client'
import type { AcepStreamSettings } from './credentials'

export const STS_VERSION = '2018-01-01'
/** STS's shortest session (a shorter DurationSeconds is taken as its default of 3600). */
export const STREAM_KEY_TTL_S = 900
/**
 * What the stream's keys may do, on this pod of this business only: the SDK starts the pod's stream
 * (PodStart) with a media token (GetMediaToken) and reads the pod (DetailPod), as ACEP's STS guide
 * scopes its example Policy (docs 6394/1262151).
 */
export const STREAM_ACTIONS = ['ACEP:PodStart', 'ACEP:GetMediaToken', 'ACEP:DetailPod'] as const
/** The keys in the shape vePhoneSDK's start({ token }) takes. */
export interface StreamToken {
  AccessKeyID: string
  SecretAccessKey: string
  SessionToken: string
  CurrentTime: string
  ExpiredTime: string
}

interface AssumeRoleResult {
  Credentials?: {
    AccessKeyId?: string
    SecretAccessKey?: string
    SessionToken?: string
    CurrentTime?: string
    ExpiredTime?: string
  }
}

/** The inline Policy: the stream's actions on this business and this pod, nothing else. */
export function streamPolicy(accountId: string, productId: string, podId: string): string {
  return JSON.stringify({
    Statement: [
      {
        Effect: 'Allow',
        Action: [...STREAM_ACTIONS],
        Resource: [
          `trn:ACEP::${accountId}:product_id/${productId}`,
          `trn:ACEP::${accountId}:pod_id/${podId}`,
        ],
      },
    ],
  })
}

/** The SDK file as served: its bytes and the address that names their hash (immutable). */
export interface StreamSdk {
  bytes: Buffer
  path: string
}

export function loadStreamSdk(file: string, prefix: string): StreamSdk {
  const bytes = fs.readFileSync(file)
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16)
  return { bytes, path: `${prefix}/stream/vePhoneSDK-Web.${hash}.js` }
}

/** Hands out the live stream's short-lived keys (never our long-lived pair). */
export class AcepStream {
  readonly sdk: StreamSdk

  constructor(
    readonly settings: AcepStreamSettings,
    private readonly productId: string,
    /** An AcepClient signing for service `sts` at the STS endpoint. */
    private readonly sts: AcepClient,
    prefix: string,
  ) {
    this.sdk = loadStreamSdk(settings.sdkFile, prefix)
  }

  /** Keys that may start this pod's stream, for STREAM_KEY_TTL_S; `sessionName` shows in the audit log. */
  async keys(podId: string, sessionName: string) {
    const result = await this.sts.get<AssumeRoleResult>(
      'AssumeRole',
      {
        RoleTrn: this.settings.roleTrn,
        RoleSessionName: sessionName,
        DurationSeconds: String(STREAM_KEY_TTL_S),
        Policy: streamPolicy(this.settings.accountId, this.productId, podId),
      },
      STS_VERSION,
    )
    const c = result?.Credentials
    if (!c?.AccessKeyId || !c.SecretAccessKey || !c.SessionToken || !c.ExpiredTime) {
      throw new Error('STS AssumeRole answered no credentials')
    }
    const expiresAt = Date.parse(c.ExpiredTime)
    if (!Number.isFinite(expiresAt)) throw new Error('STS AssumeRole: unreadable ExpiredTime')
    const token: StreamToken = {
      AccessKeyID: c.AccessKeyId,
      SecretAccessKey: c.SecretAccessKey,
      SessionToken: c.SessionToken,
      CurrentTime: c.CurrentTime ?? '',
      ExpiredTime: c.ExpiredTime,
    }
    return {
      token,
      expiresAt,
      productId: this.productId,
      podId,
      accountId: this.settings.accountId,
    }
  }
}
