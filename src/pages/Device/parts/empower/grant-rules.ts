/** 授权管理 form rules (the server checks the same and has the last word). */
import { validateMobile } from '@/domain/validators'

export function checkGrantForm(input: {
  deviceCount: number
  mobilePhone: string
  ownMobile: string
}): string | null {
  if (input.deviceCount === 0) return '请选择要授权的云手机'
  const problem = validateMobile(input.mobilePhone)
  if (problem) return problem
  if (input.mobilePhone.trim() === input.ownMobile) return '不能授权给自己'
  return null
}
