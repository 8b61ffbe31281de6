import {
  AccountChangeService,
  AccountRegistrationService,
  AccountService,
  ProfileService,
  ScanLoginService,
  SessionService,
  SmsService,
} from './accounts'
import { ActivationService, FulfilmentService, OrderService } from './orders'
import { ActivityService, EngagementService, MessageService } from './engagement'
import { BeanService, UserFluxService, WalletService } from './wallet'
import { CommonConfigService } from './config-service'
import type { ServiceContext } from './context'
import { CouponService } from './coupons'
import { CustomerServiceService } from './customer-service'
import { DeviceAuthService, TransferService, GrantService } from './sharing'
import { DeviceService, DeviceLifecycleService, GroupService, ScreenAccessService } from './devices'
import { FileService } from './file-service'
import { GoodsListService, GoodsService, ReferenceDataService } from './catalogue'
import {
  PaymentReconciliationService,
  PaymentService,
  PaymentSettlementService,
  RefundService,
} from './payments'
import { SpaceService } from './space'
import { UsageLogService } from './usage-log-service'

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
