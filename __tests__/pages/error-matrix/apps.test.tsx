/** The error matrix (harness.tsx) over 应用管理 (apps.drivers.tsx). */
import { runMatrix } from './harness'
import { DRIVERS } from './apps.drivers'

jest.mock('@tarojs/taro', () =>
  jest.requireActual<typeof import('./taro-mock')>('./taro-mock').mockMatrixTaro(),
)

// the progress driver moves fake time; every other case runs on real timers
afterEach(() => jest.useRealTimers())

runMatrix(DRIVERS)
