/** Sharing and transfer: the error matrix drivers of 授权, share codes and 转移 */

import type { Driver } from './harness'

/** 'METHOD /path' → how a page makes the call. */
export const DRIVERS: Record<string, Driver> = {}
