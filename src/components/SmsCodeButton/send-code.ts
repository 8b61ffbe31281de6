import { validateMobile } from '@/domain/validators'
import { sendSmsCode, type SmsType } from '@/api/user'
import { toast, toastError } from '@/runtime/feedback'

/**
 * What every SmsCodeButton's onSend does: check the number, send the code, say what happened. Rejects
 * (after showing why) so the button does not start its countdown.
 */
export async function sendCodeWithFeedback(mobilePhone: string, type: SmsType): Promise<void> {
  const problem = validateMobile(mobilePhone)
  if (problem) {
    toast(problem)
    throw new Error(problem)
  }
  try {
    await sendSmsCode(mobilePhone, type)
    toast('验证码已发送')
  } catch (error) {
    toastError(error)
    throw error
  }
}
