import Taro from '@tarojs/taro'

/**
 * Taro's H5 map picker. index.h5.ts imports this module when a user first picks a place, so the
 * picker and its stylesheet are not part of the first route.
 */
export const pickLocation = () => Taro.chooseLocation({})
