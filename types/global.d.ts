/// <reference types="@tarojs/taro" />

declare module '*.png'
declare module '*.gif'
declare module '*.jpg'
declare module '*.jpeg'
declare module '*.svg'
declare module '*.css'
declare module '*.less'
declare module '*.scss'
declare module '*.sass'
declare module '*.styl'
declare module '*.module.scss' {
  const classes: { readonly [key: string]: string }
  export default classes
}

declare namespace NodeJS {
  interface ProcessEnv {
    TARO_ENV: 'weapp' | 'swan' | 'alipay' | 'h5' | 'rn' | 'tt' | 'quickapp' | 'qq' | 'jd'
    /** API base address; H5 default is /vmcloud/api on the same origin */
    TARO_APP_API_BASE?: string
    /** file host used to prefix file paths; default: the API origin */
    TARO_APP_FILE_HOST?: string
    /** WeChat official-account app id for the H5 OAuth redirect */
    TARO_APP_WECHAT_APPID?: string
    /** the OAuth authorisation page; empty: WeChat's own. Development names the sandbox's. */
    TARO_APP_WECHAT_OAUTH_URL?: string
  }
}
