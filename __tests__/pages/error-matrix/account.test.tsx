/** The error matrix (harness.tsx) over the account and user (account.drivers.tsx). */
import { runMatrix } from './harness'
import { DRIVERS } from './account.drivers'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('./taro-mock')>('./taro-mock').mockMatrixTaro(),
)

runMatrix(DRIVERS)
