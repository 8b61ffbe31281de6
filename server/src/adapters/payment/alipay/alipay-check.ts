/**
 * The go-live check of Alipay (`npm run providers:check`): with the configured app, read-only,
 * alipay.trade.query of an out_trade_no that cannot exist. Alipay answers 40004 ACQ.TRADE_NOT_EXIST,
 * signed with its key, which shows it is reachable, takes our app id and request signature (else 40002
 * isv.invalid-app-id / isv.invalid-signature) and that its answer verifies with ALIPAY_PUBLIC_KEY_FILE.
 */
import type { ProviderCheckResult } from '../../provider-check'
import { notReached } from '../../provider-checks'
import { alipayCredentialsFromEnv } from './alipay-credentials'
import { alipaySdk, requestTimestamp } from './alipay-provider'

/** The gateway's refusals of our app or its key (40002 and the isv.* that name them). */
const CREDENTIAL_SUB_CODES =
  /^isv\.(invalid-app-id|invalid-signature|invalid-signature-type|app-unavailable|insufficient-isv-permissions)/

export async function checkAlipay(env: NodeJS.ProcessEnv): Promise<ProviderCheckResult> {
  const result = notReached('alipay')
  const read = alipayCredentialsFromEnv(env)
  if (!read.ok) {
    result.missing.push(...read.problems)
    return result
  }
  const sdk = alipaySdk(read.credentials)
  const ask = (validateSign: boolean) =>
    sdk.exec(
      'alipay.trade.query',
      {
        bizContent: { out_trade_no: `CHECK${Date.now()}${Math.floor(Math.random() * 1e6)}` },
        timestamp: requestTimestamp(),
      },
      { validateSign },
    )
  // First what Alipay answers (or that it cannot be reached), then whether alipay-sdk verifies it.
  let answer: Awaited<ReturnType<typeof ask>>
  try {
    answer = await ask(false)
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code
    result.notes.push(`Alipay not reached: ${cause ?? (error as Error).message}`)
    return result
  }
  result.reachable = true
  try {
    await ask(true)
    result.signatureVerified = true
  } catch (error) {
    result.signatureVerified = false
    // alipay-sdk says 验签失败 for a wrong sign; one missing fails inside node:crypto.
    const message = (error as Error).message
    const why = message.includes('验签失败') ? message.slice(0, 160) : 'the answer carries no sign'
    result.notes.push(`answer signature: ${why}`)
  }
  const said =
    `${answer.code} ${answer.sub_code ?? ''} ${answer.sub_msg ?? answer.msg ?? ''}`.trim()
  if (answer.code === '40002' || CREDENTIAL_SUB_CODES.test(String(answer.sub_code ?? ''))) {
    result.credentialsAccepted = false
    result.notes.push(said)
    return result
  }
  result.credentialsAccepted = true
  if (answer.sub_code !== 'ACQ.TRADE_NOT_EXIST') {
    result.missing.push(`a query Alipay answers ACQ.TRADE_NOT_EXIST (it answered ${said})`)
  }
  return result
}
