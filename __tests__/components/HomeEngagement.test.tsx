import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import HomeEngagement from '@/components/NewUserGuide/HomeEngagement'
import * as engagement from '@/api/engagement'
import * as activity from '@/api/activity'
import { flush, renderPage } from '../pages/page-harness'

jest.mock('@/api/engagement', () => ({
  getPlayTrialConfig: jest.fn(),
  getNewUserGuideConfig: jest.fn(),
  receiveTrialPhone: jest.fn(),
}))

jest.mock('@/api/activity', () => ({ listActivities: jest.fn() }))

const api = engagement as jest.Mocked<typeof engagement>
const activities = activity as jest.Mocked<typeof activity>
const running = (id: number) => ({
  id,
  title: `活动${id}`,
  summary: '',
  banner: null,
  kind: 'seckill' as const,
  startsAt: 0,
  endsAt: 1,
  running: true,
})
const stores = (openActivityBall: number) => ({
  session: {
    isLoggedIn: true,
    userId: 9,
    firstLogin: 0,
    openActivityBall,
    userInfo: { userId: 9 },
    loadUserInfo: jest.fn(),
  },
  fleet: { reload: jest.fn() },
})

beforeEach(() => {
  jest.clearAllMocks()
  jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
  api.getPlayTrialConfig.mockResolvedValue({ gameName: '星海远征' } as never)
  activities.listActivities.mockResolvedValue([])
})

describe('Home activity entry (openActivityBall)', () => {
  it('leads to the one running activity', async () => {
    activities.listActivities.mockResolvedValue([running(7)])
    renderPage(<HomeEngagement active />, stores(1))
    fireEvent.click(await screen.findByLabelText('限时活动'))
    await waitFor(() =>
      expect(Taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/webView/activity?id=7' }),
    )
    expect(api.getPlayTrialConfig).not.toHaveBeenCalled()
  })

  it('a restored session loads the user info quietly to learn openActivityBall', async () => {
    const restored = stores(0)
    restored.session.userInfo = null as never
    restored.session.loadUserInfo.mockResolvedValue({})
    renderPage(<HomeEngagement active />, restored)
    await flush()
    expect(restored.session.loadUserInfo).toHaveBeenCalledWith({ quiet: true })
    const known = stores(0)
    renderPage(<HomeEngagement active />, known)
    await flush()
    expect(known.session.loadUserInfo).not.toHaveBeenCalled()
  })

  it('leads to the activity list when several run', async () => {
    activities.listActivities.mockResolvedValue([running(1), running(2)])
    renderPage(<HomeEngagement active />, stores(1))
    fireEvent.click(await screen.findByLabelText('限时活动'))
    await waitFor(() =>
      expect(Taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/webView/activity' }),
    )
  })

  it('leads to the game trial when there is no activity', async () => {
    renderPage(<HomeEngagement active />, stores(1))
    fireEvent.click(await screen.findByLabelText('免费试玩星海远征'))
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
