/**
 * The API areas the stores call: what the RootStore receives (tests pass fakes of the same shape).
 * Only these five: every API module listed here is in the mini-program's main package, so a page
 * imports the other API modules itself and they stay in that page's sub-package.
 */
import { commonApi, type CommonApi } from './common'
import { deviceApi, type DeviceApi } from './device'
import { groupApi, type GroupApi } from './group'
import { messageApi, type MessageApi } from './message'
import { userApi, type UserApi } from './user'

export interface Api {
  user: UserApi
  message: MessageApi
  common: CommonApi
  device: DeviceApi
  group: GroupApi
}

export const api: Api = {
  user: userApi,
  message: messageApi,
  common: commonApi,
  device: deviceApi,
  group: groupApi,
}
