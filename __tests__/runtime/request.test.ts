import Taro from '@tarojs/taro'
import { ApiError } from '@/runtime/api-error'
import { createTokenInvalidHandler, request as singletonRequest } from '@/runtime/request'
import { createRequest } from '@/runtime/request-client'
import type { RequestDeps, TransportRequest, TransportResponse } from '@/runtime/request-types'

type Reply = TransportResponse | Error | (() => Promise<TransportResponse>)

function setup(
  over: Partial<RequestDeps> = {},
  session: { token?: string; userId?: string; channel?: string } = {},
) {
  const calls: TransportRequest[] = []
  const replies: Reply[] = []
  const ui = { showLoading: jest.fn(), hideLoading: jest.fn(), toast: jest.fn() }
  const hooks = { onTokenInvalid: jest.fn() }
  const logger = { report: jest.fn() }
  const clearSession = jest.fn()
  const deps: RequestDeps = {
    baseUrl: '/vmcloud/api',
    fileHost: 'https://files.example.com',
    appVersion: '2.4.8',
    session: {
      token: () => session.token,
      userId: () => session.userId,
      channel: () => session.channel,
      clear: clearSession,
    },
    ui,
    hooks,
    logger,
    platform: { clientType: 'h5', defaultChannel: 'h5', terminalType: () => 'android' },
    transport: async (o) => {
      calls.push(o)
      const reply = replies.shift() ?? ok(null)
      if (reply instanceof Error) throw reply
      if (typeof reply === 'function') return reply()
      return reply
    },
    upload: jest.fn(),
    now: () => 12345,
    ...over,
  }
  const http = createRequest(deps)
  return { http, calls, replies, ui, hooks, logger, clearSession }
}

const ok = (data: unknown, extra: object = {}): TransportResponse => ({
  statusCode: 200,
  data: { code: 200, msg: 'ok', data, ts: 1, ...extra },
})
const code = (c: number, msg = `m${c}`, data: unknown = null): TransportResponse => ({
  statusCode: 200,
  data: { code: c, msg, data, ts: 1 },
})

function deferred() {
  let resolve!: (r: TransportResponse) => void
  const promise = new Promise<TransportResponse>((r) => (resolve = r))
  return { promise, resolve }
}

describe('every request', () => {
  it('goes to the base URL with the versionCode query and the header set', async () => {
    const { http, calls } = setup({}, { token: 'tk', userId: '7', channel: 'abc' })
    await http.get('/user/getUserInfo', { mobilePhone: '1' })
    expect(calls[0].url).toBe('/vmcloud/api/user/getUserInfo?versionCode=002004008')
    expect(calls[0].method).toBe('GET')
    expect(calls[0].data).toEqual({ mobilePhone: '1' })
    expect(calls[0].header).toEqual({
      'content-type': 'application/json',
      requestSource: 'applet',
      token: 'tk',
      userId: '7',
      channel: 'abc',
      terminalType: 'android',
      clientType: 'h5',
      supplierType: '0',
    })
  })
  it('appends versionCode to a URL that already has a query', async () => {
    const { http, calls } = setup()
    await http.get('/x?a=1')
    expect(calls[0].url).toBe('/vmcloud/api/x?a=1&versionCode=002004008')
  })
  it('leaves token and userId out when there is no session, and uses the default channel', async () => {
    const { http, calls } = setup()
    await http.post('/user/login', { a: 1 })
    expect(calls[0].header.token).toBeUndefined()
    expect(calls[0].header.userId).toBeUndefined()
    expect(calls[0].header.channel).toBe('h5')
    expect(calls[0].method).toBe('POST')
  })
  it('uses wx as the default channel in the mini-program', async () => {
    const { http, calls } = setup({
      platform: { clientType: 'applet', defaultChannel: 'wx', terminalType: () => 'IOS' },
    })
    await http.get('/a')
    expect(calls[0].header).toMatchObject({
      channel: 'wx',
      clientType: 'applet',
      terminalType: 'IOS',
    })
  })
  it('merges extra headers', async () => {
    const { http, calls } = setup()
    await http.post('/user/login', {}, { header: { 'x-extra': '1' } })
    expect(calls[0].header['x-extra']).toBe('1')
  })
  it('JSON calls time out after 60 s, form calls after 10 s and are form-encoded', async () => {
    const { http, calls } = setup()
    await http.post('/a', { x: 1 })
    await http.postForm('/b', { name: '张 三', n: 2 })
    await http.postForm('/c', { a: 1 }, { method: 'PUT' })
    expect(calls[0].timeout).toBe(60000)
    expect(calls[1].timeout).toBe(10000)
    expect(calls[1].header['content-type']).toBe('application/x-www-form-urlencoded')
    expect(calls[1].data).toBe('name=%E5%BC%A0%20%E4%B8%89&n=2')
    expect(calls[2].method).toBe('PUT')
    expect(calls[2].timeout).toBe(10000)
  })
})

describe('loading overlay', () => {
  it('shows once for concurrent calls and hides when all have finished', async () => {
    const { http, replies, ui } = setup()
    const a = deferred()
    const b = deferred()
    replies.push(
      () => a.promise,
      () => b.promise,
    )
    const p1 = http.get('/one')
    const p2 = http.get('/two', undefined, { loading: '其他文字' })
    await Promise.resolve()
    expect(ui.showLoading).toHaveBeenCalledTimes(1)
    expect(ui.showLoading).toHaveBeenCalledWith('加载中')
    expect(http.inFlight()).toBe(2)
    a.resolve(ok(1))
    await p1
    expect(ui.hideLoading).not.toHaveBeenCalled()
    b.resolve(ok(2))
    await p2
    expect(ui.hideLoading).toHaveBeenCalledTimes(1)
    expect(http.inFlight()).toBe(0)
  })
  it('uses the given loading text', async () => {
    const { http, ui } = setup()
    await http.post('/user/login', {}, { loading: '正在登录' })
    expect(ui.showLoading).toHaveBeenCalledWith('正在登录')
  })
  it('hides the overlay after a failure too', async () => {
    const { http, replies, ui } = setup()
    replies.push(code(1080))
    await expect(http.get('/x')).rejects.toBeInstanceOf(ApiError)
    expect(ui.hideLoading).toHaveBeenCalledTimes(1)
    expect(http.inFlight()).toBe(0)
  })
  it.each([
    '/userUsageLog/saveUserUsageLog',
    '/CommodityGroup/getGoodPrice',
    '/customer/customerService/getUrl',
  ])('%s neither shows the overlay nor counts as in flight', async (path) => {
    const { http, replies, ui } = setup()
    const slow = deferred()
    replies.push(() => slow.promise)
    const p = http.post(path, {})
    await Promise.resolve()
    expect(http.inFlight()).toBe(0)
    // another call during it shows and hides on its own
    await http.get('/other')
    expect(ui.showLoading).toHaveBeenCalledTimes(1)
    expect(ui.hideLoading).toHaveBeenCalledTimes(1)
    slow.resolve(ok(null))
    await p
    expect(ui.showLoading).toHaveBeenCalledTimes(1)
    expect(ui.hideLoading).toHaveBeenCalledTimes(1)
  })
  it('loading: false opts a call out', async () => {
    const { http, ui } = setup()
    await http.get('/message/getUnreadCount', undefined, { loading: false })
    expect(ui.showLoading).not.toHaveBeenCalled()
  })
})

describe('code table (SPEC 8)', () => {
  it('resolves code 200 with the body', async () => {
    const { http, replies } = setup()
    replies.push(ok({ a: 1 }, { ts: 99 }))
    await expect(http.get('/x')).resolves.toEqual({ code: 200, msg: 'ok', data: { a: 1 }, ts: 99 })
  })
  it('adds ts when the body has none', async () => {
    const { http, replies } = setup()
    replies.push({ statusCode: 200, data: { code: 200, msg: 'ok', data: 1 } })
    await expect(http.get('/x')).resolves.toMatchObject({ ts: 12345 })
  })
  it.each([1025, 1026, 1017])(
    'resolves the soft code %i as a refusal for a call made for it',
    async (c) => {
      const { http, replies, logger } = setup()
      replies.push(code(c, 'soft', { x: 1 }), code(c, 'soft'), code(c, 'soft'))
      await expect(http.postOutcome('/order/createCloudOrder', {})).resolves.toEqual({
        ok: false,
        code: c,
        msg: 'soft',
      })
      await expect(http.getOutcome('/newUserGuide/getNewUserReceiveEquipment')).resolves.toEqual({
        ok: false,
        code: c,
        msg: 'soft',
      })
      await expect(http.outcome({ url: '/space/backup', method: 'POST' })).resolves.toMatchObject({
        ok: false,
      })
      expect(logger.report).not.toHaveBeenCalled()
    },
  )
  it('a refusal without a message carries the catalogue text', async () => {
    const { http, replies } = setup()
    replies.push(code(1026, ''))
    await expect(http.postOutcome('/space/backup', {})).resolves.toEqual({
      ok: false,
      code: 1026,
      msg: '超出云空间容量',
    })
  })
  it('resolves code 200 of an outcome call with its data', async () => {
    const { http, replies } = setup()
    replies.push(ok({ a: 1 }))
    await expect(http.postOutcome('/device/changeZone', {})).resolves.toEqual({
      ok: true,
      data: { a: 1 },
    })
  })
  // A call not made through outcome cannot mistake a refusal (data null) for success: it rejects.
  it.each([1025, 1026, 1017])('rejects the soft code %i on any other call', async (c) => {
    const { http, replies, logger } = setup()
    replies.push(code(c, 'soft'), code(c, 'soft'), code(c, 'soft'))
    await expect(http.post('/device/changeZone', {})).rejects.toMatchObject({
      code: c,
      msg: 'soft',
    })
    await expect(http.get('/x')).rejects.toBeInstanceOf(ApiError)
    await expect(http.fetchPage({ url: '/x', page: 1 })).rejects.toMatchObject({ code: c })
    expect(logger.report).toHaveBeenCalledTimes(3)
  })
  it('outcome calls reject every other code as before', async () => {
    const { http, replies } = setup()
    replies.push(code(1006, 'bad'), code(1057, 'frozen', { y: 1 }))
    await expect(http.postOutcome('/x', {})).rejects.toMatchObject({ code: 1006, msg: 'bad' })
    await expect(http.getOutcome('/x')).rejects.toMatchObject({
      code: 1057,
      body: { data: { y: 1 } },
    })
  })
  it('an outcome hands out data only after ok is checked (type test)', async () => {
    const { http, replies } = setup()
    replies.push(code(1017, 'gone'))
    const outcome = await http.postOutcome<{ name: string }>('/x', {})
    // @ts-expect-error -- a refusal has no data: the page must check ok first
    expect(outcome.data).toBeUndefined()
    expect(outcome.ok ? outcome.data.name : outcome.msg).toBe('gone')
  })
  it.each([1090, 1057, 1330])('rejects %i with the whole body', async (c) => {
    const { http, replies } = setup()
    replies.push(code(c, 'whole', { y: 2 }))
    const error = await http.get('/x').catch((e) => e)
    expect(error).toBeInstanceOf(ApiError)
    expect(error).toMatchObject({ code: c, msg: 'whole' })
    expect(error.body).toEqual({ code: c, msg: 'whole', data: { y: 2 }, ts: 1 })
  })
  it('rejects any other code with msg and reports it', async () => {
    const { http, replies, logger } = setup()
    replies.push(code(1006, '验证码错误或已失效'))
    const error = await http.post('/common/userLogin/confirm', {}).catch((e) => e)
    expect(error).toMatchObject({ code: 1006, msg: '验证码错误或已失效' })
    expect(error.body).toBeUndefined()
    expect(logger.report).toHaveBeenCalledWith(error, {
      url: '/common/userLogin/confirm',
      method: 'POST',
    })
  })
  it('counts code 0 under /open/event/pageLog as success, and nowhere else', async () => {
    const { http, replies } = setup()
    replies.push(code(0), code(0))
    await expect(http.post('/open/event/pageLog/save', {})).resolves.toMatchObject({ code: 0 })
    await expect(http.post('/open/event/other', {})).rejects.toMatchObject({ code: 0 })
  })
  it('does not report usage-log failures or the login-expired message', async () => {
    const { http, replies, logger } = setup()
    replies.push(code(1080), code(1080, '登录已过期，请重新登录'))
    await expect(http.post('/userUsageLog/saveUserUsageLog', {})).rejects.toBeInstanceOf(ApiError)
    await expect(http.get('/x')).rejects.toBeInstanceOf(ApiError)
    expect(logger.report).not.toHaveBeenCalled()
  })
})

describe('2017 login token invalid', () => {
  it('clears the session, calls the hook with hadToken and rejects with msg', async () => {
    const { http, replies, hooks, clearSession, logger } = setup({}, { token: 'tk', userId: '1' })
    replies.push(code(2017, '登录已过期，请重新登录'))
    const error = await http.get('/user/getUserInfo').catch((e) => e)
    expect(error).toMatchObject({ code: 2017, msg: '登录已过期，请重新登录' })
    expect(clearSession).toHaveBeenCalledTimes(1)
    expect(hooks.onTokenInvalid).toHaveBeenCalledWith(true, '登录已过期，请重新登录')
    expect(logger.report).not.toHaveBeenCalled()
  })
  it('tells the hook there was no token', async () => {
    const { http, replies, hooks } = setup()
    replies.push(code(2017, '登录已过期，请重新登录'))
    await expect(http.get('/x')).rejects.toMatchObject({ code: 2017 })
    expect(hooks.onTokenInvalid).toHaveBeenCalledWith(false, '登录已过期，请重新登录')
  })
  it('authRedirect: false only rejects', async () => {
    const { http, replies, hooks, clearSession } = setup({}, { token: 'old' })
    replies.push(code(2017))
    await expect(http.get('/x', undefined, { authRedirect: false })).rejects.toMatchObject({
      code: 2017,
    })
    expect(clearSession).not.toHaveBeenCalled()
    expect(hooks.onTokenInvalid).not.toHaveBeenCalled()
  })

  describe('the token-invalid handler', () => {
    const run = (hadToken: boolean, path: string) => {
      const env = { toast: jest.fn(), goLogin: jest.fn(), currentPath: () => path }
      createTokenInvalidHandler(env)(hadToken, '登录已过期，请重新登录')
      return env
    }
    it('toasts the message and goes to login from a private page when a token existed', () => {
      const env = run(true, '/pages/user/config')
      expect(env.toast).toHaveBeenCalledWith('登录已过期，请重新登录')
      expect(env.goLogin).toHaveBeenCalledTimes(1)
    })
    it('does not toast without a token, but still goes to login from a private page', () => {
      const env = run(false, '/pages/user/message?x=1')
      expect(env.toast).not.toHaveBeenCalled()
      expect(env.goLogin).toHaveBeenCalledTimes(1)
    })
    it.each([
      '/pages/Home/index',
      '/pages/Home/create',
      '/pages/Home/user',
      '/pages/user/accountList',
      '/',
    ])('stays on the public page %s', (path) => {
      const env = run(true, path)
      expect(env.toast).toHaveBeenCalled()
      expect(env.goLogin).not.toHaveBeenCalled()
    })
  })
})

describe('HTTP status and network', () => {
  it('404 shows the danger message Not Found and rejects', async () => {
    const { http, replies, ui } = setup()
    replies.push({ statusCode: 404, data: 'nope' })
    await expect(http.get('/missing')).rejects.toMatchObject({ code: 404, msg: 'Not Found' })
    expect(ui.toast).toHaveBeenCalledWith('Not Found', 'danger')
  })
  it('applies the code table to an envelope on another HTTP status', async () => {
    const { http, replies } = setup()
    replies.push({ statusCode: 400, data: { code: 400, msg: '手机号不能为空', data: null, ts: 1 } })
    await expect(http.post('/x', {})).rejects.toMatchObject({ code: 400, msg: '手机号不能为空' })
  })
  it('parses an envelope sent as a string (mini-program)', async () => {
    const { http, replies } = setup()
    replies.push({
      statusCode: 200,
      data: JSON.stringify({ code: 200, msg: 'ok', data: 5, ts: 1 }),
    })
    await expect(http.get('/x')).resolves.toMatchObject({ data: 5 })
  })
  it('rejects a non-2xx answer without an envelope with a clear message', async () => {
    const { http, replies, logger } = setup()
    replies.push({ statusCode: 502, data: '<html>' })
    await expect(http.get('/x')).rejects.toMatchObject({
      code: 502,
      msg: '服务请求失败（HTTP 502）',
    })
    expect(logger.report).toHaveBeenCalled()
  })
  it('rejects a network failure with the network message', async () => {
    const { http, replies } = setup()
    replies.push(new Error('request:fail'))
    await expect(http.get('/x')).rejects.toMatchObject({
      code: -1,
      msg: '网络异常，请检查网络后重试',
    })
  })
})

describe('paged lists', () => {
  it('sends page, rows (default 10) and params, and reads records, page, totalPage and total', async () => {
    const { http, calls, replies } = setup()
    replies.push(ok({ records: [{ id: 1 }], page: 2, totalPage: 5, total: 41 }))
    const result = await http.fetchPage({ url: '/message/list', page: 2, params: { type: 3 } })
    expect(calls[0].data).toEqual({ type: 3, page: 2, rows: 10 })
    expect(result).toEqual({ records: [{ id: 1 }], page: 2, totalPage: 5, total: 41 })
  })
  it('takes another page size and survives empty data', async () => {
    const { http, calls, replies } = setup()
    replies.push(ok(null))
    const result = await http.fetchPage({ url: '/l', page: 1, rows: 20 })
    expect(calls[0].data).toEqual({ page: 1, rows: 20 })
    expect(result).toEqual({ records: [], page: 1, totalPage: 0, total: 0 })
  })
})

describe('file URLs', () => {
  it('prefixes relative paths with the file host', () => {
    const { http } = setup()
    expect(http.fileUrl('/files/avatars/a.png')).toBe(
      'https://files.example.com/files/avatars/a.png',
    )
    expect(http.fileUrl('files/a.png')).toBe('https://files.example.com/files/a.png')
    expect(http.fileUrl('')).toBe('')
    expect(http.fileUrl(null)).toBe('')
  })
  it('swaps the origin of absolute URLs for the file host', () => {
    const { http } = setup()
    expect(http.fileUrl('http://old.host:8080/files/a.png?x=1')).toBe(
      'https://files.example.com/files/a.png?x=1',
    )
  })
  it('on the same origin keeps the path only', () => {
    const { http } = setup({ fileHost: '' })
    expect(http.fileUrl('/files/a.png')).toBe('/files/a.png')
    expect(http.fileUrl('https://cdn.x.com/files/a.png')).toBe('/files/a.png')
  })
  it('leaves local file URLs alone', () => {
    const { http } = setup()
    expect(http.fileUrl('wxfile://tmp/a.png')).toBe('wxfile://tmp/a.png')
    expect(http.fileUrl('data:image/png;base64,xx')).toBe('data:image/png;base64,xx')
  })
})

describe('the configured client', () => {
  afterEach(() => jest.restoreAllMocks())
  it('calls Taro.request on /vmcloud/api with the stored session', async () => {
    Taro.setStorageSync('accessToken', 'stored-token')
    Taro.setStorageSync('userId', '42')
    jest.spyOn(Taro, 'showLoading').mockImplementation(() => Promise.resolve({ errMsg: '' }))
    jest.spyOn(Taro, 'hideLoading').mockImplementation(() => Promise.resolve({ errMsg: '' }))
    const spy = jest
      .spyOn(Taro, 'request')
      .mockImplementation(() => Promise.resolve(ok({ fine: true })) as never)
    const body = await singletonRequest({ url: '/configure/getCommonConfig' })
    expect(body.data).toEqual({ fine: true })
    const options = spy.mock.calls[0][0] as unknown as TransportRequest
    expect(options.url).toBe('/vmcloud/api/configure/getCommonConfig?versionCode=002004008')
    expect(options.timeout).toBe(60000)
    expect(options.header).toMatchObject({
      token: 'stored-token',
      userId: '42',
      channel: 'h5',
      clientType: 'h5',
    })
    Taro.removeStorageSync('accessToken')
    Taro.removeStorageSync('userId')
  })
})
