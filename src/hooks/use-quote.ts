import { useEffect, useState } from 'react'
import type { Quote, QuoteBody } from '@/types/api'
import { getGoodPrice } from '@/api/goods'
import { errorMessage } from '@/runtime/feedback'

/** Wait this long after the last change before asking for a new quote. */
export const QUOTE_DEBOUNCE_MS = 300

/**
 * The server's quote for the current choice (null body: nothing to quote yet). Changes are debounced,
 * and an answer to an older choice never replaces the newer one.
 */
export function useQuote(body: QuoteBody | null) {
  const [quote, setQuote] = useState<Quote | null>(null)
  const [error, setError] = useState('')
  const [pending, setPending] = useState(false)
  const key = body ? JSON.stringify(body) : ''

  useEffect(() => {
    if (!key) {
      setQuote(null)
      setPending(false)
      return undefined
    }
    let current = true
    setPending(true)
    const timer = setTimeout(() => {
      getGoodPrice(JSON.parse(key) as QuoteBody)
        .then((result) => {
          if (!current) return
          setQuote(result)
          setError('')
        })
        .catch((e: unknown) => {
          if (!current) return
          setQuote(null)
          setError(errorMessage(e, '价格获取失败，请稍后重试'))
        })
        .finally(() => current && setPending(false))
    }, QUOTE_DEBOUNCE_MS)
    return () => {
      current = false
      clearTimeout(timer)
    }
  }, [key])

  return { quote, error, pending }
}
