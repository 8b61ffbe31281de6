/**
 * The go-live check of WeChat Pay (`npm run providers:check`): with the configured merchant, read-only,
 * a query of an out_trade_no that cannot exist. WeChat Pay answers 404 ORDER_NOT_EXIST, signed (by the
 * public key or a platform certificate, downloaded first when the merchant verifies with them), which
 * shows it is reachable, takes our request signature (else 401 SIGN_ERROR, unsigned) and that we
 * verify what it signs.
 */
import { systemClock, type Clock } from '../../../clock'
import type { ProviderCheckResult } from '../../provider-check'
import { notReached } from '../../provider-checks'
import { WechatPayClient, type WechatPayAnswer } from './client'
import { wechatPayCredentialsFromEnv } from './credentials'

/** An out_trade_no no order of ours has (ours are made by order-insert.ts, never with CHECK). */
const probeTradeNo = () => `CHECK${Date.now()}${Math.floor(Math.random() * 1e6)}`

export async function checkWechatPay(
  env: NodeJS.ProcessEnv,
  clock: Clock = systemClock,
): Promise<ProviderCheckResult> {
  const result = notReached('wechatpay')
  const read = wechatPayCredentialsFromEnv(env)
  if (!read.ok) {
    result.missing.push(...read.problems)
    return result
  }
  const client = new WechatPayClient(read.credentials, clock)
  const path = `/v3/pay/transactions/out-trade-no/${probeTradeNo()}?mchid=${read.credentials.mchId}`
  let answer: WechatPayAnswer
  try {
    answer = await client.send('GET', path)
  } catch (error) {
    const cause = (error as { cause?: { code?: string } }).cause?.code
    result.notes.push(`WeChat Pay not reached: ${cause ?? (error as Error).message}`)
    return result
  }
  result.reachable = true
  const said = `HTTP ${answer.status} ${answer.code} ${answer.message}`.trim()
  if (answer.status === 401 || answer.status === 403) {
    result.credentialsAccepted = false
    result.notes.push(said)
    return result
  }
  result.credentialsAccepted = answer.status < 500
  result.signatureVerified = answer.signature === 'verified'
  if (answer.signature !== 'verified') result.notes.push(`answer signature: ${answer.why}`)
  if (answer.code !== 'ORDER_NOT_EXIST') {
    result.missing.push(`a query WeChat Pay answers 404 ORDER_NOT_EXIST (it answered ${said})`)
  }
  const certificates = client.certificates
  if (certificates) {
    result.notes.push(`platform certificates held: ${certificates.serials.join(', ') || 'none'}`)
    if (certificates.lastError) result.notes.push(`certificate download: ${certificates.lastError}`)
  }
  return result
}
