import { useEffect, useState } from 'react'

/** The current time, refreshed every `intervalMs` while `running`. */
export function useNow(intervalMs: number, running = true): number {
  const [now, setNow] = useState(Date.now())
  useEffect(() => {
    if (!running) return undefined
    setNow(Date.now())
    const id = setInterval(() => setNow(Date.now()), intervalMs)
    return () => clearInterval(id)
  }, [intervalMs, running])
  return now
}
