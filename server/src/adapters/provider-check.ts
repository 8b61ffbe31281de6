/**
 * What the go-live smoke check (`npm run providers:check`) found of one real provider, from read-only
 * calls made with the configured credentials. Each provider's adapter folder has its own check
 * returning this; the script prints them side by side.
 */
export interface ProviderCheckResult {
  provider: 'wechatpay' | 'alipay' | 'acep' | 'sms'
  /** The provider answered at all (DNS, TLS, HTTP). */
  reachable: boolean
  /** The provider took our credentials; null when it was not reached. */
  credentialsAccepted: boolean | null
  /** Its answer's signature verified; null where the provider signs nothing or was not reached. */
  signatureVerified: boolean | null
  /** What is missing before traffic: variables, a sign name, a template, an unmapped goods or zone. */
  missing: string[]
  /** Anything else worth reading (the provider's own message on a refusal). */
  notes: string[]
}
