import { AccountChanges } from './accounts/account-changes'
import { AccountRegistration } from './accounts/account-registration'
import { AccountService } from './accounts/account-service'
import { ActivationService } from './orders/activation-service'
import { ActivityService } from './engagement/activity-service'
import { BeanService } from './wallet/bean-service'
import { CatalogService } from './config-service'
import type { ServiceContext } from './context'
import { CouponService } from './coupons/coupon-service'
import { CustomerServiceService } from './customer-service'
import { DeviceAuthService } from './sharing/device-auth-service'
import { DeviceService } from './devices/device-service'
import { EngagementService } from './engagement/engagement-service'
import { FileService } from './file-service'
import { FleetService } from './devices/device-lifecycle'
import { FulfilmentService } from './orders/fulfilment-service'
import { GoodsList } from './catalogue/goods-list'
import { GoodsService } from './catalogue/goods-service'
import { GroupService } from './devices/group-service'
import { TransferService } from './sharing/transfer-service'
import { GrantService } from './sharing/grant-service'
import { MessageService } from './engagement/message-service'
import { OrderService } from './orders/order-service'
import { PaymentReconciliation } from './payments/payment-reconciliation'
import { PaymentService } from './payments/payment-service'
import { PaymentSettlement } from './payments/payment-settlement'
import { ProfileService } from './accounts/profile-service'
import { RefundService } from './payments/refund-service'
import { ReferenceData } from './catalogue/reference-data'
import { ScanLoginService } from './accounts/scan-login-service'
import { ScreenAccess } from './devices/screen-access'
import { SessionService } from './accounts/session-service'
import { SmsService } from './accounts/sms-service'
import { SpaceService } from './space/space-service'
import { UsageLogService } from './usage-log-service'
import { UserFluxService } from './wallet/user-flux'
import { WalletService } from './wallet/wallet-service'

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
