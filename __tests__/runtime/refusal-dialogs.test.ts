import Taro from '@tarojs/taro'
import { toastError } from '@/runtime/feedback'
import { ResultCode } from '@/domain/result-codes'
import { ApiError } from '@/runtime/api-error'
import { createRequest } from '@/runtime/request-client'
import type { RequestDeps } from '@/runtime/request-types'
import { REFUSAL_DIALOGS, showRefusalDialog } from '@/runtime/refusal-dialogs'

function client(code: number, refusalDialog = jest.fn()) {
  const deps: RequestDeps = {
    baseUrl: '/vmcloud/api',
    fileHost: '',
    appVersion: '2.4.8',
    session: { token: () => 't', userId: () => '1', channel: () => undefined, clear: jest.fn() },
    ui: { showLoading: jest.fn(), hideLoading: jest.fn(), toast: jest.fn(), refusalDialog },
    hooks: { onTokenInvalid: jest.fn() },
    logger: { report: jest.fn() },
    platform: { clientType: 'h5', defaultChannel: 'h5', terminalType: () => 'android' },
    transport: async () => ({
      statusCode: 200,
      data: { code, msg: `说明${code}`, data: null, ts: 1 },
    }),
    upload: jest.fn(),
    now: () => 1,
  }
  return { http: createRequest(deps), refusalDialog }
}

beforeEach(() => {
  jest.restoreAllMocks()
  jest.spyOn(Taro, 'showToast').mockResolvedValue({ errMsg: 'ok' } as never)
  jest.spyOn(Taro, 'navigateTo').mockResolvedValue({ errMsg: 'ok' } as never)
})

describe('the request layer shows the dialog of 1015, 1025 and 1057 for any call', () => {
  it.each([ResultCode.CLOUD_BEANS_INSUFFICIENT, ResultCode.ACCOUNT_HAS_BEEN_FROZEN])(
    '%i rejects, marked as shown, and toastError adds no toast over the dialog',
    async (code) => {
      const { http, refusalDialog } = client(code)
      const error = await http.post('/x').catch((e: unknown) => e)
      expect(error).toBeInstanceOf(ApiError)
      expect((error as ApiError).dialogShown).toBe(true)
      expect(refusalDialog).toHaveBeenCalledWith(code, `说明${code}`)
      await toastError(error)
      expect(Taro.showToast).not.toHaveBeenCalled()
    },
  )

  it('1025 through an outcome call resolves as a refusal and shows its dialog', async () => {
    const { http, refusalDialog } = client(ResultCode.INSUFFICIENT_ACCOUNT_BALANCE)
    expect(await http.postOutcome('/pay/createPayment')).toEqual({
      ok: false,
      code: 1025,
      msg: '说明1025',
    })
    expect(refusalDialog).toHaveBeenCalledWith(1025, '说明1025')
  })

  it('other codes and calls made with dialog: false get no dialog, and their toast', async () => {
    const other = client(ResultCode.SHOW_ERROR_TIPS)
    const error = await other.http.post('/x').catch((e: unknown) => e)
    expect((error as ApiError).dialogShown).toBe(false)
    expect(other.refusalDialog).not.toHaveBeenCalled()
    await toastError(error)
    expect(Taro.showToast).toHaveBeenCalledWith(expect.objectContaining({ title: '说明1080' }))

    const quiet = client(ResultCode.CLOUD_BEANS_INSUFFICIENT)
    await expect(quiet.http.post('/x', {}, { dialog: false })).rejects.toMatchObject({
      code: 1015,
      dialogShown: false,
    })
    expect(quiet.refusalDialog).not.toHaveBeenCalled()
  })
})

describe('the dialogs', () => {
  it('1015: the server message, 去充值 opens 我的云豆; 取消 stays', async () => {
    const modal = jest
      .spyOn(Taro, 'showModal')
      .mockResolvedValueOnce({ confirm: true, cancel: false } as never)
      .mockResolvedValueOnce({ confirm: false, cancel: true } as never)
    await showRefusalDialog(1015, '云豆余额不足，还差300云豆')
    expect(modal).toHaveBeenCalledWith(
      expect.objectContaining({
        title: '云豆数量不足',
        content: '云豆余额不足，还差300云豆，充值云豆后即可继续',
        confirmText: '去充值',
        showCancel: true,
      }),
    )
    expect(Taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/user/recharge' })
    await showRefusalDialog(1015, '')
    expect(Taro.navigateTo).toHaveBeenCalledTimes(1)
  })

  it('1057: the frozen message; 联系客服 opens customer service, 知道了 stays', async () => {
    const modal = jest
      .spyOn(Taro, 'showModal')
      .mockResolvedValueOnce({ confirm: false, cancel: true } as never)
      .mockResolvedValueOnce({ confirm: true, cancel: false } as never)
    await showRefusalDialog(1057, '账号已被冻结')
    expect(modal).toHaveBeenCalledWith(
      expect.objectContaining({
        title: '账号已被冻结',
        content: REFUSAL_DIALOGS[1057].hint,
        showCancel: true,
        cancelText: '知道了',
        confirmText: '联系客服',
      }),
    )
    expect(Taro.navigateTo).not.toHaveBeenCalled()
    await showRefusalDialog(1057, '账号已被冻结')
    expect(Taro.navigateTo).toHaveBeenCalledWith({ url: '/pages/CustomerService/index' })
  })

  it('shows one dialog while a page’s calls are refused together', async () => {
    let close: (v: unknown) => void = () => undefined
    const modal = jest
      .spyOn(Taro, 'showModal')
      .mockImplementation(() => new Promise((resolve) => (close = resolve)) as never)
    const first = showRefusalDialog(1057, '账号已被冻结')
    await showRefusalDialog(1057, '账号已被冻结')
    expect(modal).toHaveBeenCalledTimes(1)
    close({ confirm: true, cancel: false })
    await first
    void showRefusalDialog(1057, '账号已被冻结')
    expect(modal).toHaveBeenCalledTimes(2)
  })
})
