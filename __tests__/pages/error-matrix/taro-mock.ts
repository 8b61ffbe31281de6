/**
 * The Taro mock of every error-matrix test file:
 * `jest.mock('@tarojs/taro', () => jest.requireActual('./taro-mock').mockMatrixTaro())`.
 */
import { mockTaro } from '../page-harness'

export function mockMatrixTaro() {
  const taro = mockTaro()
  // the page never hides in a test; unmounting stops the pay page's poll
  const useDidHide = () => undefined
  const useShareAppMessage = () => undefined
  Object.assign(taro.default, { useDidHide, useShareAppMessage })
  return { ...taro, useDidHide, useShareAppMessage }
}
