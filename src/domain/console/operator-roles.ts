/**
 * Operator roles and what each may do: the one table the console shows and hides by and the server
 * enforces (each /vmcloud/admin/api route declares its permission's roles; the admin hook refuses the rest).
 * Plain TypeScript shared by the server, the console and the tests.
 */
export const OPERATOR_ROLES = ['admin', 'operations', 'finance', 'support'] as const
export type OperatorRole = (typeof OPERATOR_ROLES)[number]

export const OPERATOR_ROLE_LABELS: Readonly<Record<OperatorRole, string>> = {
  admin: '管理员',
  operations: '运营',
  finance: '财务',
  support: '客服',
}

const ALL = OPERATOR_ROLES

/** Each console action → the roles allowed it. A role not listed is refused. */
export const OPERATOR_PERMISSIONS = {
  /** Overview figures, and reading users, orders, phones, coupons, messages, settings and jobs. */
  view: ALL,
  /** One's own password (with the current password and a TOTP code). */
  ownAccount: ALL,
  /** Operator accounts: list, create, disable, enable. */
  manageOperators: ['admin'],
  /** The audit log. */
  readAudit: ['admin'],
  /** Levels, goods, prices, zones, stock, on sale or off. */
  editCatalogue: ['admin', 'operations'],
  /** Common config, agreements, activities, the flash sale. */
  editSettings: ['admin', 'operations'],
  /** Freeze and unfreeze users. */
  freezeUsers: ['admin', 'operations', 'support'],
  /** Verify or reject company buyer requests. */
  verifyCompanies: ['admin', 'operations'],
  /** Refunds through the payment provider (finance only). */
  refundOrders: ['finance'],
  /** Orders and payments as CSV. */
  exportOrders: ['admin', 'finance'],
  /** Retry a failed provisioning, retry a failed or stuck job. */
  retryJobs: ['admin', 'operations', 'support'],
  /** Release a user's phone. */
  releasePhones: ['admin', 'operations'],
  /** Factory-reset a user's phone (重置: its apps and data erased). */
  resetPhones: ['admin', 'operations'],
  /** Coupon templates and issuing them. */
  manageCoupons: ['admin', 'operations'],
  /** Messages to one user or all. */
  sendMessages: ['admin', 'operations', 'support'],
} as const satisfies Record<string, readonly OperatorRole[]>

export type OperatorPermission = keyof typeof OPERATOR_PERMISSIONS

export const mayDo = (role: OperatorRole, permission: OperatorPermission): boolean =>
  (OPERATOR_PERMISSIONS[permission] as readonly OperatorRole[]).includes(role)

export const isOperatorRole = (value: string): value is OperatorRole =>
  (OPERATOR_ROLES as readonly string[]).includes(value)

/** Operator sign-in names: letters, digits, `.`, `_`, `-`; stored and compared in lower case. */
export const OPERATOR_NAME_PATTERN = '^[A-Za-z0-9][A-Za-z0-9._-]{0,31}$'
/**
 * A name as it is stored, looked up and counted: ASCII letters in lower case, nothing else changed
 * (String.toLowerCase would also fold other scripts, KELVIN SIGN to k).
 */
export const operatorNameKey = (name: string): string =>
  name.replace(/[A-Z]/g, (letter) => letter.toLowerCase())
export const OPERATOR_NAME_MAX = 32
/** The shortest operator password the server (and admin:create) accepts. */
export const OPERATOR_PASSWORD_MIN = 12
export const OPERATOR_PASSWORD_MAX = 128
export const OPERATOR_PASSWORD_WEAK = `密码至少${OPERATOR_PASSWORD_MIN}位`
