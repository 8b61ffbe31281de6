import type { Db } from '../db/client'
import type { Services } from '../services'
import { expireDevicesJob } from './expire-devices'
import { provisionDeviceJob, syncDeviceJob } from './provision-device'
import { purgeExpiredJob } from './purge-expired'
import type { JobDefinition } from './scheduler'

/** Every job the server runs; add new ones here. */
export function jobDefinitions(db: Db, services: Services): JobDefinition[] {
  return [
    purgeExpiredJob(db, services),
    provisionDeviceJob(db, services),
    syncDeviceJob(db, services),
    expireDevicesJob(db, services),
  ]
}
