import { createCommonService } from '@/api/common'
import { createRequest } from '@/runtime/request-client'
import type { RequestDeps, TransportRequest } from '@/runtime/request-types'

function setup() {
  let now = 0
  const calls: TransportRequest[] = []
  const answers: Record<string, unknown> = {
    '/dict/getDictList': [
      { id: 1, name: '制造业', value: 'manufacture', parentId: null },
      { id: 2, name: '互联网', value: 'internet', parentId: null },
    ],
    '/dict/getDeviceStatusList': [{ status: 1, name: '运行中', color: '#0f0' }],
    '/configure/getCommonConfig': { renewalReminderMsg: 'x' },
  }
  const deps = {
    baseUrl: '/api',
    fileHost: '',
    appVersion: '1.0.0',
    session: {
      token: () => undefined,
      userId: () => undefined,
      channel: () => undefined,
      clear() {},
    },
    ui: { showLoading: jest.fn(), hideLoading: jest.fn(), toast: jest.fn() },
    hooks: { onTokenInvalid: jest.fn() },
    logger: { report: jest.fn() },
    platform: { clientType: 'h5', defaultChannel: 'h5', terminalType: () => 'other' },
    transport: async (o: TransportRequest) => {
      calls.push(o)
      const path = o.url.replace('/api', '').split('?')[0]
      return { statusCode: 200, data: { code: 200, msg: '', data: answers[path] ?? null, ts: 1 } }
    },
    upload: jest.fn(),
    now: () => now,
  } as RequestDeps
  const service = createCommonService(createRequest(deps), () => now)
  return { service, calls, deps, tick: (ms: number) => (now += ms) }
}

describe('dictionary cache', () => {
  it('maps entries to { label: name, value }', async () => {
    const { service } = setup()
    await expect(service.getDictList('industry')).resolves.toEqual([
      { label: '制造业', value: 'manufacture', id: 1, parentId: null },
      { label: '互联网', value: 'internet', id: 2, parentId: null },
    ])
  })
  it('serves a dictionary from the cache for 5 minutes, then loads it again', async () => {
    const { service, calls, tick } = setup()
    await service.getDictList('industry')
    tick(5 * 60_000 - 1)
    await service.getDictList('industry')
    expect(calls).toHaveLength(1)
    tick(1)
    await service.getDictList('industry')
    expect(calls).toHaveLength(2)
  })
  it('caches each dictionary type separately and shares a load in flight', async () => {
    const { service, calls } = setup()
    await Promise.all([service.getDictList('industry'), service.getDictList('industry')])
    await service.getDictList('worktype')
    expect(calls.map((c) => c.data)).toEqual([{ dictType: 'industry' }, { dictType: 'worktype' }])
  })
  it('caches the cloud-phone status list for 5 minutes', async () => {
    const { service, calls, tick } = setup()
    await expect(service.getDeviceStatusList()).resolves.toEqual([
      { status: 1, name: '运行中', color: '#0f0' },
    ])
    tick(299_999)
    await service.getDeviceStatusList()
    expect(calls).toHaveLength(1)
    tick(1)
    await service.getDeviceStatusList()
    expect(calls).toHaveLength(2)
  })
})

describe('common calls', () => {
  it('loads the common config with the loading text', async () => {
    const { service, deps } = setup()
    await expect(service.getCommonConfig()).resolves.toEqual({ renewalReminderMsg: 'x' })
    expect(deps.ui.showLoading).toHaveBeenCalledWith('加载中')
  })
  it('caches the common config for the dictionary time (5 minutes); quiet: no overlay', async () => {
    const { service, calls, deps, tick } = setup()
    await service.getCommonConfig({ quiet: true })
    expect(deps.ui.showLoading).not.toHaveBeenCalled()
    tick(5 * 60_000 - 1)
    await service.getCommonConfig()
    expect(calls.filter((c) => c.url.includes('getCommonConfig'))).toHaveLength(1)
    tick(1)
    await service.getCommonConfig()
    expect(calls.filter((c) => c.url.includes('getCommonConfig'))).toHaveLength(2)
  })
  it('saves a usage log without the loading overlay', async () => {
    const { service, calls, deps } = setup()
    const body = {
      logId: 'l',
      client: 'h5' as const,
      version: 1,
      terminalType: 'Win',
      accessingPages: '/p',
      exitMark: 0 as const,
    }
    await service.saveUserUsageLog(body)
    expect(calls[0].url).toBe('/api/userUsageLog/saveUserUsageLog?versionCode=001000000')
    expect(calls[0].data).toEqual(body)
    expect(deps.ui.showLoading).not.toHaveBeenCalled()
  })
  it('customer service URL goes without the loading overlay', async () => {
    const { service, calls, deps } = setup()
    await service.getCustomerServiceUrl()
    expect(calls[0].url).toContain('/customer/customerService/getUrl')
    expect(deps.ui.showLoading).not.toHaveBeenCalled()
  })
})
