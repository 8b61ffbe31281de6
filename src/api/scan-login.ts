/** Scan-login calls (docs/api.md "Scan-login"). */
import type { ScanLoginRequest, ScanLoginSession, ScanLoginState } from '@/types/api'
import { client } from '@/runtime/request'

/** Logged-out browser: a QR to show and the poll key only it knows. */
export const createScanLogin = async () =>
  (await client.post<ScanLoginSession>('/user/scanLogin/create', {}, { loading: false })).data

/** Polled every 2 s; `login` is present once, right after the phone confirmed. */
export const scanLoginStatus = async (pollKey: string) =>
  (await client.get<ScanLoginState>('/user/scanLogin/status', { pollKey }, { loading: false })).data

/** Logged-in phone: claims the session and learns where the login was asked from. */
export const scanLoginScan = async (sessionId: string) =>
  (await client.post<ScanLoginRequest>('/user/scanLogin/scan', { sessionId })).data

export const scanLoginConfirm = async (sessionId: string) =>
  (await client.post<{ status: 'confirmed' }>('/user/scanLogin/confirm', { sessionId })).data

export const scanLoginRefuse = async (sessionId: string) =>
  (await client.post<{ status: 'refused' }>('/user/scanLogin/refuse', { sessionId })).data

export const scanLoginApi = {
  createScanLogin,
  scanLoginStatus,
  scanLoginScan,
  scanLoginConfirm,
  scanLoginRefuse,
}
export type ScanLoginApi = typeof scanLoginApi
