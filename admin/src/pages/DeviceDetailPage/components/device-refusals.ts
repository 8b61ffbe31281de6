/** What 重新创建, 重置 and 释放 do to the user, in their dialogs' words, and their refusals. */
import { OperatorCode } from '#domain/result-codes'
import { ApiError } from '../../../api'

/** The release dialog names what it does to the user. */
export const RELEASE_CONSEQUENCE = '云手机将被释放，数据无法恢复，用户不会自动获得退款。'
export const RETRY_CONSEQUENCE = '将向供应商重新创建云手机，到期时间不变；创建完成后用户即可使用。'
/** The reset dialog names what it does to the user's phone. */
export const RESET_CONSEQUENCE =
  '所有应用和数据将被清除，无法恢复。云手机将重启，完成后恢复运行，到期时间不变；用户会收到消息通知。'

/** Each refusal of 重置, in the console's words (the server's own message for anything else). */
export const RESET_REFUSALS: Partial<Record<number, string>> = {
  [OperatorCode.FORBIDDEN]: '无权重置云手机',
  [OperatorCode.DEVICE_NOT_FOUND]: '云手机不存在',
  [OperatorCode.DEVICE_RELEASED]: '该云手机已释放，不能重置',
  [OperatorCode.DEVICE_NOT_RESETTABLE]:
    '云手机不在运行中，或正在重启、备份、恢复、更换地区、更换云机、系统更新，请待其完成后再重置',
  [OperatorCode.DEVICE_RESET_REFUSED]: '云手机服务商未接受重置，云手机未做任何改变，请稍后重试',
}

/** A refusal in the console's words where it has them, else the server's (which names an open order). */
export const refusal = (error: unknown, words: Partial<Record<number, string>> = {}) =>
  error instanceof ApiError
    ? (words[error.code] ?? error.message)
    : error instanceof Error
      ? error.message
      : String(error)
