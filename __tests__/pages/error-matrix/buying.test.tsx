/** The error matrix (harness.tsx) over the buying and paying (buying.drivers.tsx). */
import { runMatrix } from './harness'
import { DRIVERS } from './buying.drivers'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('./taro-mock')>('./taro-mock').mockMatrixTaro(),
)

runMatrix(DRIVERS)
