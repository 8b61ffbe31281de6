/**
 * The go-live smoke check: `npm run providers:check`, before traffic (docs/deploy.md). With the real
 * credentials the server reads (the same environment file), it makes only read-only calls to each
 * configured provider and prints, per provider, whether it was reached, took our credentials and
 * signed what we verify, and what is missing; a provider on its sandbox is printed as such. Exits 1
 * when any configured provider fails.
 *
 * Each check lives in its adapter's folder; a provider is added here with one line.
 */
import { loadConfig } from '../server/src/config'
import { checkAlipay } from '../server/src/adapters/payment/alipay/alipay-check'
import { checkWechatPay } from '../server/src/adapters/payment/wechatpay/wechatpay-check'
import {
  checkFailed,
  formatOutcome,
  runProviderChecks,
  type ProviderCheck,
} from '../server/src/adapters/provider-checks'
import { checkAliyunSms } from '../server/src/adapters/sms/aliyun-sms-check'

const CHECKS: readonly ProviderCheck[] = [
  {
    provider: 'wechatpay',
    isReal: (c) => c.wechatpayProvider !== 'sandbox',
    run: (env) => checkWechatPay(env),
  },
  { provider: 'alipay', isReal: (c) => c.alipayProvider !== 'sandbox', run: checkAlipay },
  { provider: 'sms', isReal: (c) => c.smsProvider !== 'sandbox', run: checkAliyunSms },
]

async function main() {
  const outcomes = await runProviderChecks(CHECKS, loadConfig(process.env), process.env)
  for (const outcome of outcomes) console.log(formatOutcome(outcome).join('\n'))
  const failed = outcomes.some((outcome) => !outcome.sandbox && checkFailed(outcome.result))
  process.exitCode = failed ? 1 : 0
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
