/** Activities and the seckill flash sale (docs/api.md "Activities"). */
import type {
  ActivityDetail,
  ActivitySummary,
  CreateSeckillOrderBody,
  OrderInfo,
} from '@/types/api'
import { client } from '@/runtime/request'
import type { RequestOptions } from '@/runtime/request-types'
import { purchaseOutcome } from './order'

/** Public: enabled activities not yet ended, running first. */
export const listActivities = async (options?: Pick<RequestOptions, 'loading'>) =>
  (await client.get<ActivitySummary[]>('/activity/list', undefined, options)).data

/** Public: rules, window and items; `bought` reflects the logged-in caller. */
export const getActivityDetail = async (id: number, options?: Pick<RequestOptions, 'loading'>) =>
  (await client.get<ActivityDetail>('/activity/detail', { id }, options)).data

/** One unit at the seckill price; refusals (已抢光, 每人限购1件 …) come back as an outcome. */
export const createSeckillOrder = async (body: CreateSeckillOrderBody) =>
  purchaseOutcome(
    await client.postOutcome<OrderInfo>('/order/createSeckillActivityOrder', body, {
      loading: '正在抢购',
    }),
  )

export const activityApi = { listActivities, getActivityDetail, createSeckillOrder }
export type ActivityApi = typeof activityApi
