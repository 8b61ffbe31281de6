/**
 * How 设置's edits are saved: a refusal in the operator's words, the options every edit's mutation
 * shares, and each 保存's check before sending.
 */
import { OperatorCode } from '#domain/result-codes'
import { ApiError } from '../../../api'

/**
 * What each refusal of the settings routes means to the operator (the server's message is shown as it
 * is for 4095, which names the rule broken). 4001 returns to sign-in (App); 4003 cannot happen for a
 * role the page lets edit, but is named in case the role changed meanwhile.
 */
export function settingsRefusal(error: unknown): string {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error)
  switch (error.code) {
    case OperatorCode.SETTINGS_INVALID:
      return error.message || '设置不符合规则'
    case OperatorCode.SETTINGS_CHANGED:
      return '该设置已被其他操作员修改或已不存在，已重新读取，请核对后再改'
    case OperatorCode.FORBIDDEN:
      return '你的角色没有修改设置的权限'
    case OperatorCode.CSRF_REFUSED:
      return '页面已过期，请刷新后重试'
    default:
      return error.message
  }
}

export interface MutationOptions {
  meta: { inlineError: true }
  onSuccess: () => void
  onError: (error: unknown) => void
}

/**
 * An edit's 保存: what the rules refuse (`broken`) shows without sending; otherwise the edit is sent and a
 * refusal shows. Resolves to whether the form is done (a dialog closes).
 */
export async function saveChecked<E>(
  edit: E,
  broken: string | null,
  save: (edit: E) => Promise<unknown>,
  showWhy: (why: string) => void,
): Promise<boolean> {
  if (broken) {
    showWhy(broken)
    return false
  }
  try {
    await save(edit)
    return true
  } catch (error) {
    showWhy(settingsRefusal(error))
    return false
  }
}
