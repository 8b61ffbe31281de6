import Taro from '@tarojs/taro'
import { TOAST_DURATION_MS } from '@/constants/limits'
import { ApiError } from './api-error'

/** Toasts last 2 s everywhere (SPEC 9). */
export function toast(title: string) {
  return Taro.showToast({ title, icon: 'none', duration: TOAST_DURATION_MS })
}

export function toastSuccess(title: string) {
  return Taro.showToast({ title, icon: 'success', duration: TOAST_DURATION_MS })
}

/** The message of whatever a call rejected with: an ApiError, a whole body, or an Error. */
export function errorMessage(error: unknown, fallback = '操作失败，请稍后重试'): string {
  if (error && typeof error === 'object' && 'msg' in error && typeof error.msg === 'string')
    return error.msg
  if (error instanceof Error && error.message) return error.message
  return fallback
}

/** Toasts the error's message, unless the request layer showed the refusal's dialog (1015, 1025, 1057). */
export function toastError(error: unknown, fallback?: string): ReturnType<typeof toast> {
  if (error instanceof ApiError && error.dialogShown) return Promise.resolve({ errMsg: 'dialog' })
  return toast(errorMessage(error, fallback))
}

export function confirm(title: string, content: string, confirmText = '确定'): Promise<boolean> {
  return ask({ title, content, confirmText })
}

/** $color-danger of styles/_tokens.scss: showModal takes a colour, not a class */
export const DESTRUCTIVE_COLOR = '#cb2634'

/**
 * A confirm whose action cannot be taken back (data erased, access lost, money or phones gone): its
 * button is red in both builds, never the theme's green.
 */
export function confirmDestructive(
  title: string,
  content: string,
  confirmText = '确定',
): Promise<boolean> {
  return ask({ title, content, confirmText, confirmColor: DESTRUCTIVE_COLOR })
}

async function ask(options: {
  title: string
  content: string
  confirmText: string
  confirmColor?: string
}): Promise<boolean> {
  const { confirm: ok } = await Taro.showModal({ ...options, cancelText: '取消' })
  return ok
}
