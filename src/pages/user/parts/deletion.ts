import { validateSmsCode } from '@/domain/validators'

/** New-user benefits are once per person: the server keeps who took them past deletion. */
export const DELETION_BENEFITS_NOTICE =
  '新人福利（试用云机、新人优惠券、首购优惠）每人仅限一次：注销后用此手机号或微信重新注册，不会再次发放'

/** What deleting an account takes away; shown before the user can ask for it. */
export const DELETION_CONSEQUENCES = [
  '账号下的全部云手机将被立即释放，云手机内的应用和数据将被清除且不可恢复',
  '云豆余额、优惠券和激活码将被清空，且不予退还',
  '云空间中的备份数据将被永久删除',
  '实名认证、企业认证、消息记录等个人资料将被删除',
  '手机号将被释放，之后可重新注册为新账号，但无法找回原账号的任何数据',
  DELETION_BENEFITS_NOTICE,
  '已授权或转移给他人的云手机授权关系将被解除',
] as const

export const DELETION_AGREE_TEXT = '我已阅读并知晓注销后果'

/** Why the deletion request cannot be sent yet, or null. */
export function checkDeletionRequest(agreed: boolean, code: string): string | null {
  if (!agreed) return `请先勾选“${DELETION_AGREE_TEXT}”`
  return validateSmsCode(code)
}
