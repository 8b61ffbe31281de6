/** What of the user's is in flux (docs/cloud-phones.md, "Screens follow the server"). */
import type { UserFlux } from '@/types/api'
import { client } from '@/runtime/request'

/** Asked quietly, without the 加载中 overlay: a page following the server asks every few seconds. */
export const getFlux = async () =>
  (await client.get<UserFlux>('/user/flux', undefined, { loading: false })).data
