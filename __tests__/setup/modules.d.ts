declare module '@tarojs/plugin-framework-react/dist/runtime' {
  import type Taro from '@tarojs/taro'
  export const useDidShow: typeof Taro.useDidShow
  export const useDidHide: typeof Taro.useDidHide
  export const useLoad: typeof Taro.useLoad
  export const useUnload: typeof Taro.useUnload
  export const useReady: typeof Taro.useReady
  export const useLaunch: typeof Taro.useLaunch
  export const useError: typeof Taro.useError
  export const usePullDownRefresh: typeof Taro.usePullDownRefresh
  export const useReachBottom: typeof Taro.useReachBottom
  export const usePageScroll: typeof Taro.usePageScroll
  export const useRouter: typeof Taro.useRouter
  export const useShareAppMessage: typeof Taro.useShareAppMessage
  export const useTabItemTap: typeof Taro.useTabItemTap
  export const useResize: typeof Taro.useResize
}
