// What the Taro H5 build makes of `@tarojs/taro`: taro-h5's API plus the React lifecycle hooks.
import taro from '@tarojs/taro-h5'
import * as api from '@tarojs/taro-h5'
import * as hooks from '@tarojs/plugin-framework-react/dist/runtime'

const Taro = Object.assign(taro, api, {
  useDidShow: hooks.useDidShow,
  useDidHide: hooks.useDidHide,
  useLoad: hooks.useLoad,
  useUnload: hooks.useUnload,
  useReady: hooks.useReady,
  useLaunch: hooks.useLaunch,
  useError: hooks.useError,
  usePullDownRefresh: hooks.usePullDownRefresh,
  useReachBottom: hooks.useReachBottom,
  usePageScroll: hooks.usePageScroll,
  useRouter: hooks.useRouter,
  useShareAppMessage: hooks.useShareAppMessage,
  useTabItemTap: hooks.useTabItemTap,
  useResize: hooks.useResize,
})

export * from '@tarojs/taro-h5'
export const {
  useDidShow,
  useDidHide,
  useLoad,
  useUnload,
  useReady,
  useLaunch,
  useError,
  usePullDownRefresh,
  useReachBottom,
  usePageScroll,
  useRouter,
  useShareAppMessage,
  useTabItemTap,
  useResize,
} = hooks
export default Taro
