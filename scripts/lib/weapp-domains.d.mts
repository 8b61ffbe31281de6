export declare const DEFAULT_WEAPP_API_BASE: string
export declare const TOURIST_APPID: string
export interface WeappDomains {
  appid: string
  apiBase: string
  request: string[]
  uploadFile: string[]
  downloadFile: string[]
  socket: string[]
  webView: string[]
  problems: string[]
}
export declare function weappDomains(
  env: Record<string, string | undefined>,
  projectAppid?: string,
): WeappDomains
