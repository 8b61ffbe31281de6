/** One cover queue per Home page: frames re-render the cards that show them. */
import { useEffect, useMemo, useReducer } from 'react'
import { getCover } from '@/api/device'
import { systemTimers } from '@/stores/deps'
import { createCoverQueue } from './cover-queue'

export function useCovers() {
  const [, bump] = useReducer((n: number) => n + 1, 0)
  const queue = useMemo(
    () =>
      createCoverQueue({
        fetchCover: async (deviceId) => {
          const cover = await getCover(deviceId)
          if (!cover?.url) throw new Error('no cover yet')
          return { url: cover.url, updatedAt: cover.updatedAt }
        },
        now: () => Date.now(),
        timers: systemTimers,
        onFrame: bump,
      }),
    [],
  )
  useEffect(() => () => queue.dispose(), [queue])
  return queue
}
