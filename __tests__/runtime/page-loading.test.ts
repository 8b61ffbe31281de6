import {
  PAGE_LOAD_FAILED_MESSAGE,
  createPageLoading,
  installPageLoading,
  isLoadFailure,
  trackNavigation,
} from '@/runtime/page-loading'

function setup(onScreen = '/pages/Home/user') {
  const ui = { show: jest.fn(), hide: jest.fn(), toast: jest.fn() }
  let route = onScreen
  const tracker = createPageLoading({
    delayMs: 200,
    setTimer: (run, ms) => setTimeout(run, ms),
    clearTimer: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    currentRoute: () => route,
    showLoading: ui.show,
    hideLoading: ui.hide,
    toast: ui.toast,
  })
  return { tracker, ui, setRoute: (r: string) => (route = r) }
}

describe('async page load indicator (SPEC 9: 200 ms)', () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => jest.useRealTimers())

  it('shows nothing when the page appears within 200 ms', () => {
    const { tracker, ui } = setup()
    tracker.start('/pages/user/config')
    jest.advanceTimersByTime(199)
    tracker.appeared()
    jest.advanceTimersByTime(1000)
    expect(ui.show).not.toHaveBeenCalled()
    expect(ui.hide).not.toHaveBeenCalled()
  })
  it('shows 加载中 at 200 ms and hides it when the page appears', () => {
    const { tracker, ui } = setup()
    tracker.start('/pages/user/config?x=1')
    jest.advanceTimersByTime(200)
    expect(ui.show).toHaveBeenCalledTimes(1)
    expect(tracker.showing).toBe(true)
    tracker.appeared()
    expect(ui.hide).toHaveBeenCalledTimes(1)
    expect(tracker.showing).toBe(false)
  })
  it('does not show when the page is already on screen (same tab again, cached page)', () => {
    const { tracker, ui } = setup('/pages/Home/user')
    tracker.start('/pages/Home/user')
    jest.advanceTimersByTime(500)
    expect(ui.show).not.toHaveBeenCalled()
  })
  it('a second navigation restarts the delay and shows one indicator', () => {
    const { tracker, ui } = setup()
    tracker.start('/pages/user/config')
    jest.advanceTimersByTime(150)
    tracker.start('/pages/user/message')
    jest.advanceTimersByTime(150)
    expect(ui.show).not.toHaveBeenCalled()
    jest.advanceTimersByTime(50)
    expect(ui.show).toHaveBeenCalledTimes(1)
    tracker.start('/pages/user/messageSet')
    jest.advanceTimersByTime(200)
    expect(ui.show).toHaveBeenCalledTimes(1)
    tracker.appeared()
    expect(ui.hide).toHaveBeenCalledTimes(1)
  })
  it('a failed load hides the indicator and says so', () => {
    const { tracker, ui } = setup()
    tracker.start('/pages/user/config')
    jest.advanceTimersByTime(300)
    tracker.failed()
    expect(ui.hide).toHaveBeenCalledTimes(1)
    expect(ui.toast).toHaveBeenCalledWith(PAGE_LOAD_FAILED_MESSAGE)
    expect(PAGE_LOAD_FAILED_MESSAGE).toBe('页面加载失败，请检查网络后重试')
  })
  it('a fast failure is only reported when it is a load failure (loud)', () => {
    const { tracker, ui } = setup()
    tracker.start('/pages/user/config')
    tracker.failed(false)
    expect(ui.toast).not.toHaveBeenCalled()
    tracker.start('/pages/user/config')
    tracker.failed(true)
    expect(ui.toast).toHaveBeenCalledTimes(1)
    jest.advanceTimersByTime(1000)
    expect(ui.show).not.toHaveBeenCalled()
  })
  it('recognises chunk and sub-package load failures only', () => {
    const chunk = Object.assign(new Error('Loading chunk 12 failed.\n(timeout: /js/12.js)'), {
      name: 'ChunkLoadError',
    })
    expect(isLoadFailure(chunk)).toBe(true)
    expect(isLoadFailure(new Error('Loading CSS chunk 7 failed.'))).toBe(true)
    expect(isLoadFailure({ errMsg: 'navigateTo:fail loadSubpackage: fail' })).toBe(true)
    expect(isLoadFailure({ errMsg: 'navigateTo:fail webview count limit exceed' })).toBe(false)
    expect(isLoadFailure(new Error('boom'))).toBe(false)
    expect(isLoadFailure(undefined)).toBe(false)
  })
})

/** A navigation to config under `trackNavigations`, still running; `open()` completes it. */
function slowNavigation(trackNavigations: boolean) {
  const { tracker, ui } = setup()
  installPageLoading(tracker, { trackNavigations })
  let open: (v: string) => void = () => undefined
  const done = trackNavigation('/pages/user/config', () => new Promise<string>((r) => (open = r)))
  return { ui, done, open: (v: string) => open(v) }
}

describe('trackNavigation (mini-program: the navigation call is the route start)', () => {
  beforeEach(() => jest.useFakeTimers())
  afterEach(() => {
    jest.useRealTimers()
    installPageLoading(setup().tracker, { trackNavigations: false })
  })

  it('shows 加载中 while a slow sub-package navigation runs and hides it when it resolves', async () => {
    const { ui, done, open } = slowNavigation(true)
    jest.advanceTimersByTime(250)
    expect(ui.show).toHaveBeenCalledTimes(1)
    open('ok')
    await expect(done).resolves.toBe('ok')
    expect(ui.hide).toHaveBeenCalledTimes(1)
  })
  it('reports a sub-package download failure and passes the rejection on', async () => {
    const { tracker, ui } = setup()
    installPageLoading(tracker, { trackNavigations: true })
    const failure = { errMsg: 'navigateTo:fail loadSubpackage: fail' }
    await expect(trackNavigation('/pages/user/config', () => Promise.reject(failure))).rejects.toBe(
      failure,
    )
    expect(ui.toast).toHaveBeenCalledWith(PAGE_LOAD_FAILED_MESSAGE)
  })
  it('does nothing on H5, where the router reports routes itself', async () => {
    const { ui, done, open } = slowNavigation(false)
    jest.advanceTimersByTime(500)
    open('ok')
    await done
    expect(ui.show).not.toHaveBeenCalled()
  })
})
