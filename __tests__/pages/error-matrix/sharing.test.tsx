/** The error matrix (harness.tsx) over sharing and transfer (sharing.drivers.tsx). */
import { runMatrix } from './harness'
import { DRIVERS } from './sharing.drivers'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('./taro-mock')>('./taro-mock').mockMatrixTaro(),
)

runMatrix(DRIVERS)
