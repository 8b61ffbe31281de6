import { createHmac, randomUUID } from 'node:crypto'
import type { SmsAdapter, SmsMessage } from './sms-adapter'
import { SmsSendError } from './sms-adapter'

export interface AliyunSmsCredentials {
  accessKeyId: string
  accessKeySecret: string
  signName: string
  templateCode: string
  endpoint: string
}

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
    endpoint: env.ALIYUN_SMS_ENDPOINT || 'https://dysmsapi.aliyuncs.com/',
  }
}

const percentEncode = (value: string) =>
  encodeURIComponent(value).replace(/\+/g, '%20').replace(/\*/g, '%2A').replace(/%7E/g, '~')

/** Aliyun Dysms SendSms over its RPC API (signature version 1.0). Not exercised by the test suite. */
export class AliyunSmsAdapter implements SmsAdapter {
  readonly name = 'aliyun'
  readonly isSandbox = false

  constructor(private readonly credentials: AliyunSmsCredentials) {}

  async sendCode({ mobilePhone, code }: SmsMessage): Promise<void> {
    const params: Record<string, string> = {
      AccessKeyId: this.credentials.accessKeyId,
      Action: 'SendSms',
      Format: 'JSON',
      PhoneNumbers: mobilePhone,
      RegionId: 'cn-hangzhou',
      SignName: this.credentials.signName,
      SignatureMethod: 'HMAC-SHA1',
      SignatureNonce: randomUUID(),
      SignatureVersion: '1.0',
      TemplateCode: this.credentials.templateCode,
      TemplateParam: JSON.stringify({ code }),
      Timestamp: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
      Version: '2017-05-25',
    }
    const canonical = Object.keys(params)
      .sort()
      .map((key) => `${percentEncode(key)}=${percentEncode(params[key])}`)
      .join('&')
    const signature = createHmac('sha1', `${this.credentials.accessKeySecret}&`)
      .update(`GET&${percentEncode('/')}&${percentEncode(canonical)}`)
      .digest('base64')
    const url = `${this.credentials.endpoint}?Signature=${percentEncode(signature)}&${canonical}`
    const response = await fetch(url, { signal: AbortSignal.timeout(10_000) }).catch(
      (error: Error) => {
        throw new SmsSendError(`aliyun request failed: ${error.message}`)
      },
    )
    const body = (await response.json().catch(() => ({}))) as { Code?: string; Message?: string }
    if (!response.ok || body.Code !== 'OK') {
      throw new SmsSendError(
        `aliyun refused: ${body.Code ?? response.status} ${body.Message ?? ''}`,
      )
    }
  }
}
