import { AccountChanges } from './account-changes'
import { AccountRegistration } from './account-registration'
import { AccountService } from './account-service'
import { ActivationService } from './activation-service'
import { ActivityService } from './activity-service'
import { BeanService } from './bean-service'
import { CatalogService } from './catalog-service'
import type { ServiceContext } from './context'
import { CouponService } from './coupon-service'
import { CustomerServiceService } from './customer-service'
import { DeviceAuthService } from './device-auth-service'
import { DeviceService } from './device-service'
import { EngagementService } from './engagement-service'
import { FileService } from './file-service'
import { FleetService } from './fleet-service'
import { FulfilmentService } from './fulfilment-service'
import { GoodsList } from './goods-list'
import { GoodsService } from './goods-service'
import { GroupService } from './group-service'
import { TransferService } from './transfer-service'
import { GrantService } from './grant-service'
import { MessageService } from './message-service'
import { OrderService } from './order-service'
import { PaymentReconciliation } from './payment-reconciliation'
import { PaymentService } from './payment-service'
import { PaymentSettlement } from './payment-settlement'
import { ProfileService } from './profile-service'
import { RefundService } from './refund-service'
import { ReferenceData } from './reference-data'
import { ScanLoginService } from './scan-login-service'
import { ScreenAccess } from './screen-access'
import { SessionService } from './session-service'
import { SmsService } from './sms-service'
import { SpaceService } from './space-service'
import { UsageLogService } from './usage-log-service'
import { UserFluxService } from './user-flux'
import { WalletService } from './wallet-service'

export function createServices(ctx: ServiceContext) {
  const sms = new SmsService(ctx)
  const sessions = new SessionService(ctx)
  const messages = new MessageService(ctx)
  const accounts = new AccountService(ctx, sms, sessions, new AccountRegistration(ctx, messages))
  const catalog = new CatalogService(ctx)
  const reference = new ReferenceData(ctx)
  const goods = new GoodsService(reference)
  const fleet = new FleetService(ctx)
  const beans = new BeanService(ctx)
  const coupons = new CouponService(ctx)
  const orders = new OrderService(ctx, goods, fleet, coupons)
  const grants = new GrantService(ctx)
  const screens = new ScreenAccess(ctx, grants)
  const paymentSettlement = new PaymentSettlement(ctx, ctx.paymentProviders, orders)
  return {
    ctx,
    sms,
    sessions,
    messages,
    accounts,
    accountChanges: new AccountChanges(ctx, sms, sessions),
    profile: new ProfileService(ctx),
    flux: new UserFluxService(ctx),
    scanLogin: new ScanLoginService(ctx, accounts),
    catalog,
    reference,
    usageLogs: new UsageLogService(ctx),
    customerService: new CustomerServiceService(ctx, catalog),
    files: new FileService(ctx),
    goods,
    goodsList: new GoodsList(ctx, reference, goods),
    fleet,
    devices: new DeviceService(ctx, fleet, goods, grants, reference, screens),
    screens,
    grants,
    groups: new GroupService(ctx, fleet),
    transfers: new TransferService(ctx, sms, messages, grants),
    deviceAuth: new DeviceAuthService(ctx, grants),
    beans,
    coupons,
    orders,
    payments: new PaymentService(ctx, ctx.paymentProviders, orders, beans),
    paymentSettlement,
    paymentReconciliation: new PaymentReconciliation(ctx, ctx.paymentProviders, paymentSettlement),
    refunds: new RefundService(ctx, ctx.paymentProviders),
    fulfilment: new FulfilmentService(ctx, goods, fleet, messages, beans),
    activation: new ActivationService(ctx, goods, fleet, messages),
    engagement: new EngagementService(ctx, fleet, messages, goods),
    space: new SpaceService(ctx, orders),
    wallet: new WalletService(ctx, beans, orders, fleet),
    activities: new ActivityService(ctx, goods, orders),
  }
}

export type Services = ReturnType<typeof createServices>
