import { autoRenewJob } from './auto-renew'
import type { Db } from '../db/client'
import { appInstallJob } from './app-install'
import type { Services } from '../services'
import { expireCouponsJob } from './expire-coupons'
import { expireDevicesJob } from './expire-devices'
import { fulfilOrderJob } from './fulfil-order'
import { provisionDeviceJob, syncDeviceJob } from './provision-device'
import { purgeExpiredJob } from './purge-expired'
import { reconcilePaymentsJob, sendRefundJob } from './reconcile-payments'
import type { JobDefinition } from './scheduler'
import { spaceTaskJob } from './space-tasks'
import { timeoutOrdersJob } from './timeout-orders'

/** Every job of the user API; the console adds its own (console/index.ts). */
export function jobDefinitions(db: Db, services: Services): JobDefinition[] {
  return [
    purgeExpiredJob(db, services),
    provisionDeviceJob(db, services),
    syncDeviceJob(db, services),
    expireDevicesJob(db, services),
    fulfilOrderJob(services),
    timeoutOrdersJob(services),
    reconcilePaymentsJob(services),
    sendRefundJob(services),
    expireCouponsJob(services),
    spaceTaskJob(services),
    autoRenewJob(services),
    appInstallJob(services),
  ]
}
