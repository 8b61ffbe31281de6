import { validatePassword } from '@/domain/validators'

export interface PasswordForm {
  /** absent when setting a first password */
  oldPassword?: string
  newPassword: string
  confirmPassword: string
}

/** What is wrong with a change/set-password form (SPEC 5 password rule), or null when it can be sent. */
export function checkPasswordForm(form: PasswordForm): string | null {
  if (form.oldPassword !== undefined && !form.oldPassword) return '请输入原密码'
  const weak = validatePassword(form.newPassword)
  if (weak) return form.newPassword ? weak : '请输入新密码'
  if (!form.confirmPassword) return '请再次输入新密码'
  if (form.confirmPassword !== form.newPassword) return '两次输入的密码不一致'
  if (form.oldPassword !== undefined && form.oldPassword === form.newPassword)
    return '新密码不能与原密码相同'
  return null
}
