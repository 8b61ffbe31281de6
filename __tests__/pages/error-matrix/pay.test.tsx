/** The error matrix (harness.tsx) over pay and transfer (pay.drivers.tsx). */
import { runMatrix } from './harness'
import { DRIVERS } from './pay.drivers'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('./taro-mock')>('./taro-mock').mockMatrixTaro(),
)

runMatrix(DRIVERS)
