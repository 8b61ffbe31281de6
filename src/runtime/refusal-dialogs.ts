/**
 * The refusals SPEC 8 names that a toast cannot settle: the user has to go somewhere (recharge) or be
 * told plainly the account is frozen. The request layer shows them for any call that receives the code
 * (RequestUi.refusalDialog), so no page can forget one; pages then skip their own toast (toastError).
 */
import Taro from '@tarojs/taro'
import type { RouteName } from '@/constants/routes'
import { ResultCode, resultMessages } from '@/domain/result-codes'
import { navigate } from './navigation'

export interface RefusalDialog {
  title: string
  /** what to add to the server's message */
  hint: string
  /** the button that leads on, and the other one's text (取消 by default); without it the dialog only informs */
  action?: { text: string; route: RouteName; dismissText?: string }
}

export const REFUSAL_DIALOGS: Readonly<Record<number, RefusalDialog>> = {
  [ResultCode.CLOUD_BEANS_INSUFFICIENT]: {
    title: resultMessages[ResultCode.CLOUD_BEANS_INSUFFICIENT],
    hint: '充值云豆后即可继续',
    action: {
      text: '去充值',
      route: 'recharge',
    },
  },
  [ResultCode.INSUFFICIENT_ACCOUNT_BALANCE]: {
    title: resultMessages[ResultCode.INSUFFICIENT_ACCOUNT_BALANCE],
    hint: '充值企业账户余额或更换支付方式后再试',
    action: {
      text: '去充值',
      route: 'recharge',
    },
  },
  [ResultCode.ACCOUNT_HAS_BEEN_FROZEN]: {
    title: resultMessages[ResultCode.ACCOUNT_HAS_BEEN_FROZEN],
    hint: '如有疑问请联系客服',
    action: {
      text: '联系客服',
      route: 'customerService',
      dismissText: '知道了',
    },
  },
}

export const hasRefusalDialog = (code: number) => REFUSAL_DIALOGS[code] !== undefined

const open = new Set<number>()

/**
 * Shows the code's dialog with the server's message; one at a time per code (a page's calls refused
 * together show it once).
 */
export async function showRefusalDialog(code: number, msg: string): Promise<void> {
  const dialog = REFUSAL_DIALOGS[code]
  if (!dialog || open.has(code)) return
  open.add(code)
  try {
    const content = msg && msg !== dialog.title ? `${msg}，${dialog.hint}` : dialog.hint
    const { confirm } = await Taro.showModal({
      title: dialog.title,
      content,
      showCancel: Boolean(dialog.action),
      cancelText: dialog.action?.dismissText ?? '取消',
      confirmText: dialog.action?.text ?? '知道了',
    })
    if (confirm && dialog.action) await navigate(dialog.action.route)
  } catch (error) {
    console.warn('[refusal dialog]', code, error)
  } finally {
    open.delete(code)
  }
}
