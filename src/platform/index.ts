// Taro picks index.weapp.ts or index.h5.ts per platform; this default (used by jest and tsc) is H5.
export * from './index.h5'
export { default } from './index.h5'
