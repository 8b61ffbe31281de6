import { planLaunch, type LaunchContext } from '@/app-launch'

const ctx = (over: Partial<LaunchContext>): LaunchContext => ({
  path: 'pages/Home/index',
  query: {},
  isLoggedIn: false,
  isWeChatBrowser: false,
  hasOpenId: false,
  ...over,
})

describe('launch plan (SPEC 2)', () => {
  it('a gated page opened directly while logged out goes to login and comes back with its query', () => {
    expect(planLaunch(ctx({ path: 'pages/user/messageList', query: { type: '2' } }))).toEqual([
      {
        kind: 'redirectToLogin',
        url: `/pages/login/login?redirect=${encodeURIComponent('/pages/user/messageList?type=2')}`,
        redirect: '/pages/user/messageList?type=2',
      },
    ])
  })
  it('public pages, login itself and logged-in visitors are not redirected', () => {
    for (const path of [
      'pages/Home/index',
      'pages/Home/user',
      'pages/user/accountList',
      'pages/login/login',
      '',
    ]) {
      expect(planLaunch(ctx({ path }))).toEqual([])
    }
    expect(planLaunch(ctx({ path: 'pages/user/config', isLoggedIn: true }))).toEqual([])
  })
  it('saves a channel code, except on pages that skip it', () => {
    expect(planLaunch(ctx({ path: 'pages/Home/create', query: { channelCode: 'c1' } }))).toEqual([
      { kind: 'saveChannelCode', channelCode: 'c1' },
    ])
    expect(planLaunch(ctx({ path: 'pages/Home/index', query: { channelCode: 'c1' } }))).toEqual([])
  })
  it('an invite link keeps the code for the next login, not when already logged in', () => {
    const query = { inviteCode: 'AB12CD', inviteType: '1' }
    expect(planLaunch(ctx({ query }))).toEqual([
      { kind: 'saveInvite', inviteType: '1', inviteCode: 'AB12CD' },
    ])
    expect(planLaunch(ctx({ query, isLoggedIn: true }))).toEqual([])
  })
  it('the play-trial landing pages are public and skip the channel code', () => {
    for (const path of ['pages/landing/play-trial/index', 'pages/landing/play-trial/download']) {
      expect(planLaunch(ctx({ path, query: { channelCode: 'c1' } }))).toEqual([])
    }
  })
  it('from the official account in the WeChat browser: authorise first, then come back here', () => {
    const steps = planLaunch(
      ctx({ path: 'pages/user/config', query: { channelCode: 'c1' }, isWeChatBrowser: true }),
    )
    expect(steps).toEqual([
      { kind: 'saveChannelCode', channelCode: 'c1' },
      {
        kind: 'authorizeOfficialAccount',
        channelCode: 'c1',
        redirect: '/pages/user/config',
      },
    ])
    // with its own query kept, and channelCode only where the way back carries it
    const [, withQuery] = planLaunch(
      ctx({
        path: 'pages/user/messageList',
        query: { type: '2', channelCode: 'c1' },
        isWeChatBrowser: true,
      }),
    )
    expect(withQuery).toEqual({
      kind: 'authorizeOfficialAccount',
      channelCode: 'c1',
      redirect: '/pages/user/messageList?type=2',
    })
  })
  it('the authorisation lands on wechatAuth, which launches with nothing to do (no second trip)', () => {
    const landing = {
      path: 'pages/auth/wechatAuth',
      query: {
        redirect: '/pages/user/config',
        isWeChatAuth: '1',
        channelCode: 'c1',
        code: 'sandbox:x',
        state: 's',
      },
      isWeChatBrowser: true,
    }
    expect(planLaunch(ctx(landing))).toEqual([])
  })
  it('in the WeChat browser, not from the official account, a gated page goes to login', () => {
    const steps = planLaunch(ctx({ path: 'pages/user/config', isWeChatBrowser: true }))
    expect(steps.map((s) => s.kind)).toEqual(['redirectToLogin'])
  })
  it('no authorisation once logged in, or when the WeChat identity is already known', () => {
    const query = { channelCode: 'c1' }
    for (const over of [{ isLoggedIn: true }, { hasOpenId: true }, { isWeChatBrowser: false }]) {
      const steps = planLaunch(
        ctx({ path: 'pages/Home/create', query, isWeChatBrowser: true, ...over }),
      )
      expect(steps.map((s) => s.kind)).toEqual(['saveChannelCode'])
    }
  })
})
