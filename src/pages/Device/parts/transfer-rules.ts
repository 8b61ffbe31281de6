/** Device/transfer rules of the page (the server checks the same and has the last word). */
import type { TransferRefusal } from '@/types/api'
import { validateMobile, validateSmsCode } from '@/domain/validators'

/** What is wrong with the form, or null when it may be sent. */
export function checkTransferForm(input: {
  deviceCount: number
  mobilePhone: string
  ownMobile: string
  smsCode: string
}): string | null {
  if (input.deviceCount === 0) return '请选择要转移的云手机'
  const mobileProblem = validateMobile(input.mobilePhone)
  if (mobileProblem) return mobileProblem
  if (input.mobilePhone.trim() === input.ownMobile) return '不能转移给自己'
  if (!input.smsCode.trim()) return '请输入验证码'
  return validateSmsCode(input.smsCode)
}

/** The phones a 1330 answer says cannot move (empty when the body has none). */
export function refusedPhones(body: { data?: unknown } | undefined): TransferRefusal['devices'] {
  const data = body?.data as Partial<TransferRefusal> | null | undefined
  return Array.isArray(data?.devices) ? data.devices : []
}
