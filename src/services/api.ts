/** All API areas in one object: what the RootStore receives (tests pass fakes of the same shape). */
import { commonApi, type CommonApi } from './common'
import { goodsApi, type GoodsApi } from './goods'
import { messageApi, type MessageApi } from './message'
import { orderApi, type OrderApi } from './order'
import { payApi, type PayApi } from './pay'
import { userApi, type UserApi } from './user'

export interface Api {
  user: UserApi
  message: MessageApi
  common: CommonApi
  goods: GoodsApi
  order: OrderApi
  pay: PayApi
}

export const api: Api = {
  user: userApi,
  message: messageApi,
  common: commonApi,
  goods: goodsApi,
  order: orderApi,
  pay: payApi,
}
