/** What the layers above (routes, jobs, the console, the composition root) use of devices/. */
export { DeviceAccessService } from './device-access'
export { DeviceCommandService } from './device-commands'
export { DeviceLifecycleService, PROVISION_JOB, SYNC_JOB } from './device-lifecycle'
export { DeviceOperationService } from './device-operations'
export { DeviceService } from './device-service'
export { GroupService } from './group-service'
export { ScreenAccessService } from './screen-access'
