import { useEffect, useMemo, useState } from 'react'

/**
 * "Now" by the server's clock, re-rendering every second: the server time of the last answer plus
 * the time passed on this phone since, so a wrong phone clock cannot open a sale early.
 */
export function useServerClock(serverTime: number | null): number {
  const [, setTick] = useState(0)
  const anchor = useMemo(
    () => (serverTime === null ? null : { serverTime, local: Date.now() }),
    [serverTime],
  )
  useEffect(() => {
    if (!anchor) return undefined
    const timer = setInterval(() => setTick((n) => n + 1), 1000)
    return () => clearInterval(timer)
  }, [anchor])
  return anchor ? anchor.serverTime + (Date.now() - anchor.local) : Date.now()
}
