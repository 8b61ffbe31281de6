import { useCallback, useRef, useState } from 'react'

/** Runs one submission at a time: a second tap while the first is under way does nothing. */
export function useSingleFlight() {
  const busy = useRef(false)
  const [running, setRunning] = useState(false)
  const run = useCallback(async (task: () => Promise<unknown>) => {
    if (busy.current) return
    busy.current = true
    setRunning(true)
    try {
      await task()
    } finally {
      busy.current = false
      setRunning(false)
    }
  }, [])
  return { running, run }
}
