import { useState } from 'react'
import type { OrderInfo, Quote, QuoteKind } from '@/types/api'
import { useCoupons } from '@/components/CouponPicker/use-coupons'
import { toastError } from '@/runtime/feedback'
import { useIdempotencyKey } from '@/hooks/use-idempotency-key'
import { navigate } from '@/runtime/navigation'

/**
 * Buying one of a list of packages (beans, cloud space): the chosen package (the first until the
 * buyer picks), its price as a quote, the buyer's coupons against it, what is charged after one, and
 * opening the order (this visit's idempotency key, then pay/pay).
 */
export function usePackageCheckout<P extends { id: number; price: number }>(
  kind: Extract<QuoteKind, 'recharge' | 'cloudSpace'>,
  packages: readonly P[] | undefined,
) {
  const [pickedId, choose] = useState<number | null>(null)
  const [submitting, setSubmitting] = useState(false)
  const idempotency = useIdempotencyKey()
  const pack = packages?.find((p) => p.id === pickedId) ?? packages?.[0]
  const quote: Quote | null = pack
    ? { total: pack.price, originalAmount: pack.price, lines: [] }
    : null
  const coupons = useCoupons(pack ? { kind, packageId: pack.id } : null)

  /** Creates the order with this visit's idempotency key, then pays it on pay/pay; false if refused. */
  const openOrder = async (create: (idempotencyKey: string) => Promise<OrderInfo>) => {
    setSubmitting(true)
    try {
      const order = await create(idempotency.current())
      idempotency.renew()
      await navigate('pay', { orderNo: order.orderNo })
      return true
    } catch (error) {
      toastError(error)
      return false
    } finally {
      setSubmitting(false)
    }
  }

  return {
    pack,
    chosenId: pack?.id ?? null,
    choose,
    quote,
    coupons,
    charged: coupons.applyTo(quote),
    submitting,
    openOrder,
  }
}
