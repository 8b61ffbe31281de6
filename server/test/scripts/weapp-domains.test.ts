/**
 * scripts/lib/weapp-domains.mjs: the whitelists printed for a mini-program release are the origins the
 * build calls, and a build WeChat would refuse (tourist appid, http, an IP, localhost, an explicit :443)
 * is named, never printed as releasable.
 */
import assert from 'node:assert/strict'
import { test } from 'node:test'
import { TOURIST_APPID, weappDomains } from '../../../scripts/lib/weapp-domains.mjs'

const APPID = 'wx0123456789abcdef'

test('a release build: request, upload and web-view domains are the API origin', () => {
  const release = weappDomains({
    TARO_APP_ID: APPID,
    TARO_APP_API_BASE: 'https://api.example.com/vmcloud/api',
  })
  assert.deepEqual(release.problems, [])
  assert.equal(release.appid, APPID)
  assert.deepEqual(release.request, ['https://api.example.com'])
  assert.deepEqual(release.uploadFile, ['https://api.example.com'])
  assert.deepEqual(release.webView, ['https://api.example.com'])
  assert.deepEqual(release.downloadFile, [])
})

test('a file host and a supplier control-page host join the web-view list, once each', () => {
  const release = weappDomains({
    TARO_APP_ID: APPID,
    TARO_APP_API_BASE: 'https://api.example.com:8443/vmcloud/api',
    TARO_APP_FILE_HOST: 'https://files.example.com/',
    WEAPP_WEBVIEW_ORIGINS: 'https://acep.example.net/play, https://files.example.com',
  })
  assert.deepEqual(release.problems, [])
  assert.deepEqual(release.request, ['https://api.example.com:8443'])
  assert.deepEqual(release.webView, ['https://files.example.com', 'https://acep.example.net'])
})

test('project.config.json appid is used when TARO_APP_ID is unset, the tourist one is refused', () => {
  const api = { TARO_APP_API_BASE: 'https://api.example.com/vmcloud/api' }
  assert.deepEqual(weappDomains(api, APPID).problems, [])
  assert.match(weappDomains(api, TOURIST_APPID).problems.join(), /TARO_APP_ID is not set/)
  assert.match(weappDomains({ ...api, TARO_APP_ID: 'wx123' }).problems.join(), /not a mini-program/)
})

test('addresses WeChat refuses are named', () => {
  const problems = (base: string, extra: Record<string, string> = {}) =>
    weappDomains({ TARO_APP_ID: APPID, TARO_APP_API_BASE: base, ...extra }).problems
  assert.match(problems('').join(), /TARO_APP_API_BASE must be https .*127\.0\.0\.1/) // the dev default
  assert.match(problems('http://api.example.com/vmcloud/api').join(), /must be https/)
  assert.match(problems('https://10.0.0.5/vmcloud/api').join(), /not 10\.0\.0\.5/)
  assert.match(problems('https://localhost/vmcloud/api').join(), /not localhost/)
  assert.match(problems('https://[::1]/vmcloud/api').join(), /not \[::1\]/)
  assert.match(problems('https://api.example.com:443/vmcloud/api').join(), /port 443/)
  assert.match(problems('/vmcloud/api').join(), /not an absolute address/)
  const file = { TARO_APP_FILE_HOST: 'http://files.example.com' }
  assert.match(problems('https://api.example.com/vmcloud/api', file).join(), /TARO_APP_FILE_HOST/)
  const webView = { WEAPP_WEBVIEW_ORIGINS: 'https://1.2.3.4' }
  assert.match(problems('https://api.example.com/a', webView).join(), /WEAPP_WEBVIEW_ORIGINS/)
})
