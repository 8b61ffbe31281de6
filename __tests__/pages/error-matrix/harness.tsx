/**
 * The error matrix: for every API route and every SPEC 8 result code the server declares it
 * can answer (server/src/contract/route-codes.ts, kept truthful by the server suite), the page that
 * makes the call is rendered, the call runs through the real service and request layer to a transport
 * answering that code, and the page must show the SPEC's handling: the message (toast, dialog or page
 * text), 2017 → login (and back), 1015 → 去充值 to 我的云豆, 1025 its dialog, 1057 the frozen dialog → 联系客服;
 * never a success, never a TypeError. This module is the harness: the Driver type, the transport and
 * the checks (`runMatrix`). The drivers live by area in `<area>.drivers.tsx`, each run by its
 * `<area>.test.tsx`; coverage.test.ts fails for a route in the table without a driver, so a new route
 * or a new code is covered when the server adds it.
 */
import { waitFor } from '@testing-library/react'
import Taro from '@tarojs/taro'
import { ROUTE_CODES } from '../../../server/src/contract/route-codes'
import { isPublicPage, ROUTES } from '@/constants/routes'
import { ResultCode } from '@/domain/result-codes'
import { REFUSAL_DIALOGS } from '@/runtime/refusal-dialogs'
import { resolveApiBase } from '@/runtime/request'
import { STORAGE_KEYS } from '@/runtime/storage-keys'

export interface Driver {
  /** the page's route (the current page, for 2017's login redirect) */
  route: string
  /** successful answers (data) to the page's other calls, by path */
  answers?: Record<string, unknown>
  /** renders the page and does what makes the call */
  open(): Promise<void>
  /**
   * The page shows no message for this call's refusals, on purpose (why). Only the request layer's
   * handling (2017, the dialogs) and "no success, no TypeError" are checked then.
   */
  quiet?: string
  /** what the page shows for a refusal with this code and message, when not the message itself */
  shows?(code: number, msg: string): string
  /** where the page goes for a refusal with this code (SPEC: the user has to do something first) */
  leadsTo?: Partial<Record<number, RegExp>>
}

const NAVIGATIONS = ['navigateTo', 'navigateBack', 'redirectTo', 'reLaunch', 'switchTab'] as const

/** the request layer's base, as it was made (an applet login driver switches TARO_ENV meanwhile) */
const API_BASE = resolveApiBase()
let answer: { key: string; code: number; msg: string }
let requested: string[]
let driverAnswers: Record<string, unknown>

const toasts = () =>
  (Taro.showToast as jest.Mock).mock.calls.map(([o]) => o as Taro.showToast.Option)
const modals = () =>
  (Taro.showModal as jest.Mock).mock.calls.map(([o]) => o as Taro.showModal.Option)
const seen = () =>
  [
    ...toasts().map((t) => t.title),
    ...modals().map((m) => `${m.title}\n${m.content}`),
    document.body.textContent ?? '',
  ].join('\n')

/** The transport: the route under test answers its code, the driver's other calls their data. */
function reply(method: string, url: string) {
  const path = url.split('?')[0].replace(API_BASE, '')
  requested.push(`${method} ${path}`)
  if (`${method} ${path}` === answer.key) {
    return Promise.resolve({
      statusCode: 200,
      data: { code: answer.code, msg: answer.msg, data: null, ts: 1 },
    })
  }
  if (!(path in driverAnswers)) {
    return Promise.resolve({
      statusCode: 200,
      data: { code: 1080, msg: `测试未应答 ${path}`, data: null, ts: 1 },
    })
  }
  return Promise.resolve({
    statusCode: 200,
    data: { code: 200, msg: '成功', data: driverAnswers[path], ts: 1 },
  })
}

/** One test per route of `drivers` and code the server declares for it (route-codes.ts). */
export function runMatrix(drivers: Record<string, Driver>) {
  afterEach(() => {
    process.env.TARO_ENV = 'h5' // the mini-program's WeChat login drivers switch it
  })

  beforeEach(() => {
    jest.clearAllMocks()
    // the request layer logs every refusal; 36 of them per route are noise here
    jest.spyOn(console, 'warn').mockImplementation(() => undefined)
    Taro.clearStorageSync()
    Taro.setStorageSync(STORAGE_KEYS.token, 'token-1')
    Taro.setStorageSync(STORAGE_KEYS.userId, '1')
    requested = []
    jest
      .spyOn(Taro, 'request')
      .mockImplementation(((o: { url: string; method: string }) => reply(o.method, o.url)) as never)
    // an upload (the avatar) goes through the same answers
    jest
      .spyOn(Taro, 'uploadFile')
      .mockImplementation(((o: { url: string }) => reply('POST', o.url)) as never)
    for (const fn of ['showToast', 'showLoading', 'hideLoading'] as const)
      jest.spyOn(Taro, fn).mockResolvedValue({ errMsg: 'ok' } as never)
    for (const fn of NAVIGATIONS) jest.spyOn(Taro, fn).mockResolvedValue({ errMsg: 'ok' } as never)
    jest.spyOn(Taro, 'showModal').mockResolvedValue({ confirm: true, cancel: false } as never)
  })

  const cases = Object.entries(drivers).flatMap(([key, driver]) =>
    (ROUTE_CODES[key] ?? []).map((code) => ({ key, driver, code })),
  )
  // a route that declares no code still needs a driver that really makes the call
  const silent = Object.keys(drivers).filter((key) => ROUTE_CODES[key]?.length === 0)
  if (silent.length > 0) {
    it.each(silent)('%s (no SPEC 8 code declared) is made by its driver', async (key) => {
      const driver = drivers[key]
      jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([{ route: driver.route }] as never)
      driverAnswers = driver.answers ?? {}
      answer = { key: 'none', code: 0, msg: '' }
      await driver.open()
      await waitFor(() => expect(requested).toContain(key))
    })
  }

  describe.each(cases)('$key answered $code', ({ key, driver, code }) => {
    beforeEach(() => {
      jest.spyOn(Taro, 'getCurrentPages').mockReturnValue([{ route: driver.route }] as never)
      driverAnswers = driver.answers ?? {}
    })

    it('is handled as SPEC 8 says', async () => {
      const msg = `服务端说明${code}`
      answer = { key, code, msg }
      await driver.open()
      await waitFor(() => expect(requested).toContain(key))
      const dialog = REFUSAL_DIALOGS[code]
      if (code === ResultCode.LOGIN_TOKEN_INVALID) {
        await waitFor(() => expect(toasts().map((t) => t.title)).toContain(msg))
        // on login itself the user is already where 2017 sends them
        if (!isPublicPage(driver.route) && driver.route !== ROUTES.login.path) {
          await waitFor(() =>
            expect(Taro.redirectTo).toHaveBeenCalledWith({
              url: expect.stringMatching(
                new RegExp(
                  `^/pages/login/login\\?redirect=${encodeURIComponent(`/${driver.route}`)}`,
                ),
              ),
            }),
          )
        }
        expect(Taro.getStorageSync(STORAGE_KEYS.token)).toBeFalsy()
      } else if (dialog) {
        // the dialog with the server's message, and no toast on top of its buttons
        await waitFor(() =>
          expect(modals()).toContainEqual(
            expect.objectContaining({ title: dialog.title, content: expect.stringContaining(msg) }),
          ),
        )
        expect(toasts()).toEqual([])
        const { action } = dialog
        if (action) {
          await waitFor(() =>
            expect(Taro.navigateTo).toHaveBeenCalledWith({ url: `/${ROUTES[action.route].path}` }),
          )
        }
      } else if (!driver.quiet) {
        const expected = driver.shows?.(code, msg) ?? msg
        await waitFor(() => expect(seen()).toContain(expected))
      }
      // never a success (toast or dialog), never a TypeError's text
      expect(toasts().filter((t) => t.icon === 'success' || /成功/.test(t.title))).toEqual([])
      expect(modals().filter((m) => /成功/.test(`${m.title}${m.content}`))).toEqual([])
      expect(seen()).not.toMatch(/TypeError|Cannot read|undefined|null/)
      // only 2017's login, a dialog's action and the driver's named destinations navigate
      const leadsTo = driver.leadsTo?.[code]
      if (leadsTo) {
        await waitFor(() =>
          expect(NAVIGATIONS.flatMap((fn) => (Taro[fn] as jest.Mock).mock.calls)).toContainEqual([
            { url: expect.stringMatching(leadsTo) },
          ]),
        )
      }
      const allowed = code === ResultCode.LOGIN_TOKEN_INVALID || Boolean(dialog?.action || leadsTo)
      if (!allowed) for (const fn of NAVIGATIONS) expect(Taro[fn]).not.toHaveBeenCalled()
    })
  })
}
