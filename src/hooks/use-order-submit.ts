import { useState } from 'react'
import type { OrderInfo } from '@/types/api'
import { navigate } from '@/runtime/navigation'
import type { Outcome } from '@/api/order'
import { errorMessage } from '@/runtime/feedback'
import { useIdempotencyKey } from './use-idempotency-key'
import { useSingleFlight } from './use-single-flight'

export interface OrderSubmitOptions {
  /** after a soft refusal (e.g. out of stock): refresh what the page shows */
  onRefused?: () => void
  /** default: open the pay page for the new order */
  onCreated?: (order: OrderInfo) => Promise<unknown> | void
}

const goPay = (order: OrderInfo) => navigate('pay', { orderNo: order.orderNo })

/**
 * Creating an order from a page: one at a time, with the page visit's idempotency key (a double tap or
 * a retry returns the same order), the refusal shown on the page, then on to payment.
 */
export function useOrderSubmit(options: OrderSubmitOptions = {}) {
  const idempotency = useIdempotencyKey()
  const flight = useSingleFlight()
  const [error, setError] = useState('')

  const submit = (create: (idempotencyKey: string) => Promise<Outcome<OrderInfo>>) =>
    flight.run(async () => {
      setError('')
      try {
        const outcome = await create(idempotency.current())
        if (!outcome.ok) {
          setError(outcome.msg)
          options.onRefused?.()
          return
        }
        idempotency.renew()
        await (options.onCreated ?? goPay)(outcome.data)
      } catch (e) {
        setError(errorMessage(e, '下单失败，请稍后重试'))
      }
    })

  return { submit, error, running: flight.running }
}
