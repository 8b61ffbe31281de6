import { useCallback, useRef } from 'react'

export function newIdempotencyKey(now = Date.now(), random = Math.random): string {
  return `${now.toString(36)}-${Math.floor(random() * 36 ** 8).toString(36)}`
}

/**
 * One key per page visit, sent with the order it creates: a repeated tap or a retry after a lost answer
 * gets the same order back from the server. `renew()` starts a new intent (after an order was made).
 */
export function useIdempotencyKey() {
  const key = useRef(newIdempotencyKey())
  const renew = useCallback(() => {
    key.current = newIdempotencyKey()
  }, [])
  return { current: () => key.current, renew }
}
