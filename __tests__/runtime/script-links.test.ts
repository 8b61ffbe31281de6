import { keepScriptLinksUnfollowed } from '@/runtime/script-links'

describe('links to a script URL (Taro H5 tab bar) are not followed, their tap handlers run', () => {
  const handled: string[] = []
  beforeAll(() => keepScriptLinksUnfollowed(document))
  beforeEach(() => {
    handled.length = 0
    document.body.innerHTML =
      '<div class="weui-tabbar">' +
      '<a href="javascript:;" class="weui-tabbar__item"><span><img alt=""></span><p>我的</p></a>' +
      '<a href=" JavaScript:void(0)" class="other"><p>其他</p></a>' +
      '</div><a href="/pages/login/login" class="plain">《用户协议》</a><p class="text">文字</p>'
    for (const link of document.querySelectorAll('a'))
      link.addEventListener('click', () => handled.push(link.className))
  })

  /** Taps `selector` as a finger does (the event starts at the innermost element). */
  function tap(selector: string): MouseEvent {
    const event = new MouseEvent('click', { bubbles: true, cancelable: true })
    document.querySelector(selector)!.dispatchEvent(event)
    return event
  }

  it('a tab: the switch runs, the script URL is not followed', () => {
    expect(tap('.weui-tabbar__item p').defaultPrevented).toBe(true)
    expect(tap('.weui-tabbar__item').defaultPrevented).toBe(true)
    expect(tap('.other p').defaultPrevented).toBe(true)
    expect(handled).toEqual(['weui-tabbar__item', 'weui-tabbar__item', 'other'])
  })

  it('an ordinary link and other taps are left alone', () => {
    expect(tap('.plain').defaultPrevented).toBe(false)
    expect(tap('.text').defaultPrevented).toBe(false)
    expect(handled).toEqual(['plain'])
  })
})
