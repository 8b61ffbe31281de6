import { screen, waitFor } from '@testing-library/react'
import { View } from '@tarojs/components'
import PagedList from '@/components/PagedList'
import { renderPage } from '../pages/page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../pages/page-harness')>('../pages/page-harness').mockTaro(),
)

type Row = { id: number }
const page = (ids: number[], totalPage = 1) => ({
  records: ids.map((id) => ({ id })),
  page: 1,
  totalPage,
  total: ids.length,
})
const list = (load: jest.Mock, props: { emptyText?: string; reloadKey?: unknown } = {}) => (
  <PagedList
    load={load}
    keyOf={(item: Row) => item.id}
    renderItem={(item) => <View>第{item.id}条</View>}
    {...props}
  />
)

describe('PagedList paging', () => {
  it('says 加载中... until the first page arrives, then lists it and says 没有更多了', async () => {
    let answer: (value: ReturnType<typeof page>) => void = () => undefined
    const load = jest.fn(() => new Promise((resolve) => (answer = resolve)))
    renderPage(list(load), {})
    expect(screen.getAllByText('加载中...').length).toBeGreaterThan(0)
    expect(load).toHaveBeenCalledWith(1, 10)
    answer(page([1, 2]))
    await screen.findByText('第2条')
    expect(screen.getByText('第1条')).toBeTruthy()
    expect(screen.getByText('没有更多了')).toBeTruthy()
  })

  it('says 暂无相关数据 for an empty list, or the caller’s own words', async () => {
    const load = jest.fn().mockResolvedValue(page([], 0))
    const view = renderPage(list(load), {})
    await screen.findByText('暂无相关数据')
    view.unmount()
    renderPage(list(load, { emptyText: '暂无订单' }), {})
    await screen.findByText('暂无订单')
  })

  it('reads page 1 again when its reload key changes, showing only the new answer', async () => {
    const load = jest
      .fn()
      .mockResolvedValueOnce(page([1]))
      .mockResolvedValueOnce(page([7]))
    const view = renderPage(list(load, { reloadKey: '全部' }), {})
    await screen.findByText('第1条')
    view.rerender(list(load, { reloadKey: '已支付' }))
    await screen.findByText('第7条')
    expect(screen.queryByText('第1条')).toBeNull()
    await waitFor(() => expect(load).toHaveBeenLastCalledWith(1, 10))
    expect(load).toHaveBeenCalledTimes(2)
  })
})
