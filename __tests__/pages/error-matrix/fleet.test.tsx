/** The error matrix (harness.tsx) over the fleet and device (fleet.drivers.tsx). */
import { runMatrix } from './harness'
import { DRIVERS } from './fleet.drivers'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('./taro-mock')>('./taro-mock').mockMatrixTaro(),
)

runMatrix(DRIVERS)
