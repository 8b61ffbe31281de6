/**
 * The server's /user/flux as page tests script it: importing this file mocks `@/api/flux`, answering
 * `server.flux` (nothing in flux until a test says otherwise), and starts each test with the app's one
 * flux store forgetting the last test's answer.
 */
import type { PaidOrder, UserFlux } from '@/types/api'
import { getFlux } from '@/api/flux'
import { flux } from '@/stores/flux-store'

jest.mock('@/api/flux', () => ({ getFlux: jest.fn() }))

export const settledFlux = (over: Partial<UserFlux> = {}): UserFlux => ({
  fleetVersion: 1,
  walletVersion: 1,
  paidOrders: [],
  busyPhones: 0,
  runningTasks: [],
  ...over,
})

export const paidOrder = (kind: PaidOrder['kind'], quantity = 1): PaidOrder => ({
  orderNo: `CP-${kind}-${quantity}`,
  kind,
  quantity,
})

/** What the server answers now; a test moves it on as the server would. */
export const server = { flux: settledFlux() }
export const fluxAsks = getFlux as jest.Mock

beforeEach(() => {
  server.flux = settledFlux()
  fluxAsks.mockReset()
  fluxAsks.mockImplementation(async () => server.flux)
  flux.reset()
})
