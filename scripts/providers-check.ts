/**
 * The go-live smoke check: `npm run providers:check`, before traffic (docs/deploy.md). With the real
 * credentials the server reads (the same environment file), it makes only read-only calls to each
 * configured provider and prints, per provider, whether it was reached, took our credentials and
 * signed what we verify, and what is missing; a provider on its sandbox is printed as such. Exits 1
 * when any configured provider fails.
 *
 * Each check lives in its adapter's folder; a provider is added here with one line.
 */
import { loadConfig, type ServerConfig } from '../server/src/config'
import { openCliDatabase } from './lib/cli-database'
import { checkAlipay } from '../server/src/adapters/payment/alipay/alipay-check'
import { checkWechatPay } from '../server/src/adapters/payment/wechatpay/wechatpay-check'
import {
  checkFailed,
  formatOutcome,
  runProviderChecks,
  type ProviderCheck,
} from '../server/src/adapters/provider-checks'
import { checkAliyunSms } from '../server/src/adapters/sms/aliyun-sms-check'
import { checkAcep } from '../server/src/adapters/supplier/acep'

/** ACEP's check reads the catalogue mapping and our pods: the server's database, opened for it alone. */
async function checkAcepWith(config: ServerConfig, env: NodeJS.ProcessEnv) {
  const database = await openCliDatabase(config)
  try {
    return await checkAcep(database.db, env)
  } finally {
    await database.close()
  }
}

const config = loadConfig(process.env)

const CHECKS: readonly ProviderCheck[] = [
  {
    provider: 'wechatpay',
    isReal: (c) => c.wechatpayProvider !== 'sandbox',
    run: (env) => checkWechatPay(env),
  },
  { provider: 'alipay', isReal: (c) => c.alipayProvider !== 'sandbox', run: checkAlipay },
  { provider: 'sms', isReal: (c) => c.smsProvider !== 'sandbox', run: checkAliyunSms },
  {
    provider: 'acep',
    isReal: (c) => c.supplierProvider !== 'sandbox',
    run: (env) => checkAcepWith(config, env),
  },
]

async function main() {
  const outcomes = await runProviderChecks(CHECKS, config, process.env)
  for (const outcome of outcomes) console.log(formatOutcome(outcome).join('\n'))
  const failed = outcomes.some((outcome) => !outcome.sandbox && checkFailed(outcome.result))
  process.exitCode = failed ? 1 : 0
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error)
  process.exitCode = 1
})
