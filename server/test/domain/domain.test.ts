import assert from 'node:assert/strict'
import { test } from 'node:test'
import { assertProductionSafe, loadConfig } from '../../src/config'
import { sniffImageType, isUploadPath } from '../../src/domain/files'
import { escapeHtml } from '../../src/domain/html'
import { resendWaitSeconds, startOfChinaDay } from '../../src/domain/sms-policy'
import { normalisePage, toPaged } from '../../src/domain/paging'
import { describeValidationError } from '../../src/plugins/errors'
import { pngBytes } from '../helpers/multipart'

test('text put into the sandbox pages cannot open a tag or leave an attribute', () => {
  assert.equal(
    escapeHtml(`<img src=x onerror="a('b')">&amp;`),
    '&lt;img src=x onerror=&quot;a(&#39;b&#39;)&quot;&gt;&amp;amp;',
  )
  assert.equal(escapeHtml('云手机 1'), '云手机 1')
})

test('SMS quota days start at midnight China time', () => {
  assert.equal(
    startOfChinaDay(new Date('2026-03-02T15:59:00Z')).toISOString(),
    '2026-03-01T16:00:00.000Z',
  )
  assert.equal(
    startOfChinaDay(new Date('2026-03-02T16:00:00Z')).toISOString(),
    '2026-03-02T16:00:00.000Z',
  )
  assert.equal(resendWaitSeconds(null, new Date()), 0)
  assert.equal(resendWaitSeconds(new Date(1000), new Date(1500)), 60)
  assert.equal(resendWaitSeconds(new Date(0), new Date(60_000)), 0)
})

test('images are recognised by their bytes', () => {
  assert.equal(sniffImageType(pngBytes()), 'png')
  assert.equal(sniffImageType(Buffer.from([0xff, 0xd8, 0xff, 0xe0])), 'jpg')
  assert.equal(sniffImageType(Buffer.from('GIF89a......')), 'gif')
  assert.equal(sniffImageType(Buffer.from('RIFF\0\0\0\0WEBPVP8 ')), 'webp')
  assert.equal(sniffImageType(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')), null)
  assert.equal(isUploadPath('/files/uploads/0b1c2d3e-1111-4222-8333-944455556666.png'), true)
  assert.equal(isUploadPath('/files/uploads/../secret.png'), false)
})

test('paging is clamped and counted', () => {
  assert.deepEqual(normalisePage({}), { page: 1, rows: 10, offset: 0 })
  assert.deepEqual(normalisePage({ page: 3, rows: 500 }), { page: 3, rows: 100, offset: 200 })
  assert.deepEqual(toPaged([], 1, 10, 0), { records: [], page: 1, totalPage: 0, total: 0 })
  assert.equal(toPaged([], 1, 10, 21).totalPage, 3)
})

test('validation errors become Chinese messages naming the field', () => {
  assert.equal(
    describeValidationError([
      { keyword: 'required', instancePath: '', params: { missingProperty: 'mobilePhone' } },
    ]),
    '缺少参数 mobilePhone',
  )
  assert.equal(
    describeValidationError([{ keyword: 'pattern', instancePath: '/mobilePhone', params: {} }]),
    'mobilePhone 格式不正确',
  )
  assert.equal(
    describeValidationError([
      { keyword: 'maxLength', instancePath: '/name', params: { limit: 20 } },
    ]),
    'name 长度不能超过20个字符',
  )
  assert.equal(
    describeValidationError([
      { keyword: 'type', instancePath: '/workTypes/0/industryId', params: {} },
    ]),
    'workTypes[0].industryId 类型不正确',
  )
})

// Production's sandbox switches are tested in config.test.ts.
test('config defaults and value checks', () => {
  assert.doesNotThrow(() => assertProductionSafe(loadConfig({})))
  assert.throws(() => loadConfig({ SMS_PROVIDER: 'carrier-pigeon' }), /SMS_PROVIDER must be one of/)
  const defaults = loadConfig({})
  assert.equal(defaults.port, 3000)
  assert.equal(defaults.host, '0.0.0.0')
  assert.equal(defaults.tokenTtlDays, 30)
  assert.equal(defaults.rateLimitPerMinute, 300)
  assert.equal(defaults.sensitiveRateLimitPerMinute, 20)
  assert.equal(loadConfig({ RATE_LIMIT_PER_MINUTE: '0' }).rateLimitPerMinute, 0)
  assert.throws(() => loadConfig({ PORT: 'eighty' }), /PORT must be a positive integer/)
})
