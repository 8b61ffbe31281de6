// Taro picks wechat-pay.weapp.ts or wechat-pay.h5.ts per platform; this default (jest and tsc) is H5.
export * from './wechat-pay.h5'
export { default } from './wechat-pay.h5'
