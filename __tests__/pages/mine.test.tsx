import { fireEvent, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import Mine from '@/pages/Home/user'
import { configureNavigation } from '@/runtime/navigation'
import { renderPage } from './page-harness'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('./page-harness')>('./page-harness').mockTaro(),
)

const stores = (isLoggedIn: boolean) => ({
  session: {
    isLoggedIn,
    isVerified: false,
    info: isLoggedIn ? { name: '张三', mobilePhone: '13912345678', hasPassword: true } : null,
    loadUserInfo: jest.fn().mockResolvedValue(undefined),
  },
  unread: { total: 0 },
})

describe('我的 entries', () => {
  let navigateTo: jest.SpyInstance
  beforeEach(() => {
    navigateTo = jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
  })
  afterEach(() => jest.restoreAllMocks())

  it('send a logged-out visitor to login first, coming back to the chosen page', () => {
    configureNavigation({ isLoggedIn: () => false })
    renderPage(<Mine />, stores(false))
    fireEvent.click(screen.getByText('设置'))
    expect(navigateTo).toHaveBeenCalledWith({
      url: `/pages/login/login?redirect=${encodeURIComponent('/pages/user/config')}`,
    })
    fireEvent.click(screen.getByText('切换账号'))
    expect(navigateTo).toHaveBeenLastCalledWith({ url: '/pages/user/accountList' })
  })

  it('open the page directly when logged in', () => {
    configureNavigation({ isLoggedIn: () => true })
    renderPage(<Mine />, stores(true))
    fireEvent.click(screen.getByText('消息中心'))
    expect(navigateTo).toHaveBeenCalledWith({ url: '/pages/user/message' })
  })

  it('扫一扫 opens the scan page', () => {
    configureNavigation({ isLoggedIn: () => true })
    renderPage(<Mine />, stores(true))
    fireEvent.click(screen.getByText('扫一扫'))
    expect(navigateTo).toHaveBeenCalledWith({ url: '/pages/user/scan' })
  })

  it('show the right arrow on every entry', () => {
    configureNavigation({ isLoggedIn: () => true })
    const { container } = renderPage(<Mine />, stores(true))
    const rows = container.querySelectorAll('.nut-cell')
    expect(rows.length).toBeGreaterThanOrEqual(10)
    rows.forEach((row) => expect(row.querySelector('.nut-icon-ArrowRight')).not.toBeNull())
  })
})
