/** The error matrix (harness.tsx) over profile and transfer (profile.drivers.tsx). */
import { runMatrix } from './harness'
import { DRIVERS } from './profile.drivers'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('./taro-mock')>('./taro-mock').mockMatrixTaro(),
)

runMatrix(DRIVERS)
