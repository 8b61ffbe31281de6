import { fireEvent, screen, waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import NewUserGuide, { guideShownKey } from '@/components/NewUserGuide'
import * as engagement from '@/api/engagement'
import { StoresContext } from '@/stores/context'
import type { RootStore } from '@/stores'
import { flush, renderPage } from '../pages/page-harness'

jest.mock('@/api/engagement', () => ({
  getNewUserGuideConfig: jest.fn(),
  receiveTrialPhone: jest.fn(),
}))

const api = engagement as jest.Mocked<typeof engagement>
const offer = (enabled: boolean) => ({
  enabled,
  goodId: 101,
  goodName: '畅享版 4核4G',
  configName: '4核 4G',
  minutes: 120,
  zonePolicy: 'mostStock',
  claimed: !enabled,
  inStock: true,
})
const CONFIG = {
  steps: [
    { id: 1, title: '欢迎使用云手机', text: '云端安卓手机', image: 'guide-welcome' },
    { id: 2, title: '免费试用一台', text: '每个账号限领一次', image: 'guide-trial' },
  ],
  trialOffer: offer(true),
}

function NewUserGuideWith(props: { stores: unknown; active: boolean }) {
  return (
    <StoresContext.Provider value={props.stores as RootStore}>
      <NewUserGuide active={props.active} />
    </StoresContext.Provider>
  )
}

function stores(userId: number, firstLogin = 1) {
  return {
    session: { isLoggedIn: true, userId, firstLogin },
    fleet: { reload: jest.fn().mockResolvedValue(undefined) },
  }
}

beforeEach(() => {
  jest.clearAllMocks()
  Taro.clearStorageSync()
  api.getNewUserGuideConfig.mockResolvedValue(CONFIG)
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
})

describe('新手指引', () => {
  it('walks through the steps and claims the trial phone', async () => {
    api.receiveTrialPhone.mockResolvedValue({
      ok: true,
      data: { deviceId: 3, name: '云手机-3', zoneName: '华东-上海', expireAt: 0 },
    })
    const s = stores(1)
    renderPage(<NewUserGuide />, s)
    await screen.findByText('欢迎使用云手机')
    fireEvent.click(screen.getByText('下一步'))
    expect(screen.getByText('免费试用一台')).toBeTruthy()
    expect(screen.getByText('畅享版 4核4G · 免费使用2小时')).toBeTruthy()
    fireEvent.click(screen.getByText('免费领取试用云机'))
    await waitFor(() => expect(s.fleet.reload).toHaveBeenCalled())
    expect(api.receiveTrialPhone).toHaveBeenCalledTimes(1)
    expect(Taro.showToast).toHaveBeenCalledWith(
      expect.objectContaining({ title: '已领取云手机-3' }),
    )
    await waitFor(() => expect(screen.queryByText('免费试用一台')).toBeNull())
  })

  it('is shown once per user', async () => {
    const first = renderPage(<NewUserGuide />, stores(2))
    await screen.findByText('欢迎使用云手机')
    expect(Taro.getStorageSync(guideShownKey(2))).toBe(1)
    first.unmount()
    renderPage(<NewUserGuide />, stores(2))
    await flush()
    expect(screen.queryByText('欢迎使用云手机')).toBeNull()
    expect(api.getNewUserGuideConfig).toHaveBeenCalledTimes(1)
    // another account on the same device still gets its guide
    renderPage(<NewUserGuide />, stores(3))
    await screen.findByText('欢迎使用云手机')
  })

  it('waits until its page is on screen', async () => {
    const s = stores(6)
    const view = renderPage(<NewUserGuide active={false} />, s)
    await flush()
    expect(api.getNewUserGuideConfig).not.toHaveBeenCalled()
    view.rerender(<NewUserGuideWith stores={s} active />)
    await screen.findByText('欢迎使用云手机')
  })

  it('is not shown after a later login', async () => {
    renderPage(<NewUserGuide />, stores(4, 0))
    await flush()
    expect(api.getNewUserGuideConfig).not.toHaveBeenCalled()
    expect(screen.queryByText('欢迎使用云手机')).toBeNull()
  })

  it('ends with 开始使用 when no trial is offered', async () => {
    api.getNewUserGuideConfig.mockResolvedValue({ ...CONFIG, trialOffer: offer(false) })
    renderPage(<NewUserGuide />, stores(5))
    await screen.findByText('欢迎使用云手机')
    fireEvent.click(screen.getByText('下一步'))
    expect(screen.queryByText('免费领取试用云机')).toBeNull()
    fireEvent.click(screen.getByText('开始使用'))
    await waitFor(() => expect(screen.queryByText('免费试用一台')).toBeNull())
    expect(api.receiveTrialPhone).not.toHaveBeenCalled()
  })
})
