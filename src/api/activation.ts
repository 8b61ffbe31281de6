/** Activation codes (docs/cloud-phones.md "Calls": /activation/*). */
import type { ActivateBody, ActivateResult, MyCode } from '@/types/api'
import { client } from '@/runtime/request'

/** A new phone, or `renewDeviceId` extended by the code's duration; 1017 when its goods sold out. */
export const activateCode = (body: ActivateBody) =>
  client.postOutcome<ActivateResult>('/activation/activate', body)

/** Codes I bought, newest first, with their status. */
export const listMyCodes = (page: number, rows?: number) =>
  client.fetchPage<MyCode>({ url: '/activation/myCodes', page, rows })

export const activationApi = { activateCode, listMyCodes }
export type ActivationApi = typeof activationApi
