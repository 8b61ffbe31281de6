import { createCoverQueue, type CoverFrame } from '@/pages/Home/parts/fleet/cover-queue'
import { jestTimers } from '../../../../stores/helpers'

type Pending = { id: number; resolve: (f: CoverFrame) => void; reject: (e: Error) => void }

function setup(options: { refreshMs?: number } = {}) {
  const pending: Pending[] = []
  const fetchCover = jest.fn(
    (id: number) =>
      new Promise<CoverFrame>((resolve, reject) => pending.push({ id, resolve, reject })),
  )
  const onFrame = jest.fn()
  const queue = createCoverQueue({
    fetchCover,
    onFrame,
    now: () => Date.now(),
    timers: jestTimers,
    refreshMs: options.refreshMs,
  })
  const settle = async (id: number, url = `/c/${id}`) => {
    const index = pending.findIndex((p) => p.id === id)
    pending.splice(index, 1)[0].resolve({ url, updatedAt: Date.now() })
    await Promise.resolve()
    await Promise.resolve()
    await Promise.resolve()
  }
  const fail = async (id: number) => {
    const index = pending.findIndex((p) => p.id === id)
    pending.splice(index, 1)[0].reject(new Error('网络异常'))
    for (let i = 0; i < 4; i++) await Promise.resolve()
  }
  return { queue, fetchCover, onFrame, pending, settle, fail }
}

beforeEach(() => jest.useFakeTimers({ now: 1_000_000 }))
afterEach(() => jest.useRealTimers())

describe('cover queue', () => {
  it('fetches at most four covers at once and starts the next when one finishes', async () => {
    const { queue, fetchCover, settle } = setup()
    queue.setVisible([1, 2, 3, 4, 5, 6])
    expect(fetchCover.mock.calls.map(([id]) => id)).toEqual([1, 2, 3, 4])
    expect(queue.inFlight()).toBe(4)
    expect(queue.waiting()).toEqual([5, 6])
    await settle(2)
    expect(fetchCover.mock.calls.map(([id]) => id)).toEqual([1, 2, 3, 4, 5])
    expect(queue.inFlight()).toBe(4)
  })

  it('drops waiting phones that scrolled out of view and never fetches them', async () => {
    const { queue, fetchCover, settle } = setup()
    queue.setVisible([1, 2, 3, 4, 5, 6])
    queue.setVisible([1, 2, 3, 4])
    await settle(1)
    await settle(2)
    expect(fetchCover.mock.calls.map(([id]) => id)).toEqual([1, 2, 3, 4])
    expect(queue.waiting()).toEqual([])
  })

  it('refreshes a visible phone again after about ten seconds, not before', async () => {
    const { queue, fetchCover, settle } = setup()
    queue.setVisible([7])
    await settle(7)
    jest.advanceTimersByTime(9_000)
    expect(fetchCover).toHaveBeenCalledTimes(1)
    jest.advanceTimersByTime(1_000)
    expect(fetchCover).toHaveBeenCalledTimes(2)
  })

  it('keeps the last frame while a new one loads and when a refresh fails', async () => {
    const { queue, onFrame, settle, fail } = setup()
    queue.setVisible([7])
    await settle(7, '/c/first')
    expect(queue.frame(7)?.url).toBe('/c/first')
    jest.advanceTimersByTime(10_000)
    expect(queue.frame(7)?.url).toBe('/c/first')
    await fail(7)
    expect(queue.frame(7)?.url).toBe('/c/first')
    expect(onFrame).toHaveBeenCalledTimes(1)
    jest.advanceTimersByTime(10_000)
    await settle(7, '/c/second')
    expect(queue.frame(7)?.url).toBe('/c/second')
  })

  it('does not refresh phones that are no longer visible, and stops its timer when none are', async () => {
    const { queue, fetchCover, settle } = setup()
    queue.setVisible([1])
    await settle(1)
    queue.setVisible([])
    expect(jest.getTimerCount()).toBe(0)
    jest.advanceTimersByTime(60_000)
    expect(fetchCover).toHaveBeenCalledTimes(1)
  })

  it('puts a forced refresh first in line even when not due', async () => {
    const { queue, fetchCover, settle } = setup()
    queue.setVisible([1, 2, 3, 4, 5, 6])
    queue.refresh(6)
    expect(queue.waiting()).toEqual([6, 5])
    await settle(1)
    expect(fetchCover.mock.calls.at(-1)?.[0]).toBe(6)
  })

  it('fetches nothing while paused and catches up on resume', async () => {
    const { queue, fetchCover, settle } = setup()
    queue.setVisible([1])
    await settle(1)
    queue.setPaused(true)
    jest.advanceTimersByTime(30_000)
    expect(fetchCover).toHaveBeenCalledTimes(1)
    expect(jest.getTimerCount()).toBe(0)
    queue.setPaused(false)
    expect(fetchCover).toHaveBeenCalledTimes(2)
  })

  it('ignores answers after dispose', async () => {
    const { queue, onFrame, settle } = setup()
    queue.setVisible([1])
    queue.dispose()
    await settle(1)
    expect(onFrame).not.toHaveBeenCalled()
    expect(jest.getTimerCount()).toBe(0)
  })
})
