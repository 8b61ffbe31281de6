import { client } from '@/runtime/request'
import { prefetchGoodsList, takeGoodsList } from '@/api/goods'

jest.mock('@/runtime/request', () => ({ client: { get: jest.fn() } }))

const get = client.get as jest.Mock
const catalogue = (name: string) => ({ code: 200, msg: '', data: [{ level: 1, name, goods: [] }] })

beforeEach(async () => {
  get.mockReset().mockResolvedValue(catalogue('left over'))
  await takeGoodsList(0) // takes what an earlier test left
  get.mockReset()
})

describe('the catalogue asked for at start-up (H5 opened on 创建云机)', () => {
  it('is what the page takes first, without a second request', async () => {
    get.mockResolvedValueOnce(catalogue('start-up'))
    prefetchGoodsList(1_000)
    expect(get).toHaveBeenCalledTimes(1)
    expect(get).toHaveBeenCalledWith('/CommodityGroup/getGoodsList', {})

    await expect(takeGoodsList(2_000)).resolves.toEqual(catalogue('start-up').data)
    expect(get).toHaveBeenCalledTimes(1)
  })

  it('is taken once: the next load (tab shown again, 重新加载) asks anew', async () => {
    get.mockResolvedValueOnce(catalogue('start-up')).mockResolvedValueOnce(catalogue('fresh'))
    prefetchGoodsList(1_000)
    await takeGoodsList(2_000)
    await expect(takeGoodsList(3_000)).resolves.toEqual(catalogue('fresh').data)
    expect(get).toHaveBeenCalledTimes(2)
  })

  it('is not used once 10 s old (stock moves): the page asks anew', async () => {
    get.mockResolvedValueOnce(catalogue('start-up')).mockResolvedValueOnce(catalogue('fresh'))
    prefetchGoodsList(1_000)
    await expect(takeGoodsList(11_000)).resolves.toEqual(catalogue('fresh').data)
  })

  it('hands its failure to the page, which shows it; nothing is reported before that', async () => {
    const failure = { code: 500, msg: '网络异常' }
    get.mockRejectedValueOnce(failure)
    prefetchGoodsList(1_000)
    await new Promise((resolve) => setTimeout(resolve, 0)) // an unhandled rejection would fail here
    await expect(takeGoodsList(1_500)).rejects.toBe(failure)
  })

  it('without a start-up request, the page simply asks', async () => {
    get.mockResolvedValueOnce(catalogue('fresh'))
    await expect(takeGoodsList(5_000)).resolves.toEqual(catalogue('fresh').data)
    expect(get).toHaveBeenCalledTimes(1)
  })
})
