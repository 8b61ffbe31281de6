/** All API areas in one object: what the RootStore receives (tests pass fakes of the same shape). */
import { activationApi, type ActivationApi } from './activation'
import { activityApi, type ActivityApi } from './activity'
import { commonApi, type CommonApi } from './common'
import { deviceApi, type DeviceApi } from './device'
import { engagementApi, type EngagementApi } from './engagement'
import { goodsApi, type GoodsApi } from './goods'
import { groupApi, type GroupApi } from './group'
import { messageApi, type MessageApi } from './message'
import { orderApi, type OrderApi } from './order'
import { scanLoginApi, type ScanLoginApi } from './scan-login'
import { payApi, type PayApi } from './pay'
import { spaceApi, type SpaceApi } from './space'
import { userApi, type UserApi } from './user'
import { walletApi, type WalletApi } from './wallet'

export interface Api {
  user: UserApi
  message: MessageApi
  common: CommonApi
  device: DeviceApi
  group: GroupApi
  activation: ActivationApi
  goods: GoodsApi
  order: OrderApi
  pay: PayApi
  wallet: WalletApi
  engagement: EngagementApi
  space: SpaceApi
  scanLogin: ScanLoginApi
  activity: ActivityApi
}

export const api: Api = {
  user: userApi,
  message: messageApi,
  common: commonApi,
  device: deviceApi,
  group: groupApi,
  activation: activationApi,
  goods: goodsApi,
  order: orderApi,
  pay: payApi,
  wallet: walletApi,
  engagement: engagementApi,
  space: spaceApi,
  scanLogin: scanLoginApi,
  activity: activityApi,
}
