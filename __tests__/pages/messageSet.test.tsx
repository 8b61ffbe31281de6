import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import MessageSet from '@/pages/user/messageSet'
import { getMessageSettings, updateMessageSettings } from '@/api/message'
import { renderPage } from './page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('./page-harness')>('./page-harness').mockTaro(),
)
jest.mock('@/api/message', () => ({
  getMessageSettings: jest.fn(),
  updateMessageSettings: jest.fn(),
}))

const load = getMessageSettings as jest.Mock
const save = updateMessageSettings as jest.Mock
const switchOf = (label: string) => screen.getByLabelText(`接收${label}`)

beforeEach(() => {
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  load.mockResolvedValue({
    notice: true,
    renewal: true,
    transfer: false,
    create: true,
    system: true,
  })
  save.mockReset()
})

describe('消息设置', () => {
  it('shows 系统消息 on and disabled', async () => {
    renderPage(<MessageSet />, {})
    await waitFor(() => expect(switchOf('公告').getAttribute('aria-checked')).toBe('true'))
    expect(switchOf('系统消息').getAttribute('aria-checked')).toBe('true')
    expect(switchOf('系统消息').getAttribute('aria-disabled')).toBe('true')
    expect(switchOf('设备转移').getAttribute('aria-checked')).toBe('false')
  })

  it('saves one category as soon as its switch changes', async () => {
    save.mockResolvedValue(null)
    renderPage(<MessageSet />, {})
    await waitFor(() => expect(switchOf('公告').getAttribute('aria-disabled')).toBe('false'))
    fireEvent.click(switchOf('公告'))
    await waitFor(() => expect(save).toHaveBeenCalledWith({ notice: false }))
    expect(switchOf('公告').getAttribute('aria-checked')).toBe('false')
  })

  it('puts the switch back when saving fails', async () => {
    save.mockRejectedValue(new Error('网络异常，请检查网络后重试'))
    renderPage(<MessageSet />, {})
    await waitFor(() => expect(switchOf('续费提醒').getAttribute('aria-disabled')).toBe('false'))
    fireEvent.click(switchOf('续费提醒'))
    await waitFor(() => expect(save).toHaveBeenCalled())
    await waitFor(() => expect(switchOf('续费提醒').getAttribute('aria-checked')).toBe('true'))
  })

  it('cannot turn system messages off', async () => {
    renderPage(<MessageSet />, {})
    await waitFor(() => expect(switchOf('公告').getAttribute('aria-disabled')).toBe('false'))
    fireEvent.click(switchOf('系统消息'))
    expect(save).not.toHaveBeenCalled()
  })
})
