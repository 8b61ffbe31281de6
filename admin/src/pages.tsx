/**
 * The console's pages and the permission each needs (src/domain/operator-roles.ts, the table the server
 * enforces too). The menu shows only the pages the operator's role may open. Pages arrive with their
 * server routes: there are no placeholders.
 */
import type { ReactNode } from 'react'
import { mayDo, type OperatorPermission, type OperatorRole } from '#domain/operator-roles'
import AuditLogPage from './pages/AuditLogPage'
import OperatorsPage from './pages/OperatorsPage'

export interface ConsolePage {
  path: string
  name: string
  permission: OperatorPermission
  render: () => ReactNode
}

export const CONSOLE_PAGES: readonly ConsolePage[] = [
  {
    path: '/admin/operators',
    name: '操作员',
    permission: 'manageOperators',
    render: () => <OperatorsPage />,
  },
  {
    path: '/admin/audit',
    name: '操作日志',
    permission: 'readAudit',
    render: () => <AuditLogPage />,
  },
]

export const pagesFor = (role: OperatorRole) =>
  CONSOLE_PAGES.filter((page) => mayDo(role, page.permission))
