export interface SmsMessage {
  mobilePhone: string
  type: string
  code: string
}

/** Sends a verification code. Rejects with SmsSendError when the provider refuses or fails. */
export interface SmsAdapter {
  readonly name: string
  readonly isSandbox: boolean
  sendCode(message: SmsMessage): Promise<void>
}

export class SmsSendError extends Error {
  constructor(message: string) {
    super(message)
    this.name = 'SmsSendError'
  }
}
