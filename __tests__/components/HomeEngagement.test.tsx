import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import HomeEngagement from '@/components/NewUserGuide/HomeEngagement'
import * as engagement from '@/services/engagement'
import { flush, renderPage } from '../pages/page-harness'

jest.mock('@/services/engagement', () => ({
  getPlayTrialConfig: jest.fn(),
  getNewUserGuideConfig: jest.fn(),
  receiveTrialPhone: jest.fn(),
}))

const api = engagement as jest.Mocked<typeof engagement>
const stores = (openActivityBall: number) => ({
  session: { isLoggedIn: true, userId: 9, firstLogin: 0, openActivityBall },
  fleet: { reload: jest.fn() },
})

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
  api.getPlayTrialConfig.mockResolvedValue({ gameName: '星海远征' } as never)
})

describe('Home activity entry (openActivityBall)', () => {
  it('leads to the game trial when the account has it on', async () => {
    renderPage(<HomeEngagement active />, stores(1))
    fireEvent.click(await screen.findByLabelText('活动：免费试玩星海远征'))
    await waitFor(() =>
      expect(Taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/landing/play-trial/index' }),
    )
  })

  it('is absent when off, or when there is no game trial to show', async () => {
    renderPage(<HomeEngagement active />, stores(0))
    await flush()
    expect(api.getPlayTrialConfig).not.toHaveBeenCalled()
    expect(screen.queryByText('免费')).toBeNull()

    api.getPlayTrialConfig.mockRejectedValue({ code: 1080, msg: '试玩活动已结束' })
    renderPage(<HomeEngagement active />, stores(1))
    await flush()
    await flush()
    expect(screen.queryByText('免费')).toBeNull()
  })
})
