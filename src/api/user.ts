/** Login and account calls (docs/api.md "SMS", "Login", "Account"). Each resolves with `data`. */
import type {
  ChangeBindingMobileBody,
  CodeLoginBody,
  LoginResult,
  MobileTicket,
  PasswordLoginBody,
  RealNameAuthBody,
  RealNameAuthResult,
  SendSmsCodeResult,
  UpdateCompanyInfoBody,
  UpdateUserInfoBody,
  UploadResult,
  UserInfo,
  WxBindLoginBody,
  WxLoginResult,
} from '@/types/api'
import { client } from '@/runtime/request'
import type { RequestOptions } from '@/runtime/request-types'

export type SmsType =
  'login' | 'changeOld' | 'changeNew' | 'deleteAccount' | 'setPassword' | 'transfer'

const LOGIN_LOADING = '正在登录'

export const sendSmsCode = async (mobilePhone: string | undefined, type: SmsType) =>
  (await client.post<SendSmsCodeResult>('/sms/sendSmsCode', { mobilePhone, type })).data

/** One-time code login (registers the number on first login). */
export const loginByCode = async (body: CodeLoginBody) =>
  (await client.post<LoginResult>('/common/userLogin/confirm', body, { loading: LOGIN_LOADING }))
    .data

/** Password login; `header` carries optional extra headers. */
export const loginByPassword = async (body: PasswordLoginBody, header?: Record<string, string>) =>
  (await client.post<LoginResult>('/user/login', body, { header, loading: LOGIN_LOADING })).data

export const wxAppletsLogin = async (jsCode: string) =>
  (await client.post<WxLoginResult>('/user/wxAppletsLogin', { jsCode }, { loading: LOGIN_LOADING }))
    .data

/** Official-account OAuth code → openid (and a session when the openid is bound). */
export const wxOfficialAccountLogin = async (jsCode: string) =>
  (
    await client.post<WxLoginResult>(
      '/user/wxOfficialAccountLogin',
      { jsCode, loginType: 2 },
      { loading: LOGIN_LOADING },
    )
  ).data

/**
 * Binds the WeChat of a bind ticket to a mobile number (registering it if new) and logs in. A ticket
 * from the mini-program's login goes to wxAppletsLoginPro, one from the official account's here.
 */
export const wxOfficialAccountLoginPro = async (body: WxBindLoginBody) =>
  (
    await client.post<LoginResult>('/user/wxOfficialAccountLoginPro', body, {
      loading: LOGIN_LOADING,
    })
  ).data

export const wxAppletsLoginPro = async (body: WxBindLoginBody) =>
  (await client.post<LoginResult>('/user/wxAppletsLoginPro', body, { loading: LOGIN_LOADING })).data

export const exitLogin = async () => {
  await client.post<null>('/user/exitLogin', undefined, { loading: false })
}

export const getUserInfo = async (
  params?: { mobilePhone?: string },
  options?: Pick<RequestOptions, 'loading' | 'authRedirect'>,
) => (await client.get<UserInfo>('/user/getUserInfo', params, options)).data

export const updateUserInfo = async (body: UpdateUserInfoBody) =>
  (await client.post<null>('/user/updateUserInfo', body)).data

export const realNameAuth = async (body: RealNameAuthBody) =>
  (await client.post<RealNameAuthResult>('/user/realNameAuth', body)).data

export const updateCompanyInfo = async (body: UpdateCompanyInfoBody) =>
  (await client.post<UserInfo>('/user/updateCompanyInfo', body)).data

export const updateUserPassword = async (oldPassword: string, newPassword: string) =>
  (await client.post<null>('/user/updateUserPassword', { oldPassword, newPassword })).data

export const firstUpdateUserPassword = async (newPassword: string) =>
  (await client.post<null>('/user/firstUpdateUserPassword', { newPassword })).data

/** Code sent with type changeOld to the caller's own number → a ticket valid 10 minutes. */
export const checkOldMobile = async (code: string) =>
  (await client.post<MobileTicket>('/user/checkOldMobile', { code })).data

export const changeBindingMobile = async (body: ChangeBindingMobileBody) =>
  (await client.post<null>('/user/changeBindingMobile', body)).data

/** Deletes the account (code of type deleteAccount). */
export const logoutUser = async (code: string) =>
  (await client.post<null>('/user/logoutUser', { code })).data

/** Uploads a local image (≤ 2 MB) → its file path, to be shown through fileUrl(). */
export const uploadFile = async (filePath: string) =>
  (await client.upload<UploadResult>('/file/upload', filePath)).data

export const userApi = {
  sendSmsCode,
  loginByCode,
  loginByPassword,
  wxAppletsLogin,
  wxOfficialAccountLogin,
  wxOfficialAccountLoginPro,
  wxAppletsLoginPro,
  exitLogin,
  getUserInfo,
  updateUserInfo,
  realNameAuth,
  updateCompanyInfo,
  updateUserPassword,
  firstUpdateUserPassword,
  checkOldMobile,
  changeBindingMobile,
  logoutUser,
  uploadFile,
}
export type UserApi = typeof userApi
