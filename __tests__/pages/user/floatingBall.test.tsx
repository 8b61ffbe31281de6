import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import FloatingBall from '@/pages/user/floatingBall'
import * as engagement from '@/api/engagement'
import { renderPage } from '../page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro(),
)
jest.mock('@/api/engagement', () => ({
  getFloatingBall: jest.fn(),
  saveFloatingBall: jest.fn(),
}))

const api = engagement as jest.Mocked<typeof engagement>
const checked = (name: string) => screen.getByText(name).getAttribute('aria-checked')

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  api.getFloatingBall.mockResolvedValue({
    visible: true,
    side: 'right',
    opacity: 40,
    shortcuts: ['返回', '主页'],
  })
  api.saveFloatingBall.mockImplementation(async (body) => ({
    ...body,
    side: body.side === 'left' ? 'left' : 'right',
  }))
})

describe('悬浮球设置', () => {
  it('shows the saved settings', async () => {
    renderPage(<FloatingBall />, {})
    await screen.findByText('40%')
    expect(checked('右侧')).toBe('true')
    expect(checked('左侧')).toBe('false')
    expect(checked('返回')).toBe('true')
    expect(checked('截图')).toBe('false')
  })

  it('saves side, opacity and shortcuts in display order', async () => {
    renderPage(<FloatingBall />, {})
    await screen.findByText('40%')
    fireEvent.click(screen.getByText('左侧'))
    fireEvent.click(screen.getByLabelText('降低透明度'))
    fireEvent.click(screen.getByText('重启'))
    fireEvent.click(screen.getByText('主页'))
    fireEvent.click(screen.getByText('截图'))
    fireEvent.click(screen.getByText('保存'))
    await waitFor(() =>
      expect(api.saveFloatingBall).toHaveBeenCalledWith({
        visible: true,
        side: 'left',
        opacity: 30,
        shortcuts: ['返回', '截图', '重启'],
      }),
    )
    expect(Taro.showToast).toHaveBeenCalledWith(expect.objectContaining({ title: '已保存' }))
  })

  it('cannot go below 30%', async () => {
    renderPage(<FloatingBall />, {})
    await screen.findByText('40%')
    fireEvent.click(screen.getByLabelText('降低透明度'))
    fireEvent.click(screen.getByLabelText('降低透明度'))
    expect(screen.getByText('30%')).toBeTruthy()
  })

  it("shows the server's message when saving is refused", async () => {
    api.saveFloatingBall.mockRejectedValue({ code: 1080, msg: '透明度需在30%到100%之间' })
    renderPage(<FloatingBall />, {})
    await screen.findByText('40%')
    fireEvent.click(screen.getByText('保存'))
    await waitFor(() =>
      expect(Taro.showToast).toHaveBeenCalledWith(
        expect.objectContaining({ title: '透明度需在30%到100%之间' }),
      ),
    )
  })
})
