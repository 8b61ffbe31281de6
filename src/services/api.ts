/** All API areas in one object: what the RootStore receives (tests pass fakes of the same shape). */
import { commonApi, type CommonApi } from './common'
import { messageApi, type MessageApi } from './message'
import { userApi, type UserApi } from './user'

export interface Api {
  user: UserApi
  message: MessageApi
  common: CommonApi
}

export const api: Api = { user: userApi, message: messageApi, common: commonApi }
