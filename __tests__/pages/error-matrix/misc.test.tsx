/** The error matrix (harness.tsx) over the messages, scan login and the rest (misc.drivers.tsx). */
import { runMatrix } from './harness'
import { DRIVERS } from './misc.drivers'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('./taro-mock')>('./taro-mock').mockMatrixTaro(),
)

runMatrix(DRIVERS)
