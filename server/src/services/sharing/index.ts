/** What the layers above (routes, jobs, the console, the composition root) use of sharing/. */
export { ControlRefusal, DeviceAuthService } from './device-auth-service'
export type { ControlSession } from './device-auth-service'
export { GrantService } from './grant-service'
export { TransferService } from './transfer-service'
