import type { UserFlux } from '@/types/api'
import { FOLLOW_FIRST_MS, FOLLOW_MAX_MS, areaFlux, fleetNotice } from '@/domain/flux'
import { ApiError } from '@/runtime/api-error'
import { FluxStore } from '@/stores/flux-store'

const settled = (over: Partial<UserFlux> = {}): UserFlux => ({
  fleetVersion: 1,
  walletVersion: 1,
  paidOrders: [],
  busyPhones: 0,
  runningTasks: [],
  ...over,
})

/** A store on a scripted server and fake timers; `asks` are the times it read the server at. */
function setup(first: UserFlux | Error = settled()) {
  let answer: UserFlux | Error = first
  const asks: number[] = []
  const read = jest.fn(async () => {
    asks.push(Date.now())
    if (answer instanceof Error) throw answer
    return answer
  })
  const store = new FluxStore({
    read,
    timers: {
      setTimeout: (fn, ms) => setTimeout(fn, ms),
      clearTimeout: (id) => clearTimeout(id as never),
    },
  })
  const serve = (next: UserFlux | Error) => (answer = next)
  return { store, read, asks, serve }
}

const run = (ms: number) => jest.advanceTimersByTimeAsync(ms)

beforeEach(() => jest.useFakeTimers({ now: 0 }))
afterEach(() => jest.useRealTimers())

describe('FluxStore', () => {
  it('asks once and stops when nothing watched is in flux', async () => {
    const { store, read } = setup()
    const onChange = jest.fn()
    store.watch({ area: 'fleet', onChange })
    await run(60_000)
    expect(read).toHaveBeenCalledTimes(1)
    // no earlier answer to compare the first with: the page loads again once
    expect(onChange).toHaveBeenCalledTimes(1)
    expect(store.current).toEqual(settled())
    const shownAgain = jest.fn()
    store.watch({ area: 'fleet', onChange: shownAgain })
    await run(60_000)
    expect(read).toHaveBeenCalledTimes(2)
    expect(shownAgain).not.toHaveBeenCalled()
  })

  it('a page shown again loads again when the first answer moved past the last one', async () => {
    // 我的云豆 shown again after 支付成功: its read and the first ask race the credit, which lands
    // between them — the read has the old balance, the answer already no paid order
    const { store, serve } = setup()
    const before = store.watch({ area: 'wallet', onChange: jest.fn() })
    await run(10)
    before()
    serve(settled({ walletVersion: 2 }))
    const onChange = jest.fn()
    store.watch({ area: 'wallet', onChange })
    await run(10)
    expect(onChange).toHaveBeenCalledTimes(1)
  })

  it('while in flux asks after 1 s, then half as long again each time nothing changed, at most 5 s', async () => {
    const { store, asks } = setup(settled({ busyPhones: 2 }))
    store.watch({ area: 'fleet', onChange: jest.fn() })
    await run(30_000)
    const waits = asks.slice(1).map((at, i) => at - asks[i])
    expect(waits.slice(0, 6)).toEqual([1000, 1500, 2250, 3375, 5000, 5000])
    expect(Math.max(...waits)).toBe(FOLLOW_MAX_MS)
  })

  it('tells the page when its area changed, back to the first wait, and stops once settled', async () => {
    const { store, asks, serve } = setup(
      settled({ paidOrders: [{ orderNo: 'A', kind: 'new', quantity: 3 }] }),
    )
    const fleet = jest.fn()
    const wallet = jest.fn()
    store.watch({ area: 'fleet', onChange: fleet })
    store.watch({ area: 'wallet', onChange: wallet })
    await run(4000) // asks at 0, 1000, 2500
    // no earlier answer to compare the first with: the settled wallet loads again once, the busy
    // fleet when it moves
    expect(fleet).not.toHaveBeenCalled()
    expect(wallet).toHaveBeenCalledTimes(1)
    serve(settled({ fleetVersion: 2, busyPhones: 3 }))
    await run(2300) // at 4750: delivered
    expect(fleet).toHaveBeenCalledTimes(1)
    expect(wallet).toHaveBeenCalledTimes(1)
    const delivered = asks.length
    await run(1000)
    expect(asks.length).toBe(delivered + 1) // the first wait again
    serve(settled({ fleetVersion: 3 }))
    await run(20_000)
    expect(fleet).toHaveBeenCalledTimes(2)
    const done = asks.length
    await run(20_000)
    expect(asks.length).toBe(done)
  })

  it('a page showing something in flux that the server has settled is told to load again', async () => {
    const { store, read } = setup()
    let pending = true
    const onChange = jest.fn(() => (pending = false))
    store.watch({ area: 'space', onChange, pending: () => pending })
    await run(10_000)
    expect(onChange).toHaveBeenCalledTimes(1)
    expect(read).toHaveBeenCalledTimes(2) // one more ask confirms it, then none
  })

  it('a failed ask is asked again with the same back-off; unwatching stops every ask', async () => {
    const { store, read, serve } = setup(new ApiError(-1, '网络异常，请检查网络后重试'))
    const stop = store.watch({ area: 'fleet', onChange: jest.fn() })
    await run(2600)
    expect(read).toHaveBeenCalledTimes(3)
    serve(settled({ busyPhones: 1 }))
    stop()
    await run(30_000)
    expect(read).toHaveBeenCalledTimes(3)
  })

  it('a refusal (a frozen account, 2017) is not asked again until a page watches anew', async () => {
    const { store, read, serve } = setup(new ApiError(1057, '账号已冻结'))
    store.watch({ area: 'fleet', onChange: jest.fn(), pending: () => true })
    await run(30_000)
    expect(read).toHaveBeenCalledTimes(1)
    serve(settled({ busyPhones: 1 }))
    store.watch({ area: 'fleet', onChange: jest.fn() })
    await run(1000)
    expect(read).toHaveBeenCalledTimes(3)
  })

  it('drops an answer asked for before reset (another account) and asks again for the new one', async () => {
    let answer: (flux: UserFlux) => void = () => undefined
    const { store, read } = setup()
    read.mockImplementationOnce(() => new Promise<UserFlux>((resolve) => (answer = resolve)))
    store.watch({ area: 'fleet', onChange: jest.fn() })
    await run(50)
    store.reset()
    answer(settled({ paidOrders: [{ orderNo: 'OLD', kind: 'new', quantity: 1 }] }))
    await run(100)
    expect(store.current).toEqual(settled())
    expect(read).toHaveBeenCalledTimes(2)
  })
})

describe('areas of the flux', () => {
  const flux = settled({
    fleetVersion: 7,
    walletVersion: 3,
    paidOrders: [
      { orderNo: 'N', kind: 'new', quantity: 32 },
      { orderNo: 'B', kind: 'beanRecharge', quantity: 1 },
    ],
    runningTasks: [4],
  })

  it('each area is in flux only for what it shows', () => {
    expect(areaFlux(flux, 'fleet')).toEqual({ busy: true, version: '7 N' })
    expect(areaFlux(flux, 'wallet')).toEqual({ busy: true, version: '3 B' })
    expect(areaFlux(flux, 'space')).toEqual({ busy: true, version: '| 4' })
    expect(areaFlux(flux, 'orders')).toEqual({ busy: true, version: 'N B' })
    expect(areaFlux(settled(), 'space')).toEqual({ busy: false, version: '|' })
  })

  it('the fleet says what a paid order is making', () => {
    expect(fleetNotice([{ orderNo: 'N', kind: 'new', quantity: 32 }])).toBe(
      '支付成功，32台云手机创建中…',
    )
    expect(fleetNotice([{ orderNo: 'R', kind: 'renew', quantity: 1 }])).toBe(
      '续费已支付，到期时间更新中…',
    )
    expect(fleetNotice([{ orderNo: 'U', kind: 'upgrade', quantity: 1 }])).toBe(
      '支付成功，云手机更新中…',
    )
    expect(fleetNotice([])).toBe('')
    expect(FOLLOW_FIRST_MS).toBe(1000)
  })
})
