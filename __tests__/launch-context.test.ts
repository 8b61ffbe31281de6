import { launchLoginContext } from '@/launch-context'

describe('launchLoginContext (SPEC 3 login request: preGroup, shareUser from the launch link)', () => {
  it('reads preGroup and shareUser from the launch query', () => {
    expect(launchLoginContext({ preGroup: 'spring', shareUser: '42', channelCode: 'c' })).toEqual({
      preGroup: 'spring',
      shareUser: 42,
    })
  })

  it('leaves out what the login contract would refuse', () => {
    expect(launchLoginContext({})).toEqual({})
    expect(launchLoginContext({ preGroup: 'x'.repeat(65), shareUser: '4.2' })).toEqual({})
    expect(launchLoginContext({ preGroup: 'a\u0000b', shareUser: '-3' })).toEqual({})
    expect(launchLoginContext({ preGroup: '  ', shareUser: '99999999999' })).toEqual({})
    expect(launchLoginContext({ shareUser: '0' })).toEqual({})
  })
})
