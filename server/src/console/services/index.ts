import type { Services } from '../../services'
import { AdminCatalogueService } from './catalogue'
import { AdminCoupons } from './coupons'
import { AdminDevices } from './devices'
import { AdminMessages } from './messages'
import { OperatorAccounts } from './operator-accounts'
import { OperatorAudit } from './operator-audit'
import { OperatorSessions } from './operator-sessions'
import { AdminOrders } from './orders'
import { AdminOverviewService } from './overview'
import { AdminSettingsService } from './settings'
import { AdminUsers } from './users'

/**
 * The console's composition root: every console service, built on the user API's services (which know
 * nothing of the console). Each writes through the operator audit it is given.
 */
export function createConsoleServices(services: Services) {
  const { ctx } = services
  const audit = new OperatorAudit(ctx)
  return {
    audit,
    operators: new OperatorAccounts(ctx, audit),
    sessions: new OperatorSessions(ctx, audit),
    catalogue: new AdminCatalogueService(ctx, audit, services.reference),
    users: new AdminUsers(ctx, audit, services.sessions),
    orders: new AdminOrders(ctx, audit, services.goods, services.beans, services.messages),
    devices: new AdminDevices(ctx, audit, services.fleet, services.goods, services.messages),
    coupons: new AdminCoupons(ctx, audit),
    messages: new AdminMessages(ctx, audit),
    overview: new AdminOverviewService(ctx),
    settings: new AdminSettingsService(ctx, audit, services.catalog),
  }
}

export type ConsoleServices = ReturnType<typeof createConsoleServices>
