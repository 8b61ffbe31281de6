import { handOverPrerender, holdPrerender } from '@/runtime/prerender'

function eventCenter() {
  const listeners = new Map<string, (() => void)[]>()
  return {
    on: (name: string, fn: () => void) => listeners.set(name, [...(listeners.get(name) ?? []), fn]),
    off: (name: string, fn: () => void) =>
      listeners.set(
        name,
        (listeners.get(name) ?? []).filter((f) => f !== fn),
      ),
    trigger: (name: string) => listeners.get(name)?.forEach((fn) => fn()),
    count: () => [...listeners.values()].flat().length,
  }
}

const flush = () => new Promise((resolve) => setTimeout(resolve, 0))

describe('the prerendered page hand-over (H5)', () => {
  beforeEach(() => {
    document.head.innerHTML = '<style id="prerendered-style">#prerendered{}</style>'
    document.body.innerHTML =
      '<div id="prerendered"><input placeholder="请输入手机号"><input placeholder="请输入验证码"></div>' +
      '<div id="app"></div>'
    document.documentElement.className = 'no-prerender'
  })

  it('removes the snapshot once the app has shown its page, not before', async () => {
    const events = eventCenter()
    handOverPrerender(events)
    await flush()
    expect(document.getElementById('prerendered')).not.toBeNull()

    document.getElementById('app')!.innerHTML = '<div class="taro_page">登录</div>'
    events.trigger('__afterTaroRouterChange')
    await flush()
    expect(document.getElementById('prerendered')).toBeNull()
    expect(document.getElementById('prerendered-style')).toBeNull()
    expect(document.documentElement.className).toBe('')
    expect(events.count()).toBe(0)
  })

  it('gives what was typed into the snapshot to the page, with the input event the page listens to', async () => {
    const events = eventCenter()
    handOverPrerender(events)
    const typed = document.querySelector<HTMLInputElement>('#prerendered input')!
    typed.value = '13712340031'
    typed.focus()
    document.getElementById('app')!.innerHTML = '<input><input>'
    const [phone, code] = [...document.querySelectorAll<HTMLInputElement>('#app input')]
    const reported: string[] = []
    phone.addEventListener('input', () => reported.push(phone.value))

    events.trigger('__afterTaroRouterChange')
    await flush()
    expect(phone.value).toBe('13712340031')
    expect(reported).toEqual(['13712340031'])
    expect(code.value).toBe('')
    expect(document.activeElement).toBe(phone)
  })

  it('keeps the snapshot of data (创建云机) while the shown page holds it, until it lets go', async () => {
    const events = eventCenter()
    handOverPrerender(events)
    const release = holdPrerender() // as the page first renders
    events.trigger('__afterTaroRouterChange') // the page is shown, still loading its catalogue
    await flush()
    expect(document.getElementById('prerendered')).not.toBeNull()

    release() // the catalogue is on the page
    await flush()
    expect(document.getElementById('prerendered')).toBeNull()
    release() // a second call changes nothing
    expect(events.count()).toBe(0)
  })

  it('hands over when shown if the page let go before that, and waits for every holder', async () => {
    const events = eventCenter()
    handOverPrerender(events)
    holdPrerender()() // the catalogue was already there
    const first = holdPrerender()
    const second = holdPrerender()
    first()
    events.trigger('__afterTaroRouterChange')
    await flush()
    expect(document.getElementById('prerendered')).not.toBeNull()
    second()
    await flush()
    expect(document.getElementById('prerendered')).toBeNull()
  })

  it('hands over when the URL has no page, so the app can say so', async () => {
    const events = eventCenter()
    handOverPrerender(events)
    events.trigger('__taroRouterNotFound')
    await flush()
    expect(document.getElementById('prerendered')).toBeNull()
  })

  it('does nothing on a page that came without a snapshot', async () => {
    document.body.innerHTML = '<div id="app"></div>'
    const events = eventCenter()
    handOverPrerender(events)
    expect(events.count()).toBe(0)
    holdPrerender() // never released: without a snapshot it holds nothing

    document.body.innerHTML = '<div id="prerendered"></div><div id="app"></div>'
    handOverPrerender(events)
    events.trigger('__afterTaroRouterChange')
    await flush()
    expect(document.getElementById('prerendered')).toBeNull()
  })
})
