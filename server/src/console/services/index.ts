import type { Services } from '../../services'
import { AdminAppService } from './apps'
import { AdminAutoRenewService } from './auto-renew'
import { AdminCatalogueService } from './catalogue'
import { AdminCouponService } from './coupons'
import { AdminDeviceService } from './devices'
import { AdminMessageService } from './messages'
import { OperatorAccountService } from './operator-accounts'
import { OperatorAuditService } from './operator-audit'
import { OperatorSessionService } from './operator-sessions'
import { AdminOrderService } from './orders'
import { AdminOverviewService } from './overview'
import { AdminSettingsService } from './settings'
import { AdminUserService } from './users'

/**
 * The console's composition root: every console service, built on the user API's services (which know
 * nothing of the console). Each writes through the operator audit it is given.
 */
export function createConsoleServices(services: Services) {
  const { ctx } = services
  const audit = new OperatorAuditService(ctx)
  return {
    audit,
    operators: new OperatorAccountService(ctx, audit),
    sessions: new OperatorSessionService(ctx, audit),
    catalogue: new AdminCatalogueService(ctx, audit, services.reference),
    apps: new AdminAppService(ctx, audit, services.apps),
    users: new AdminUserService(ctx, audit, services.sessions),
    orders: new AdminOrderService(ctx, audit, services.goods, services.beans, services.messages),
    devices: new AdminDeviceService(
      ctx,
      audit,
      services.lifecycle,
      services.goods,
      services.messages,
    ),
    coupons: new AdminCouponService(ctx, audit),
    messages: new AdminMessageService(ctx, audit),
    overview: new AdminOverviewService(ctx),
    autoRenew: new AdminAutoRenewService(ctx),
    settings: new AdminSettingsService(ctx, audit, services.commonConfig),
  }
}

export type ConsoleServices = ReturnType<typeof createConsoleServices>
