import { ApiError } from '@/runtime/api-error'
import { fakeApi, flush, makeStores } from './helpers'

describe('UsageLogStore', () => {
  let now: number
  beforeEach(() => {
    jest.useFakeTimers()
    now = 1_750_000_000_000
  })
  afterEach(() => jest.useRealTimers())

  const setup = (api = fakeApi()) => {
    const ctx = makeStores({
      api,
      now: () => now,
      currentPath: () => '/pages/Home/index',
      storage: { userId: '42', accessToken: 't' },
    })
    return {
      ...ctx,
      usage: ctx.stores.usage,
      app: ctx.stores.app,
      save: api.common.saveUserUsageLog,
    }
  }
  const advance = async (ms: number) => {
    now += ms
    jest.advanceTimersByTime(ms)
    await flush()
  }

  it('creates a log id on show and reports it with the SPEC fields', async () => {
    const { usage, app, save, stores } = setup()
    usage.onShow()
    await flush()
    expect(app.logId).toEqual({ time: now, id: `${now}_0000000042_5500000` })
    expect(save).toHaveBeenCalledWith({
      logId: `${now}_0000000042_5500000`,
      client: 'h5',
      version: 1,
      terminalType: 'android',
      accessingPages: '/pages/Home/index',
      exitMark: 0,
    })
    stores.dispose()
  })

  it('names the page given at show when no page exists yet (mini-program launch)', async () => {
    const api = fakeApi()
    // the mini-program's page stack is empty at App onShow; the runtime's location says '/'
    const ctx = makeStores({ api, now: () => now, currentPath: () => '/' })
    ctx.stores.usage.onShow('/pages/Home/create?channelCode=c1')
    await flush()
    expect(api.common.saveUserUsageLog).toHaveBeenLastCalledWith(
      expect.objectContaining({ accessingPages: '/pages/Home/create?channelCode=c1' }),
    )
    ctx.stores.dispose()
  })

  it('reports again every 30 seconds while shown', async () => {
    const { usage, save, stores } = setup()
    usage.onShow()
    await flush()
    await advance(29_999)
    expect(save).toHaveBeenCalledTimes(1)
    await advance(1)
    expect(save).toHaveBeenCalledTimes(2)
    await advance(30_000)
    expect(save).toHaveBeenCalledTimes(3)
    stores.dispose()
  })

  it('stops on hide', async () => {
    const { usage, save } = setup()
    usage.onShow()
    await flush()
    usage.onHide()
    await advance(120_000)
    expect(save).toHaveBeenCalledTimes(1)
    expect(usage.running).toBe(false)
  })

  it('stops the timer on a report error', async () => {
    const api = fakeApi()
    api.common.saveUserUsageLog.mockRejectedValue(new ApiError(500, 'x'))
    const { usage, save } = setup(api)
    usage.onShow()
    await flush()
    expect(usage.running).toBe(false)
    await advance(90_000)
    expect(save).toHaveBeenCalledTimes(1)
  })

  it('keeps the log id after a short hide and makes a new one after 45 seconds hidden', async () => {
    const { usage, app } = setup()
    usage.onShow()
    const first = app.logId
    usage.onHide()
    await advance(44_999)
    usage.onShow()
    expect(app.logId).toBe(first)
    usage.onHide()
    await advance(45_000)
    usage.onShow()
    expect(app.logId).not.toBe(first)
    expect(app.logId?.time).toBe(now)
    usage.stop()
  })

  it('on exit reports with exitMark 1', async () => {
    const { usage, save } = setup()
    usage.onShow()
    await flush()
    now += 5_000
    await usage.onExit()
    expect(save).toHaveBeenLastCalledWith(expect.objectContaining({ exitMark: 1 }))
  })

  it('skips the exit report within 1 second of the log id time', async () => {
    const { usage, save } = setup()
    usage.onShow()
    await flush()
    now += 999
    await usage.onExit()
    expect(save).toHaveBeenCalledTimes(1)
    expect(save).not.toHaveBeenCalledWith(expect.objectContaining({ exitMark: 1 }))
  })

  it('falls back to the recorded page path', async () => {
    const api = fakeApi()
    const { stores } = makeStores({ api, now: () => now })
    stores.usage.onShow('/pages/user/config')
    await flush()
    expect(api.common.saveUserUsageLog).toHaveBeenCalledWith(
      expect.objectContaining({ accessingPages: '/pages/user/config' }),
    )
    expect(stores.app.logId?.id).toMatch(/^\d+_0000000000_\d{7}$/)
    stores.dispose()
  })
})
