// Stands in for jsonp-retry, which Taro.request on H5 imports for its `jsonp` option. Our API is
// same-origin JSON and runtime/request.ts never sets that option (config/index.ts, h5.webpackChain).
export default function jsonpRetry() {
  return Promise.reject(new Error('JSONP requests are not supported by this app'))
}
