/**
 * The console's one request module: same-origin fetch with the session cookie, the CSRF header on
 * unsafe methods, the {code,msg,data} envelope unwrapped. Types come from the server's contract
 * (type-only: nothing of the server is bundled).
 */
import type {
  ADMIN_API_PREFIX,
  AdminSession,
  AuditPage,
  AuditQuery,
  ChangeOperatorPasswordBody,
  CreatedOperator,
  CreateOperatorBody,
  CSRF_HEADER as CsrfHeader,
  OperatorList,
  OperatorRow,
  SignInBody,
} from '#console-contract'
import type {
  AdminAutoRenewPage,
  AdminDeviceAutoRenew,
  AutoRenewFailureQuery,
} from '#console-contract/auto-renew'
import type {
  AdminUserDetail,
  AdminUserPage,
  AdminUserRow,
  UserSearchQuery,
} from '#console-contract/users'
import type {
  AdminCatalogue,
  AdminPriceRow,
  AdminStockRow,
  MappingKind,
  OnSaleBody,
  OnSaleRow,
  PriceEditBody,
  StockEditBody,
  SupplierMapping,
  SupplierMappingRow,
} from '#console-contract/catalogue'
import type {
  AdminOrderDetail,
  AdminOrderPage,
  OrderFilter,
  OrderSearchQuery,
} from '#console-contract/orders'
import type {
  AdminDeviceDetail,
  AdminDevicePage,
  AdminDeviceRow,
  AdminJobPage,
  AdminJobRow,
  DeviceSearchQuery,
  JobSearchQuery,
} from '#console-contract/devices'
import type {
  CouponTemplateBody,
  CouponTemplateList,
  CouponTemplateRow,
  IssueCouponBody,
  IssueCouponResult,
} from '#console-contract/coupons'
import type {
  OperatorMessagePage,
  OperatorMessageQuery,
  OperatorMessageRow,
  SendMessageBody,
} from '#console-contract/messages'
import type { AppItem, CatalogueAppList } from '#console-contract/apps'
import type { AdminOverview } from '#console-contract/overview'
import type {
  ActivityEditBody,
  AdminActivityRow,
  AdminCommonConfig,
  AdminSeckillItem,
  AdminSettings,
  CommonConfigBody,
  SeckillItemEditBody,
} from '#console-contract/settings'
import { OperatorCode, ResultCode } from '#domain/result-codes'

// The contract's names, checked against it by type (a value import would bundle the contract).
const API: typeof ADMIN_API_PREFIX = '/vmcloud/admin/api'
const CSRF_HEADER: typeof CsrfHeader = 'x-csrf-token'
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

/** A refusal: the server's code and message, or a transport failure (code 0). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message)
  }

  /** The session is gone (never signed in, expired, ended, the operator disabled): sign in again. */
  get signedOut(): boolean {
    return this.code === OperatorCode.NOT_SIGNED_IN || this.status === 401
  }

  get forbidden(): boolean {
    return this.code === OperatorCode.FORBIDDEN || this.status === 403
  }
}

/** The session's CSRF token (from sign-in or GET /session); kept in memory only. */
let csrfToken: string | null = null
/** Called when any call finds the session gone (App returns to sign-in). */
let onSignedOut: () => void = () => {}

export function setSignedOutHandler(handler: () => void) {
  onSignedOut = handler
}

interface Envelope<T> {
  code: number
  msg: string
  data: T
}

async function call<T>(method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json' }
  // a FormData (an upload) sends its own multipart content-type, boundary included
  const form = body instanceof FormData
  if (body !== undefined && !form) headers['content-type'] = 'application/json'
  if (UNSAFE.has(method) && csrfToken) headers[CSRF_HEADER] = csrfToken
  let response: Response
  try {
    response = await fetch(`${API}${path}`, {
      method,
      headers,
      credentials: 'same-origin',
      body: body === undefined ? undefined : form ? body : JSON.stringify(body),
    })
  } catch {
    throw new ApiError(0, 0, '网络连接失败，请检查网络后重试')
  }
  let envelope: Envelope<T>
  try {
    envelope = (await response.json()) as Envelope<T>
  } catch {
    throw new ApiError(
      response.status,
      0,
      `服务器无法处理请求（HTTP ${response.status}），请稍后再试`,
    )
  }
  if (envelope.code === ResultCode.RESULT_OK) return envelope.data
  const error = new ApiError(response.status, envelope.code, envelope.msg)
  if (error.signedOut) {
    csrfToken = null
    onSignedOut()
  }
  throw error
}

const remember = (session: AdminSession): AdminSession => {
  csrfToken = session.csrfToken
  return session
}

const query = (params: Record<string, string | number | undefined>) => {
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(params)) {
    if (value !== undefined && value !== '') search.set(key, String(value))
  }
  const text = search.toString()
  return text ? `?${text}` : ''
}

export const adminApi = {
  signIn: async (body: SignInBody) => remember(await call<AdminSession>('POST', '/session', body)),
  session: async () => remember(await call<AdminSession>('GET', '/session')),
  signOut: async () => {
    await call<unknown>('DELETE', '/session')
    csrfToken = null
  },
  overview: () => call<AdminOverview>('GET', '/overview'),
  operators: () => call<OperatorList>('GET', '/operators'),
  createOperator: (body: CreateOperatorBody) => call<CreatedOperator>('POST', '/operators', body),
  disableOperator: (id: number) => call<OperatorRow>('POST', `/operators/${id}/disable`),
  enableOperator: (id: number) => call<OperatorRow>('POST', `/operators/${id}/enable`),
  changePassword: (body: ChangeOperatorPasswordBody) =>
    call<unknown>('POST', '/operators/me/password', body),
  audit: (params: AuditQuery) => call<AuditPage>('GET', `/audit${query({ ...params })}`),
  users: (params: UserSearchQuery) => call<AdminUserPage>('GET', `/users${query({ ...params })}`),
  user: (id: number) => call<AdminUserDetail>('GET', `/users/${id}`),
  setFrozen: (id: number, frozen: boolean, reason: string) =>
    call<AdminUserRow>('POST', `/users/${id}/${frozen ? 'freeze' : 'unfreeze'}`, { reason }),
  decideCompany: (id: number, verified: boolean, reason?: string) =>
    call<AdminUserRow>('POST', `/users/${id}/company/${verified ? 'verify' : 'reject'}`, {
      reason,
    }),
  catalogue: () => call<AdminCatalogue>('GET', '/catalogue'),
  editPrice: (id: number, body: PriceEditBody) =>
    call<AdminPriceRow>('POST', `/catalogue/prices/${id}`, body),
  setOnSale: (goodId: number, body: OnSaleBody) =>
    call<OnSaleRow>('POST', `/catalogue/goods/${goodId}/on-sale`, body),
  setZoneOnSale: (zoneId: number, body: OnSaleBody) =>
    call<OnSaleRow>('POST', `/catalogue/zones/${zoneId}/on-sale`, body),
  setStock: (goodId: number, zoneId: number, body: StockEditBody) =>
    call<AdminStockRow>('POST', `/catalogue/stock/${goodId}/${zoneId}`, body),
  supplierMapping: () => call<SupplierMapping>('GET', '/catalogue/supplier-mapping'),
  /** remoteId null clears the mapping. */
  setSupplierMapping: (kind: MappingKind, id: number, remoteId: string | null) =>
    call<SupplierMappingRow>('POST', `/catalogue/supplier-mapping/${kind}/${id}`, { remoteId }),
  orders: (params: OrderSearchQuery) =>
    call<AdminOrderPage>('GET', `/orders${query({ ...params })}`),
  order: (id: number) => call<AdminOrderDetail>('GET', `/orders/${id}`),
  refundOrder: (id: number, reason: string) =>
    call<AdminOrderDetail>('POST', `/orders/${id}/refund`, { reason }),
  /** The export is a plain GET the browser downloads as it streams (the cookie goes with it). */
  ordersCsvUrl: (filter: OrderFilter) => `${API}/orders.csv${query({ ...filter })}`,
  devices: (params: DeviceSearchQuery) =>
    call<AdminDevicePage>('GET', `/devices${query({ ...params })}`),
  device: (id: number) => call<AdminDeviceDetail>('GET', `/devices/${id}`),
  retryProvision: (id: number) => call<AdminDeviceRow>('POST', `/devices/${id}/retry-provision`),
  releaseDevice: (id: number, reason: string) =>
    call<AdminDeviceRow>('POST', `/devices/${id}/release`, { reason }),
  resetDevice: (id: number, reason: string) =>
    call<AdminDeviceRow>('POST', `/devices/${id}/reset`, { reason }),
  jobs: (params: JobSearchQuery) => call<AdminJobPage>('GET', `/jobs${query({ ...params })}`),
  deviceAutoRenew: (id: number) => call<AdminDeviceAutoRenew>('GET', `/devices/${id}/auto-renew`),
  autoRenewFailures: (params: AutoRenewFailureQuery) =>
    call<AdminAutoRenewPage>('GET', `/auto-renew/failures${query({ ...params })}`),
  retryJob: (id: number) => call<AdminJobRow>('POST', `/jobs/${id}/retry`),
  couponTemplates: () => call<CouponTemplateList>('GET', '/coupons/templates'),
  saveCouponTemplate: (id: number | null, body: CouponTemplateBody) =>
    call<CouponTemplateRow>('POST', `/coupons/templates${id === null ? '' : `/${id}`}`, body),
  issueCoupon: (id: number, body: IssueCouponBody) =>
    call<IssueCouponResult>('POST', `/coupons/templates/${id}/issue`, body),
  operatorMessages: (params: OperatorMessageQuery) =>
    call<OperatorMessagePage>('GET', `/messages${query({ ...params })}`),
  sendMessage: (body: SendMessageBody) => call<OperatorMessageRow>('POST', '/messages', body),
  catalogueApps: () => call<CatalogueAppList>('GET', '/apps'),
  /** An APK into 应用库: multipart field `file`, read by the server as a user's upload is. */
  addCatalogueApp: (file: Blob, fileName: string) => {
    const form = new FormData()
    form.append('file', file, fileName)
    return call<AppItem>('POST', '/apps', form)
  },
  setAppHidden: (appId: number, hidden: boolean) =>
    call<AppItem>('POST', '/apps/hidden', { appId, hidden }),
  settings: () => call<AdminSettings>('GET', '/settings'),
  editCommonConfig: (body: CommonConfigBody) =>
    call<AdminCommonConfig>('POST', '/settings/common', body),
  editActivity: (id: number, body: ActivityEditBody) =>
    call<AdminActivityRow>('POST', `/settings/activities/${id}`, body),
  editSeckillItem: (id: number, body: SeckillItemEditBody) =>
    call<AdminSeckillItem>('POST', `/settings/seckill-items/${id}`, body),
}
