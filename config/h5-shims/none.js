// Stands in for a polyfill every browser we support already has (see config/index.ts, h5.webpackChain).
export {}
