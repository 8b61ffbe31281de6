/**
 * The go-live check of Aliyun SMS (`npm run providers:check`): with the configured AccessKey, read-only,
 * that the account has the sign name and the template and both are approved (GetSmsSign,
 * GetSmsTemplate, which replace the retired QuerySmsSign / QuerySmsTemplate). Aliyun signs no answer,
 * so signatureVerified is null.
 */
import type { ProviderCheckResult } from '../provider-check'
import { notReached } from '../provider-checks'
import { callPop, PopUnreachable, type PopAnswer } from './aliyun-pop'
import { aliyunCredentialsFromEnv, type AliyunSmsCredentials } from './aliyun-sms'

/** POP's refusals of the AccessKey itself (its id unknown, the secret wrong, the key disabled). */
const CREDENTIAL_CODES =
  /^(InvalidAccessKeyId|SignatureDoesNotMatch|Forbidden|InvalidAccessKeySecret)/

/** SignStatus / TemplateStatus: 1 is approved; the others, as the SDK's models word them. */
const STATUS_WORDS: Record<string, string> = {
  '0': '审核中',
  '2': '审核失败',
  '10': '取消审核',
}

export async function checkAliyunSms(env: NodeJS.ProcessEnv): Promise<ProviderCheckResult> {
  const result = notReached('sms')
  let credentials: AliyunSmsCredentials
  try {
    credentials = aliyunCredentialsFromEnv(env)
  } catch (error) {
    result.missing.push((error as Error).message)
    return result
  }
  const asks: [string, string, string, string][] = [
    ['GetSmsSign', 'SignName', credentials.signName, 'SignStatus'],
    ['GetSmsTemplate', 'TemplateCode', credentials.templateCode, 'TemplateStatus'],
  ]
  for (const [action, field, value, statusField] of asks) {
    let answer: PopAnswer
    try {
      answer = await callPop(credentials, action, { [field]: value })
    } catch (error) {
      if (!(error instanceof PopUnreachable)) throw error
      result.notes.push(error.message)
      return result
    }
    result.reachable = true
    const code = String(answer.body.Code ?? answer.status)
    const message = String(answer.body.Message ?? '')
    const variable = field === 'SignName' ? 'ALIYUN_SMS_SIGN_NAME' : 'ALIYUN_SMS_TEMPLATE_CODE'
    if (CREDENTIAL_CODES.test(code)) {
      result.credentialsAccepted = false
      result.notes.push(`${action}: ${code} ${message}`)
      return result
    }
    result.credentialsAccepted = true
    if (code !== 'OK') {
      result.missing.push(`${variable} ${value}: not on the account (${code} ${message})`)
      continue
    }
    const status = String(answer.body[statusField])
    if (status !== '1') {
      result.missing.push(
        `${variable} ${value}: not approved (${statusField} ${status} ${STATUS_WORDS[status] ?? ''})`.trim(),
      )
    }
  }
  return result
}
