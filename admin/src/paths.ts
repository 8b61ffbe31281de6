/**
 * Where each console page lives: the page table (pages.tsx) and the pages' links to each other read
 * these, so a path is written once and the pages need not import the table that imports them.
 */
export const CONSOLE_ROOT = '/admin'

export const CONSOLE_PATHS = {
  overview: '/admin/overview',
  users: '/admin/users',
  orders: '/admin/orders',
  catalogue: '/admin/catalogue',
  apps: '/admin/apps',
  devices: '/admin/devices',
  jobs: '/admin/jobs',
  autoRenew: '/admin/auto-renew',
  coupons: '/admin/coupons',
  messages: '/admin/messages',
  settings: '/admin/settings',
  operators: '/admin/operators',
  audit: '/admin/audit',
} as const

/** 商品与价格's query naming the goods to open expanded (`?expand=3,5`), as 概览's 库存不足 links it. */
export const EXPAND_PARAM = 'expand'

/** 商品与价格 with these goods open (概览 links low stock here); without any, the page as it is. */
export const catalogueExpanding = (ids: readonly number[]) =>
  ids.length
    ? `${CONSOLE_PATHS.catalogue}?${EXPAND_PARAM}=${ids.join(',')}`
    : CONSOLE_PATHS.catalogue

/** The goods 商品与价格's URL names to open expanded. */
export const expandedFromUrl = () =>
  (new URLSearchParams(window.location.search).get(EXPAND_PARAM) ?? '')
    .split(',')
    .map(Number)
    .filter((id) => Number.isInteger(id) && id > 0)

/**
 * The record's id when `pathname` is a record's own page under `pagePath` (`/admin/users/12` → 12),
 * up to `maxDigits` digits; undefined for any other path.
 */
export function recordIdAt(
  pagePath: string,
  pathname: string,
  maxDigits: number,
): number | undefined {
  if (!pathname.startsWith(`${pagePath}/`)) return undefined
  const id = pathname.slice(pagePath.length + 1)
  return new RegExp(`^\\d{1,${maxDigits}}$`).test(id) ? Number(id) : undefined
}
