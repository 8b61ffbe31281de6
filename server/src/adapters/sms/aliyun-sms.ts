import { callPop, PopUnreachable, type PopCredentials } from './aliyun-pop'
import type { SmsAdapter, SmsMessage } from './sms-adapter'
import { SmsSendError } from './sms-adapter'

export interface AliyunSmsCredentials extends PopCredentials {
  signName: string
  templateCode: string
}

export const ALIYUN_SMS_DEFAULT_ENDPOINT = 'https://dysmsapi.aliyuncs.com/'

export function aliyunCredentialsFromEnv(env: NodeJS.ProcessEnv): AliyunSmsCredentials {
  const required = [
    'ALIYUN_SMS_ACCESS_KEY_ID',
    'ALIYUN_SMS_ACCESS_KEY_SECRET',
    'ALIYUN_SMS_SIGN_NAME',
    'ALIYUN_SMS_TEMPLATE_CODE',
  ]
  const missing = required.filter((name) => !env[name])
  if (missing.length > 0) throw new Error(`SMS_PROVIDER=aliyun needs ${missing.join(', ')}`)
  return {
    accessKeyId: env.ALIYUN_SMS_ACCESS_KEY_ID!,
    accessKeySecret: env.ALIYUN_SMS_ACCESS_KEY_SECRET!,
    signName: env.ALIYUN_SMS_SIGN_NAME!,
    templateCode: env.ALIYUN_SMS_TEMPLATE_CODE!,
    endpoint: env.ALIYUN_SMS_ENDPOINT || ALIYUN_SMS_DEFAULT_ENDPOINT,
  }
}

/** Aliyun Dysms SendSms over its POP RPC API (aliyun-pop.ts). */
export class AliyunSmsAdapter implements SmsAdapter {
  readonly name = 'aliyun'
  readonly isSandbox = false

  constructor(private readonly credentials: AliyunSmsCredentials) {}

  async sendCode({ mobilePhone, code }: SmsMessage): Promise<void> {
    let answer
    try {
      answer = await callPop(this.credentials, 'SendSms', {
        PhoneNumbers: mobilePhone,
        SignName: this.credentials.signName,
        TemplateCode: this.credentials.templateCode,
        TemplateParam: JSON.stringify({ code }),
      })
    } catch (error) {
      if (error instanceof PopUnreachable) throw new SmsSendError(error.message)
      throw error
    }
    const { Code, Message } = answer.body
    if (answer.status !== 200 || Code !== 'OK') {
      throw new SmsSendError(
        `aliyun refused: ${String(Code ?? answer.status)} ${String(Message ?? '')}`,
      )
    }
  }
}
