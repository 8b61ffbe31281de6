import { render, screen } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { observer } from 'mobx-react'
import { createAppStores, StoresProvider, useStores } from '@/stores'
import { makeStores } from './helpers'

describe('AppStore', () => {
  it('persists the home group id', () => {
    const { stores, data } = makeStores()
    stores.app.setHomeGroupId(12)
    expect(data.get('homeGroupId')).toBe(12)
    expect(makeStores({ storage: Object.fromEntries(data) }).stores.app.homeGroupId).toBe(12)
    stores.app.setHomeGroupId(null)
    expect(data.has('homeGroupId')).toBe(false)
  })
})

describe('useStores', () => {
  const Name = observer(function Name() {
    const { session } = useStores()
    return <span>{session.isLoggedIn ? session.name : '未登录'}</span>
  })

  it('gives components the RootStore of the provider', () => {
    const { stores } = makeStores()
    render(
      <StoresProvider stores={stores}>
        <Name />
      </StoresProvider>,
    )
    expect(screen.getByText('未登录')).toBeTruthy()
  })

  it('throws without a provider', () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined)
    expect(() => render(<Name />)).toThrow('useStores() needs a <StoresProvider> above it')
    jest.restoreAllMocks()
  })
})

describe('createAppStores', () => {
  afterEach(() => jest.restoreAllMocks())

  it('clears the session and goes to login when a private page gets 2017', async () => {
    Taro.setStorageSync('accessToken', 'stale')
    Taro.setStorageSync('userId', '3')
    jest.spyOn(Taro, 'showLoading').mockImplementation(() => Promise.resolve({ errMsg: '' }))
    jest.spyOn(Taro, 'hideLoading').mockImplementation(() => Promise.resolve({ errMsg: '' }))
    const toast = jest
      .spyOn(Taro, 'showToast')
      .mockImplementation(() => Promise.resolve({ errMsg: '' }))
    jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([{ route: 'pages/user/config' }] as never)
    const redirectTo = jest
      .spyOn(Taro, 'redirectTo')
      .mockImplementation(() => Promise.resolve({ errMsg: '' }) as never)
    jest.spyOn(Taro, 'request').mockImplementation(
      () =>
        Promise.resolve({
          statusCode: 200,
          data: { code: 2017, msg: '登录已过期，请重新登录', data: null, ts: 1 },
        }) as never,
    )
    const stores = createAppStores()
    expect(stores.session.isLoggedIn).toBe(true)
    await expect(stores.session.loadUserInfo()).rejects.toMatchObject({ code: 2017 })
    expect(stores.session.isLoggedIn).toBe(false)
    expect(Taro.getStorageSync('accessToken')).toBe('')
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ title: '登录已过期，请重新登录' }))
    // login replaces the page and brings the visitor back to it
    expect(redirectTo).toHaveBeenCalledWith({
      url: `/pages/login/login?redirect=${encodeURIComponent('/pages/user/config')}`,
    })
    stores.dispose()
  })
})
