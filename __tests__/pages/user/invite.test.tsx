import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import Invite from '@/pages/user/invite'
import * as engagement from '@/api/engagement'
import { renderPage } from '../page-harness'

jest.mock('@tarojs/taro', () => {
  const taro = jest.requireActual<typeof import('../page-harness')>('../page-harness').mockTaro()
  return { ...taro, useShareAppMessage: jest.fn() }
})
jest.mock('@/api/engagement', () => ({ listInvitees: jest.fn() }))

const api = engagement as jest.Mocked<typeof engagement>
const stores = { session: { info: { inviteCode: 'K7Q2MX' } } }

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'setClipboardData').mockResolvedValue({ errMsg: 'ok' } as never)
})

describe('邀请好友', () => {
  it('shows my code and who joined with it', async () => {
    api.listInvitees.mockResolvedValue({
      records: [{ mobilePhone: '138****0012', joinedAt: new Date(2026, 2, 2, 10, 5).getTime() }],
      page: 1,
      totalPage: 1,
      total: 1,
    })
    renderPage(<Invite />, stores)
    expect(screen.getByLabelText('我的邀请码').textContent).toBe('K7Q2MX')
    await screen.findByText('138****0012')
    expect(screen.getByText('2026-03-02 10:05:00 加入')).toBeTruthy()
    expect(api.listInvitees).toHaveBeenCalledWith(1, 10)
  })

  it('copies the code and the invite link', async () => {
    api.listInvitees.mockResolvedValue({ records: [], page: 1, totalPage: 0, total: 0 })
    renderPage(<Invite />, stores)
    await screen.findByText('还没有好友通过您的邀请注册')
    fireEvent.click(screen.getByText('复制邀请码'))
    fireEvent.click(screen.getByText('复制邀请链接'))
    await waitFor(() =>
      expect(Taro.setClipboardData).toHaveBeenCalledWith({
        data: 'http://localhost/pages/Home/index?inviteCode=K7Q2MX&inviteType=1',
      }),
    )
    expect(Taro.setClipboardData).toHaveBeenCalledWith({ data: 'K7Q2MX' })
  })
})
