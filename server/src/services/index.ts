import { AccountChangeService } from './accounts/account-changes'
import { AccountRegistrationService } from './accounts/account-registration'
import { AccountService } from './accounts/account-service'
import { ActivationService } from './orders/activation-service'
import { ActivityService } from './engagement/activity-service'
import { BeanService } from './wallet/bean-service'
import { CommonConfigService } from './config-service'
import type { ServiceContext } from './context'
import { CouponService } from './coupons/coupon-service'
import { CustomerServiceService } from './customer-service'
import { DeviceAuthService } from './sharing/device-auth-service'
import { DeviceService } from './devices/device-service'
import { EngagementService } from './engagement/engagement-service'
import { FileService } from './file-service'
import { DeviceLifecycleService } from './devices/device-lifecycle'
import { FulfilmentService } from './orders/fulfilment-service'
import { GoodsListService } from './catalogue/goods-list'
import { GoodsService } from './catalogue/goods-service'
import { GroupService } from './devices/group-service'
import { TransferService } from './sharing/transfer-service'
import { GrantService } from './sharing/grant-service'
import { MessageService } from './engagement/message-service'
import { OrderService } from './orders/order-service'
import { PaymentReconciliationService } from './payments/payment-reconciliation'
import { PaymentService } from './payments/payment-service'
import { PaymentSettlementService } from './payments/payment-settlement'
import { ProfileService } from './accounts/profile-service'
import { RefundService } from './payments/refund-service'
import { ReferenceDataService } from './catalogue/reference-data'
import { ScanLoginService } from './accounts/scan-login-service'
import { ScreenAccessService } from './devices/screen-access'
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
  const accounts = new AccountService(
    ctx,
    sms,
    sessions,
    new AccountRegistrationService(ctx, messages),
  )
  const commonConfig = new CommonConfigService(ctx)
  const reference = new ReferenceDataService(ctx)
  const goods = new GoodsService(reference)
  const lifecycle = new DeviceLifecycleService(ctx)
  const beans = new BeanService(ctx)
  const coupons = new CouponService(ctx)
  const orders = new OrderService(ctx, goods, lifecycle, coupons)
  const grants = new GrantService(ctx)
  const screens = new ScreenAccessService(ctx, grants)
  const paymentSettlement = new PaymentSettlementService(ctx, ctx.paymentProviders, orders)
  return {
    ctx,
    sms,
    sessions,
    messages,
    accounts,
    accountChanges: new AccountChangeService(ctx, sms, sessions),
    profile: new ProfileService(ctx),
    flux: new UserFluxService(ctx),
    scanLogin: new ScanLoginService(ctx, accounts),
    commonConfig,
    reference,
    usageLogs: new UsageLogService(ctx),
    customerService: new CustomerServiceService(ctx, commonConfig),
    files: new FileService(ctx),
    goods,
    goodsList: new GoodsListService(ctx, reference, goods),
    lifecycle,
    devices: new DeviceService(ctx, lifecycle, goods, grants, reference, screens),
    screens,
    grants,
    groups: new GroupService(ctx, lifecycle),
    transfers: new TransferService(ctx, sms, messages, grants),
    deviceAuth: new DeviceAuthService(ctx, grants),
    beans,
    coupons,
    orders,
    payments: new PaymentService(ctx, ctx.paymentProviders, orders, beans),
    paymentSettlement,
    paymentReconciliation: new PaymentReconciliationService(
      ctx,
      ctx.paymentProviders,
      paymentSettlement,
    ),
    refunds: new RefundService(ctx, ctx.paymentProviders),
    fulfilment: new FulfilmentService(ctx, goods, lifecycle, messages, beans),
    activation: new ActivationService(ctx, goods, lifecycle, messages),
    engagement: new EngagementService(ctx, lifecycle, messages, goods),
    space: new SpaceService(ctx, orders),
    wallet: new WalletService(ctx, beans, orders, lifecycle),
    activities: new ActivityService(ctx, goods, orders),
  }
}

export type Services = ReturnType<typeof createServices>
