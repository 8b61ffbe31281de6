import { parseScanCode, scanPayload } from '../../src/domain/scan-codes'

const LOGIN_ID = 'ab'.repeat(32)

describe('parseScanCode', () => {
  it('reads each app QR kind', () => {
    expect(parseScanCode('cloudphone:activate:ABCD-EFGH-JKMN-PQRS')).toEqual({
      kind: 'activate',
      code: 'ABCDEFGHJKMNPQRS',
    })
    expect(parseScanCode('cloudphone:share:Ab_9-xYz123456789')).toEqual({
      kind: 'share',
      code: 'Ab_9-xYz123456789',
    })
    expect(parseScanCode(`cloudphone:login:${LOGIN_ID}`)).toEqual({ kind: 'login', code: LOGIN_ID })
  })

  it('round-trips scanPayload', () => {
    for (const kind of ['activate', 'share', 'login'] as const) {
      const code = kind === 'login' ? LOGIN_ID : 'ABCDEFGHJKMNPQRS'
      expect(parseScanCode(scanPayload(kind, code))).toEqual({ kind, code })
    }
  })

  it('reads a bare activation code, in any case, with spaces or dashes', () => {
    expect(parseScanCode('abcd efgh jkmn pqrs')).toEqual({
      kind: 'activate',
      code: 'ABCDEFGHJKMNPQRS',
    })
    expect(parseScanCode('  ABCD-EFGH-JKMN-PQRS\n')).toEqual({
      kind: 'activate',
      code: 'ABCDEFGHJKMNPQRS',
    })
  })

  it('ignores whitespace around a prefixed code', () => {
    expect(parseScanCode(` \tcloudphone:login:${LOGIN_ID} \n`)).toEqual({
      kind: 'login',
      code: LOGIN_ID,
    })
  })

  it.each([
    '',
    '   ',
    'https://example.com/anything',
    'cloudphone:',
    'cloudphone:login',
    'cloudphone:login:',
    'cloudphone:login:not-a-session',
    `cloudphone:login:${LOGIN_ID.toUpperCase()}`,
    'cloudphone:pay:123456',
    'cloudphone:share:<script>',
    'ABCDEFGHJKMNPQR', // 15 characters
    'ABCDEFGHJKMNPQR0', // 0 is not in the code alphabet
    '\u0000\u0001garbage',
  ])('treats %j as unknown and keeps the raw text', (text) => {
    expect(parseScanCode(text)).toEqual({ kind: 'unknown', text })
  })

  it('treats null/undefined as unknown', () => {
    expect(parseScanCode(undefined)).toEqual({ kind: 'unknown', text: '' })
    expect(parseScanCode(null)).toEqual({ kind: 'unknown', text: '' })
  })
})
