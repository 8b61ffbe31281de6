/**
 * The console's pages and the permission each needs (src/domain/console/operator-roles.ts, the table the server
 * enforces too). The menu shows only the pages the operator's role may open. Pages arrive with their
 * server routes: there are no placeholders. The paths are paths.ts's, which the pages link by too.
 */
import type { ReactNode } from 'react'
import type { AdminSession } from '#console-contract'
import { mayDo, type OperatorPermission, type OperatorRole } from '#domain/console/operator-roles'
import { CONSOLE_PATHS } from './paths'
import AppsPage from './pages/AppsPage'
import AuditLogPage from './pages/AuditLogPage'
import AutoRenewPage from './pages/AutoRenewPage'
import CataloguePage from './pages/CataloguePage'
import CouponsPage from './pages/CouponsPage'
import DevicesPage from './pages/DevicesPage'
import JobsPage from './pages/JobsPage'
import MessagesPage from './pages/MessagesPage'
import OperatorsPage from './pages/OperatorsPage'
import OrdersPage from './pages/OrdersPage'
import OverviewPage from './pages/OverviewPage'
import SettingsPage from './pages/SettingsPage'
import UsersPage from './pages/UsersPage'

export interface ConsolePage {
  path: string
  name: string
  permission: OperatorPermission
  /** The page at `path`, or under it (`/admin/users/12`: the page reads the rest of the path). */
  render: (session: AdminSession) => ReactNode
}

/** The first page a role may open is where /admin lands after sign-in: 概览, which every role may. */
export const CONSOLE_PAGES: readonly ConsolePage[] = [
  {
    path: CONSOLE_PATHS.overview,
    name: '概览',
    permission: 'view',
    render: () => <OverviewPage />,
  },
  {
    path: CONSOLE_PATHS.users,
    name: '用户',
    permission: 'view',
    render: (session) => <UsersPage role={session.operator.role} />,
  },
  {
    path: CONSOLE_PATHS.orders,
    name: '订单与支付',
    permission: 'view',
    render: (session) => <OrdersPage role={session.operator.role} />,
  },
  {
    path: CONSOLE_PATHS.catalogue,
    name: '商品与价格',
    permission: 'view',
    render: (session) => <CataloguePage role={session.operator.role} />,
  },
  {
    path: CONSOLE_PATHS.apps,
    name: '应用库',
    permission: 'view',
    render: (session) => <AppsPage role={session.operator.role} />,
  },
  {
    path: CONSOLE_PATHS.devices,
    name: '云手机',
    permission: 'view',
    render: (session) => <DevicesPage role={session.operator.role} />,
  },
  {
    path: CONSOLE_PATHS.jobs,
    name: '任务',
    permission: 'view',
    render: (session) => <JobsPage role={session.operator.role} />,
  },
  {
    path: CONSOLE_PATHS.autoRenew,
    name: '自动续费',
    permission: 'view',
    render: () => <AutoRenewPage />,
  },
  {
    path: CONSOLE_PATHS.coupons,
    name: '优惠券',
    permission: 'view',
    render: (session) => <CouponsPage role={session.operator.role} />,
  },
  {
    path: CONSOLE_PATHS.messages,
    name: '消息',
    permission: 'view',
    render: (session) => <MessagesPage role={session.operator.role} />,
  },
  {
    path: CONSOLE_PATHS.settings,
    name: '设置',
    permission: 'view',
    render: (session) => <SettingsPage role={session.operator.role} />,
  },
  {
    path: CONSOLE_PATHS.operators,
    name: '操作员',
    permission: 'manageOperators',
    render: () => <OperatorsPage />,
  },
  {
    path: CONSOLE_PATHS.audit,
    name: '操作日志',
    permission: 'readAudit',
    render: () => <AuditLogPage />,
  },
]

/** Whether `pathname` is the page's own path or one under it. */
export const isPageOf = (page: ConsolePage, pathname: string) =>
  pathname === page.path || pathname.startsWith(`${page.path}/`)

export const pagesFor = (role: OperatorRole) =>
  CONSOLE_PAGES.filter((page) => mayDo(role, page.permission))
