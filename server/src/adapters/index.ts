import {
  productionProblems,
  refusalMessage,
  type AlipayProviderName,
  type ServerConfig,
  type WechatPayProviderName,
} from '../config'
import { systemClock } from '../clock'
import { alipayCredentialsFromEnv } from './payment/alipay/alipay-credentials'
import { AlipayProvider } from './payment/alipay/alipay-provider'
import type { PaymentProvider } from './payment/payment-provider'
import { wechatPayCredentialsFromEnv } from './payment/wechatpay/credentials'
import { WechatPayProvider } from './payment/wechatpay/wechatpay-provider'
import { AliyunSmsAdapter, aliyunCredentialsFromEnv } from './sms/aliyun-sms'
import { acepCredentialsFromEnv, type AcepCredentials } from './supplier/acep/credentials'
import type { SmsAdapter } from './sms/sms-adapter'
import { RealWechatAdapter, wechatCredentialsFromEnv } from './wechat/real-wechat'
import type { WechatAdapter } from './wechat/wechat-adapter'

/** What a real adapter's `xxxCredentialsFromEnv(env)` answers: its credentials, or every problem. */
export type CredentialsResult<C> = { ok: true; credentials: C } | { ok: false; problems: string[] }

/** A real payment provider as the environment makes it: the provider, or what is missing for it. */
type PaymentPlug = (env: NodeJS.ProcessEnv) => PaymentProvider | { problems: string[] }

/** Reads the credentials, then builds the provider from them. */
export function paymentPlug<C>(
  read: (env: NodeJS.ProcessEnv) => CredentialsResult<C>,
  build: (credentials: C) => PaymentProvider,
): PaymentPlug {
  return (env) => {
    const result = read(env)
    return result.ok ? build(result.credentials) : { problems: result.problems }
  }
}

/**
 * The real payment providers, by the ALIPAY_PROVIDER / WECHATPAY_PROVIDER value that turns each on.
 * Each adapter folder plugs in here with one line, e.g.
 *   wechatpay: paymentPlug(wechatPayCredentialsFromEnv, (c) => new WechatPayProvider(c, systemClock)),
 */
const REAL_PAYMENT_PROVIDERS: Record<
  Exclude<AlipayProviderName | WechatPayProviderName, 'sandbox'>,
  PaymentPlug
> = {
  alipay: paymentPlug(alipayCredentialsFromEnv, (c) => new AlipayProvider(c)),
  wechatpay: paymentPlug(wechatPayCredentialsFromEnv, (c) => new WechatPayProvider(c, systemClock)),
}

/** Runs a credentials reader that throws its problem (SMS, WeChat login) and keeps the message. */
function collect<T>(problems: string[], read: () => T): T | undefined {
  try {
    return read()
  } catch (error) {
    problems.push(error instanceof Error ? error.message : String(error))
    return undefined
  }
}

/**
 * Real adapters chosen by SMS_PROVIDER / WECHAT_PROVIDER / ALIPAY_PROVIDER / WECHATPAY_PROVIDER /
 * SUPPLIER_PROVIDER; `undefined` (or a pay method no real provider collects; `acep`: null) means the
 * sandbox one, which buildApp creates. Nothing starts until the configuration is whole: production's own checks and every
 * adapter's missing keys, certificates and URLs are refused in one message.
 */
export function realAdapters(config: ServerConfig, env: NodeJS.ProcessEnv = process.env) {
  const problems = productionProblems(config)
  const sms: SmsAdapter | undefined =
    config.smsProvider === 'aliyun'
      ? collect(problems, () => new AliyunSmsAdapter(aliyunCredentialsFromEnv(env)))
      : undefined
  const wechat: WechatAdapter | undefined =
    config.wechatProvider === 'wechat'
      ? collect(problems, () => new RealWechatAdapter(wechatCredentialsFromEnv(env)))
      : undefined
  const payments: PaymentProvider[] = []
  for (const name of [config.alipayProvider, config.wechatpayProvider]) {
    if (name === 'sandbox') continue
    const made = collect(problems, () => REAL_PAYMENT_PROVIDERS[name](env))
    if (made && 'problems' in made) problems.push(...made.problems)
    else if (made) payments.push(made)
  }
  // ACEP needs the database, so main.ts makes it (createAcepSupplier) once the database is open.
  let acep: { credentials: AcepCredentials; imageId: string; publicBase: string } | null = null
  if (config.supplierProvider === 'acep') {
    const result = acepCredentialsFromEnv(env)
    // ACEP fetches app uploads from our origin (acep-apps.ts).
    if (result.ok) {
      acep = {
        credentials: result.credentials,
        imageId: env.ACEP_IMAGE_ID || '',
        publicBase: config.publicBaseUrl ?? '',
      }
    } else problems.push(...result.problems)
  }
  if (problems.length > 0) throw new Error(refusalMessage(config, [...new Set(problems)]))
  // the sandbox supplier and payment provider are made by buildApp from the config (their books are ours)
  return { sms, wechat, payments, acep }
}
