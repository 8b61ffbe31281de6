import { AppStore } from '@/stores/app-store'
import { DENSE_KEY, FleetStore, VIEW_TYPE_KEY } from '@/stores/fleet-store'
import { memoryStorage } from './helpers'
import { device, page } from '../pages/Home/fleet-fixtures'

function setup(initial: Record<string, unknown> = {}) {
  const { storage, data } = memoryStorage(initial)
  const app = new AppStore(storage)
  const api = {
    device: { listDevices: jest.fn(), batchCommand: jest.fn(), getDevice: jest.fn() },
    group: { listGroups: jest.fn() },
    common: { getDeviceStatusList: jest.fn() },
  }
  const store = new FleetStore({ api: api as never, storage, app })
  return { store, api, app, data }
}

describe('FleetStore', () => {
  it('loads the first page with the remembered group and only the filters that narrow', async () => {
    const { store, api } = setup({ homeGroupId: 4 })
    api.device.listDevices.mockResolvedValue(page([device()], 1, 3, 120))
    await store.reload()
    expect(api.device.listDevices).toHaveBeenCalledWith({ groupId: 4 }, 1, 50, {
      loading: undefined,
    })
    expect(store.devices).toHaveLength(1)
    expect(store.total).toBe(120)
    expect(store.hasMore).toBe(true)
  })

  it('remembers the group choice in AppStore and reloads with it', async () => {
    const { store, api, data } = setup()
    api.device.listDevices.mockResolvedValue(page([]))
    store.setGroup(0)
    await Promise.resolve()
    expect(data.get('homeGroupId')).toBe(0)
    expect(api.device.listDevices).toHaveBeenLastCalledWith({ groupId: 0 }, 1, 50, {
      loading: undefined,
    })
  })

  it('drops an older answer when the filters changed meanwhile', async () => {
    const { store, api } = setup()
    let answerOld: (v: unknown) => void = () => undefined
    api.device.listDevices
      .mockImplementationOnce(() => new Promise((resolve) => (answerOld = resolve)))
      .mockResolvedValueOnce(page([device({ deviceId: 2, name: 'H 机' })]))
    const first = store.reload()
    store.setVersion(2)
    await Promise.resolve()
    answerOld(page([device({ deviceId: 1, name: '旧结果' })]))
    await first
    await new Promise((r) => setTimeout(r, 0))
    expect(store.devices.map((d) => d.name)).toEqual(['H 机'])
  })

  it('appends the next page without duplicates and stops at the last page', async () => {
    const { store, api } = setup()
    api.device.listDevices
      .mockResolvedValueOnce(page([device({ deviceId: 1 }), device({ deviceId: 2 })], 1, 2, 3))
      .mockResolvedValueOnce(page([device({ deviceId: 2 }), device({ deviceId: 3 })], 2, 2, 3))
    await store.reload()
    await store.loadMore()
    expect(store.devices.map((d) => d.deviceId)).toEqual([1, 2, 3])
    await store.loadMore()
    expect(api.device.listDevices).toHaveBeenCalledTimes(2)
  })

  it('全选 loads every remaining phone first, then selects them all; again clears', async () => {
    const { store, api } = setup()
    api.device.listDevices
      .mockResolvedValueOnce(page([device({ deviceId: 1 })], 1, 3, 3))
      .mockResolvedValueOnce(page([device({ deviceId: 1 }), device({ deviceId: 2 })], 1, 2, 3))
      .mockResolvedValueOnce(page([device({ deviceId: 3 })], 2, 2, 3))
    await store.reload()
    store.startSelect()
    await store.toggleAll()
    expect(api.device.listDevices).toHaveBeenNthCalledWith(2, {}, 1, 100)
    expect(store.selectedIds).toEqual([1, 2, 3])
    expect(store.allSelected).toBe(true)
    await store.toggleAll()
    expect(store.selectedIds).toEqual([])
  })

  it('全选 keeps every phone when the fleet refreshes while the rest loads (phones 创建中)', async () => {
    const { store, api } = setup()
    const phones = Array.from({ length: 120 }, (_, i) => device({ deviceId: i + 1, status: 0 }))
    const answers: (() => void)[] = []
    api.device.listDevices.mockImplementation(
      (_query: unknown, pageNo: number, rows: number) =>
        new Promise((resolve) =>
          answers.push(() =>
            resolve(
              page(
                phones.slice((pageNo - 1) * rows, pageNo * rows),
                pageNo,
                Math.ceil(120 / rows),
                120,
              ),
            ),
          ),
        ),
    )
    const answerAll = async () => {
      while (answers.length > 0) {
        answers.shift()!()
        await new Promise((r) => setTimeout(r, 0))
      }
    }
    const first = store.reload()
    await answerAll()
    await first
    store.startSelect()
    const selecting = store.toggleAll()
    // the follower's refresh lands while 全选 reads its pages, then again
    const refreshed = [store.refresh(), store.refresh()]
    await answerAll()
    await selecting
    expect(store.selectedIds).toHaveLength(120)
    await answerAll()
    await Promise.all(refreshed)
    expect(store.devices).toHaveLength(120)
    expect(store.selectedIds).toHaveLength(120)
    // 3 pages: the first, 全选's two of 100, one refresh of them after it
    expect(api.device.listDevices.mock.calls.map(([, pageNo, rows]) => [pageNo, rows])).toEqual([
      [1, 50],
      [1, 100],
      [2, 100],
      [1, 100],
      [2, 100],
    ])
  })

  it('refuses an empty batch with a message and sends the selection otherwise', async () => {
    const { store, api } = setup()
    await expect(store.batchReboot()).rejects.toThrow('请选择云手机')
    store.toggleSelected(5)
    store.toggleSelected(6)
    api.device.batchCommand.mockResolvedValue([
      { deviceId: 5, ok: true, msg: '' },
      { deviceId: 6, ok: false, msg: '云手机已到期，请续费后再操作' },
    ])
    const summary = await store.batchReboot()
    expect(api.device.batchCommand).toHaveBeenCalledWith([5, 6], 'Reboot')
    expect(summary.text).toBe('1台成功，1台失败')
    expect(summary.failures).toEqual([{ msg: '云手机已到期，请续费后再操作', deviceIds: [6] }])
  })

  it('按状态 loads the pages not read yet, as 全选 does, and ticks exactly the matching phones', async () => {
    const { store, api } = setup()
    const phones = [
      device({ deviceId: 1, status: 1 }),
      device({ deviceId: 2, status: 2 }),
      device({ deviceId: 3, status: 1 }),
    ]
    api.device.listDevices
      .mockResolvedValueOnce(page([phones[0]], 1, 3, 3))
      .mockResolvedValueOnce(page(phones, 1, 1, 3))
    await store.reload()
    store.startSelect()
    store.toggleSelected(2)
    expect(await store.selectWhere((d) => d.status === 1)).toBe(2)
    expect(api.device.listDevices).toHaveBeenNthCalledWith(2, {}, 1, 100)
    // the choice replaces the one before: the expired phone ticked by hand is no longer
    expect(store.selectedIds).toEqual([1, 3])
    // everything is loaded now: another choice reads nothing
    expect(await store.selectWhere((d) => d.status === 5)).toBe(0)
    expect(api.device.listDevices).toHaveBeenCalledTimes(2)
    expect(store.selectedIds).toEqual([])
  })

  it('按状态 leaves the choice as it was when the rest of the fleet cannot be read', async () => {
    const { store, api } = setup()
    api.device.listDevices
      .mockResolvedValueOnce(page([device({ deviceId: 1 })], 1, 3, 3))
      .mockRejectedValueOnce(new Error('网络异常'))
    await store.reload()
    store.startSelect()
    store.toggleSelected(1)
    await expect(store.selectWhere(() => true)).rejects.toThrow('网络异常')
    expect(store.selectedIds).toEqual([1])
  })

  it('remembers the dense mode on the device, off until chosen', () => {
    const { store, data } = setup()
    expect(store.dense).toBe(false)
    store.setDense(true)
    expect(data.get(DENSE_KEY)).toBe(1)
    expect(setup({ [DENSE_KEY]: 1 }).store.dense).toBe(true)
    store.setDense(false)
    expect(setup({ [DENSE_KEY]: data.get(DENSE_KEY) }).store.dense).toBe(false)
  })

  it('remembers the view type and leaves multi-select when switching to single', () => {
    const { store, data } = setup({ [VIEW_TYPE_KEY]: 1 })
    expect(store.viewType).toBe(1)
    store.startSelect()
    store.toggleSelected(1)
    store.setViewType(0)
    expect(data.get(VIEW_TYPE_KEY)).toBe(0)
    expect(store.selecting).toBe(false)
    expect(store.selection.size).toBe(0)
  })

  it('names the phones creating, rebooting or busy: what the fleet follows until they settle', async () => {
    const { store, api } = setup()
    api.device.listDevices.mockResolvedValue(
      page([
        device({ deviceId: 1, status: 0 }),
        device({ deviceId: 2, status: 1 }),
        device({ deviceId: 3, status: 1, busy: true }),
      ]),
    )
    await store.reload()
    expect(store.transientIds).toEqual([1, 3])
  })

  it('refresh reads the first page again, or every phone loaded so far, quietly and keeping the choice', async () => {
    const { store, api } = setup()
    const phones = Array.from({ length: 120 }, (_, i) => device({ deviceId: 200 - i }))
    api.device.listDevices.mockImplementation(
      async (_query: unknown, pageNo: number, rows: number) =>
        page(phones.slice((pageNo - 1) * rows, pageNo * rows), pageNo, Math.ceil(120 / rows), 120),
    )
    await store.reload()
    expect(store.devices).toHaveLength(50)
    api.device.listDevices.mockClear()
    await store.refresh()
    expect(api.device.listDevices.mock.calls).toEqual([[{}, 1, 50, { loading: false }]])

    await store.loadMore()
    await store.loadMore()
    store.startSelect()
    store.toggleSelected(81)
    api.device.listDevices.mockClear()
    await store.refresh()
    expect(api.device.listDevices.mock.calls).toEqual([
      [{}, 1, 100, { loading: false }],
      [{}, 2, 100, { loading: false }],
    ])
    expect(store.devices).toHaveLength(120)
    expect(store.hasMore).toBe(false)
    expect(store.selectedIds).toEqual([81])
  })

  it('forgets everything on reset (another account)', async () => {
    const { store, api } = setup()
    api.device.listDevices.mockResolvedValue(page([device()]))
    await store.reload()
    store.reset()
    expect(store.devices).toEqual([])
    expect(store.loaded).toBe(false)
  })
})
