/** Message center calls (docs/api.md "Messages"). */
import type {
  Message,
  MessageSettings,
  ReadMessagesBody,
  UnreadCount,
  UpdateMessageSettingsBody,
} from '@/types/api'
import { client } from '@/runtime/request'
import type { RequestOptions } from '@/runtime/request-types'

export const getUnreadCount = async (options?: Pick<RequestOptions, 'loading'>) =>
  (await client.get<UnreadCount>('/message/getUnreadCount', undefined, options)).data

/** Newest first; `type` 1..5 filters one category. */
export const listMessages = (page: number, type?: number, rows?: number) =>
  client.fetchPage<Message>({ url: '/message/list', page, rows, params: type ? { type } : {} })

export const readMessages = async (body: ReadMessagesBody) =>
  (await client.post<{ updated: number }>('/message/read', body, { loading: false })).data

export const getMessageSettings = async () =>
  (await client.get<MessageSettings>('/message/getSettings')).data

export const updateMessageSettings = async (body: UpdateMessageSettingsBody) =>
  (await client.post<MessageSettings | null>('/message/updateSettings', body)).data

export const messageApi = {
  getUnreadCount,
  listMessages,
  readMessages,
  getMessageSettings,
  updateMessageSettings,
}
export type MessageApi = typeof messageApi
