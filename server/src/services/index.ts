import {
  AccountChangeService,
  PersonBenefitService,
  AccountRegistrationService,
  AccountService,
  ProfileService,
  ScanLoginService,
  SessionService,
  SmsService,
} from './accounts'
import {
  ActivationService,
  FulfilmentService,
  OrderAtOnceWriter,
  OrderPricing,
  OrderReads,
  OrderService,
  OrderTransactionWriter,
} from './orders'
import { ActivityService, EngagementService, MessageService } from './engagement'
import { BeanService, UserFluxService, WalletService } from './wallet'
import { CommonConfigService } from './config-service'
import type { ServiceContext } from './context'
import { CouponService } from './coupons'
import { CustomerServiceService } from './customer-service'
import { DeviceAuthService, TransferService, GrantService } from './sharing'
import {
  DeviceAccessService,
  DeviceCommandService,
  DeviceLifecycleService,
  DeviceOperationService,
  DeviceService,
  GroupService,
  ScreenAccessService,
} from './devices'
import { AppInstallService, AppLibraryService } from './apps'
import { FileService } from './file-service'
import { GoodsListService, GoodsService, ReferenceDataService } from './catalogue'
import {
  PaymentReconciliationService,
  PaymentService,
  PaymentSettlementService,
  RefundService,
} from './payments'
import { SpaceBackupService, SpaceService, SpaceTaskService } from './space'
import { UsageLogService } from './usage-log-service'
import { AutoRenewRun, AutoRenewService } from './auto-renew'

export function createServices(ctx: ServiceContext) {
  const sms = new SmsService(ctx)
  const sessions = new SessionService(ctx)
  const messages = new MessageService(ctx)
  const benefits = new PersonBenefitService(ctx.settings.benefitPepper)
  const accounts = new AccountService(
    ctx,
    sms,
    sessions,
    new AccountRegistrationService(ctx, messages, benefits),
    benefits,
  )
  const commonConfig = new CommonConfigService(ctx)
  const reference = new ReferenceDataService(ctx)
  const goods = new GoodsService(reference)
  const lifecycle = new DeviceLifecycleService(ctx)
  const beans = new BeanService(ctx)
  const coupons = new CouponService(ctx)
  const orderReads = new OrderReads(ctx, goods)
  const orderPricing = new OrderPricing(ctx, goods, lifecycle)
  // One statement for a plain new-phone order, else the transaction (order-writer.ts).
  const orderWriter = new OrderAtOnceWriter(
    ctx,
    orderPricing,
    new OrderTransactionWriter(ctx, orderPricing, coupons, goods, lifecycle),
  )
  const orders = new OrderService(ctx, goods, orderPricing, orderWriter, orderReads)
  const grants = new GrantService(ctx)
  const screens = new ScreenAccessService(ctx, grants)
  const deviceAccess = new DeviceAccessService(ctx, grants)
  const paymentSettlement = new PaymentSettlementService(ctx, ctx.paymentProviders, orderReads)
  const payments = new PaymentService(ctx, ctx.paymentProviders, orderReads, beans)
  const fulfilment = new FulfilmentService(ctx, goods, lifecycle, messages, beans)
  const files = new FileService(ctx)
  const apps = new AppLibraryService(ctx, files)
  return {
    ctx,
    sms,
    sessions,
    messages,
    accounts,
    accountChanges: new AccountChangeService(ctx, sms, sessions, benefits),
    profile: new ProfileService(ctx),
    flux: new UserFluxService(ctx),
    scanLogin: new ScanLoginService(ctx, accounts),
    commonConfig,
    reference,
    usageLogs: new UsageLogService(ctx),
    customerService: new CustomerServiceService(ctx, commonConfig),
    files,
    apps,
    appInstalls: new AppInstallService(ctx, apps, deviceAccess, files),
    goods,
    goodsList: new GoodsListService(ctx, reference, goods),
    lifecycle,
    devices: new DeviceService(
      ctx,
      deviceAccess,
      new DeviceCommandService(ctx, lifecycle, deviceAccess, screens),
      new DeviceOperationService(ctx, lifecycle, goods, deviceAccess),
      reference,
      screens,
    ),
    screens,
    grants,
    groups: new GroupService(ctx, lifecycle),
    transfers: new TransferService(ctx, sms, messages, grants),
    deviceAuth: new DeviceAuthService(ctx, grants),
    beans,
    coupons,
    orders,
    orderReads,
    payments,
    paymentSettlement,
    paymentReconciliation: new PaymentReconciliationService(
      ctx,
      ctx.paymentProviders,
      paymentSettlement,
    ),
    refunds: new RefundService(ctx, ctx.paymentProviders),
    fulfilment,
    autoRenew: new AutoRenewService(ctx, lifecycle, goods),
    autoRenewRun: new AutoRenewRun(
      ctx,
      orders,
      orderReads,
      payments,
      fulfilment,
      beans,
      goods,
      messages,
    ),
    activation: new ActivationService(ctx, goods, lifecycle, messages),
    engagement: new EngagementService(ctx, lifecycle, messages, goods, benefits),
    space: new SpaceService(ctx, orders, new SpaceBackupService(ctx), new SpaceTaskService(ctx)),
    wallet: new WalletService(ctx, beans, orders, lifecycle),
    activities: new ActivityService(ctx, orders),
  }
}

export type Services = ReturnType<typeof createServices>
