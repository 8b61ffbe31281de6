import type { SmsAdapter, SmsMessage } from './sms-adapter'
import { SmsSendError } from './sms-adapter'

export interface SandboxSmsLogger {
  info(message: string): void
}

export interface SentSandboxSms extends SmsMessage {
  sentAt: number
}

/**
 * Behaves like a provider without sending anything: asynchronous, writes the code to the server log and
 * remembers the last code per number so tests and e2e can read it. Numbers ending in 0000 fail, which
 * lets tests exercise the provider-failure path.
 */
export class SandboxSmsAdapter implements SmsAdapter {
  readonly name = 'sandbox'
  readonly isSandbox = true
  private readonly lastByMobile = new Map<string, SentSandboxSms>()

  constructor(
    private readonly logger: SandboxSmsLogger,
    private readonly delayMs = 5,
    private readonly now: () => number = Date.now,
  ) {}

  async sendCode(message: SmsMessage): Promise<void> {
    await new Promise((resolve) => setTimeout(resolve, this.delayMs))
    if (message.mobilePhone.endsWith('0000')) {
      throw new SmsSendError('sandbox provider rejects numbers ending in 0000')
    }
    this.logger.info(`[sms-sandbox] ${message.mobilePhone} ${message.type} ${message.code}`)
    this.lastByMobile.set(message.mobilePhone, { ...message, sentAt: this.now() })
  }

  lastSent(mobilePhone: string): SentSandboxSms | null {
    return this.lastByMobile.get(mobilePhone) ?? null
  }
}
