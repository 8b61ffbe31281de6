import { fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { View } from '@tarojs/components'
import PagedList from '@/components/PagedList'
import { ApiError } from '@/runtime/api-error'
import { renderPage } from '../pages/page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../pages/page-harness')>('../pages/page-harness').mockTaro(),
)

const list = (load: jest.Mock) =>
  renderPage(
    <PagedList
      load={load}
      keyOf={(item: { id: number }) => item.id}
      renderItem={(item) => <View>第{item.id}条</View>}
    />,
    {},
  )

describe('PagedList', () => {
  beforeEach(() => {
    jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
  })

  it('a failed first page says the server’s message and 重新加载 reads it again', async () => {
    const load = jest
      .fn()
      .mockRejectedValueOnce(new ApiError(1080, '服务繁忙'))
      .mockResolvedValueOnce({ records: [{ id: 1 }], page: 1, totalPage: 1, total: 1 })
    list(load)
    await screen.findByText('服务繁忙')
    fireEvent.click(screen.getByText('重新加载'))
    await screen.findByText('第1条')
    expect(load).toHaveBeenCalledTimes(2)
  })

  it('a frozen account (1057) is offered 联系客服, not a reload the server refuses again', async () => {
    const load = jest.fn().mockRejectedValue(new ApiError(1057, '账号已被冻结'))
    list(load)
    await screen.findByText('账号已被冻结')
    expect(screen.queryByText('重新加载')).toBeNull()
    fireEvent.click(screen.getByText('联系客服'))
    expect(Taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/CustomerService/index' })
    expect(load).toHaveBeenCalledTimes(1)
  })
})
