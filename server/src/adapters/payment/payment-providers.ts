import { PayMethod } from '#domain/order-status'
import { PaymentNotificationError, type PaymentProvider, type PayScene } from './payment-provider'

const PAY_SCENES: readonly PayScene[] = ['miniProgram', 'wechatBrowser', 'browser']

/** The pay methods a payment provider collects (3 beans and 4 account balance are our own ledgers). */
export const PROVIDER_PAY_METHODS: readonly number[] = [PayMethod.alipay, PayMethod.wechatPay]

/**
 * The payment providers running at once (say Alipay's and WeChat Pay's, or one of them and the
 * sandbox). A trade is opened with its pay method's provider, whose name the payment row keeps;
 * everything after (notifications, queries, closing, refunds) goes to the provider named on the row,
 * so one provider never settles another's trades.
 */
export class PaymentProviders {
  private readonly byMethod = new Map<number, PaymentProvider>()
  private readonly byName = new Map<string, PaymentProvider>()

  /** Each pay method collected by exactly one provider; names unique and fit for a URL path. */
  constructor(readonly all: readonly PaymentProvider[]) {
    for (const provider of all) {
      if (!/^[a-z][a-z0-9-]{0,31}$/.test(provider.name)) {
        throw new Error(`payment provider name "${provider.name}" is not a lower-case path segment`)
      }
      if (this.byName.has(provider.name)) {
        throw new Error(`two payment providers are named "${provider.name}"`)
      }
      this.byName.set(provider.name, provider)
      for (const method of provider.methods) {
        const other = this.byMethod.get(method)
        if (other) {
          throw new Error(`pay method ${method} has two providers: ${other.name}, ${provider.name}`)
        }
        this.byMethod.set(method, provider)
      }
    }
    const uncovered = PROVIDER_PAY_METHODS.filter((method) => !this.byMethod.has(method))
    if (uncovered.length > 0) throw new Error(`no payment provider for pay method ${uncovered}`)
  }

  /**
   * The given providers, and a sandbox (`sandbox(methods)`) for the pay methods none of them collects;
   * with none given, the sandbox collects both.
   */
  static withSandbox(
    given: readonly PaymentProvider[],
    sandbox: (methods: number[]) => PaymentProvider,
  ): PaymentProviders {
    const left = PROVIDER_PAY_METHODS.filter((m) => !given.some((p) => p.methods.includes(m)))
    return new PaymentProviders(left.length > 0 ? [...given, sandbox(left)] : given)
  }

  /** The provider that opens trades of this pay method (1 or 2). */
  forMethod(payMethod: number): PaymentProvider {
    const provider = this.byMethod.get(payMethod)
    if (!provider) throw new Error(`no payment provider for pay method ${payMethod}`)
    return provider
  }

  /** The scenes in which this pay method's provider needs the payer's openid (a WeChat code). */
  payerOpenIdScenes(payMethod: number): PayScene[] {
    const provider = this.forMethod(payMethod)
    return PAY_SCENES.filter((scene) => provider.needsPayerOpenId(payMethod, scene))
  }

  /** The provider of this name, or undefined (a notification for a provider not running here). */
  named(name: string): PaymentProvider | undefined {
    return this.byName.get(name)
  }

  /**
   * The provider a callback, a payment row or a refund row names, running here; a callback for one
   * that is not answers 404 (PaymentNotificationError), and a row of it waits (its jobs skip it).
   */
  running(name: string): PaymentProvider {
    const provider = this.byName.get(name)
    if (!provider) throw new PaymentNotificationError(404, '支付渠道不存在')
    return provider
  }

  get names(): string[] {
    return [...this.byName.keys()]
  }
}
