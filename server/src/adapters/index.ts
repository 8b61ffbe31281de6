import { assertProductionSafe, type ServerConfig } from '../config'
import { AliyunSmsAdapter, aliyunCredentialsFromEnv } from './sms/aliyun-sms'
import type { SmsAdapter } from './sms/sms-adapter'
import { RealWechatAdapter, wechatCredentialsFromEnv } from './wechat/real-wechat'
import type { WechatAdapter } from './wechat/wechat-adapter'

/**
 * Real adapters chosen by SMS_PROVIDER / WECHAT_PROVIDER; `undefined` means the sandbox one, which
 * buildApp creates with the app's logger. In production each sandbox must have been allowed on its own.
 */
export function realAdapters(config: ServerConfig, env: NodeJS.ProcessEnv = process.env) {
  assertProductionSafe(config)
  const sms: SmsAdapter | undefined =
    config.smsProvider === 'aliyun'
      ? new AliyunSmsAdapter(aliyunCredentialsFromEnv(env))
      : undefined
  const wechat: WechatAdapter | undefined =
    config.wechatProvider === 'wechat'
      ? new RealWechatAdapter(wechatCredentialsFromEnv(env))
      : undefined
  // Only the sandbox supplier exists so far; these are its settings.
  const sandboxSupplier = {
    delayMs: config.sandboxSupplierDelayMs,
    failureRate: config.sandboxSupplierFailureRate,
  }
  // Only the sandbox payment provider exists so far; buildApp makes it (its books are in our database).
  const sandboxPayment = { secret: config.sandboxPaySecret, delayMs: config.sandboxPayDelayMs }
  return { sms, wechat, sandboxSupplier, sandboxPayment }
}
