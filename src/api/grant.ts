/** Authorisation center (docs/cloud-phones.md "Authorisation"): /device/empower*. */
import type {
  AcceptShareResult,
  CreateGrantBody,
  CreateGrantResult,
  CreateShareBody,
  GrantDirection,
  GrantView,
  ShareCode,
  SharePreview,
} from '@/types/api'
import { client } from '@/runtime/request'

export const grantDevices = async (body: CreateGrantBody) =>
  (await client.post<CreateGrantResult>('/device/empower', body)).data

export const listGrants = (direction: GrantDirection, page: number, rows?: number) =>
  client.fetchPage<GrantView>({ url: '/device/empower/list', page, rows, params: { direction } })

export const revokeGrants = async (grantIds: number[]) =>
  (await client.post<{ count: number }>('/device/empower/revoke', { grantIds })).data

export const createShare = async (body: CreateShareBody) =>
  (await client.post<ShareCode>('/device/empower/share', body)).data

/** What a scanned share offers (scanResult shows it before 接受授权). */
export const previewShare = async (code: string) =>
  (await client.get<SharePreview>('/device/empower/share', { code })).data

export const acceptShare = async (code: string) =>
  (await client.post<AcceptShareResult>('/device/empower/acceptShare', { code })).data
