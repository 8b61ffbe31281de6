/** The error matrix (harness.tsx) over the cloud space (space.drivers.tsx). */
import { runMatrix } from './harness'
import { DRIVERS } from './space.drivers'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('./taro-mock')>('./taro-mock').mockMatrixTaro(),
)

runMatrix(DRIVERS)
