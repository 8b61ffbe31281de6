import fc from 'fast-check'
import { checkRemoteId, MAX_REMOTE_ID_LENGTH } from '@/domain/console/catalogue-edits'

const refused = (raw: unknown) => {
  const result = checkRemoteId(raw)
  return 'why' in result ? result.why : null
}

describe('checkRemoteId (the supplier mapping id)', () => {
  it('keeps ACEP-like ids, trimmed', () => {
    expect(checkRemoteId('config-1')).toEqual({ remoteId: 'config-1' })
    expect(checkRemoteId('  dc-cn-beijing.a:2_b \n')).toEqual({ remoteId: 'dc-cn-beijing.a:2_b' })
    expect(checkRemoteId('x'.repeat(MAX_REMOTE_ID_LENGTH))).toEqual({
      remoteId: 'x'.repeat(MAX_REMOTE_ID_LENGTH),
    })
  })

  it('refuses empty, too long, spaces, NUL, control and other characters, and non-strings', () => {
    expect(refused('')).toBe('请填写供应商ID')
    expect(refused('   ')).toBe('请填写供应商ID')
    expect(refused('x'.repeat(MAX_REMOTE_ID_LENGTH + 1))).toMatch(/最长 64/)
    expect(refused('a'.repeat(10_240))).toMatch(/最长 64/)
    for (const bad of [
      'a b',
      'a\u0000b',
      'a\u0001',
      'a\tb',
      'a\u007fb',
      '配置',
      'a/b',
      'a;b',
      "a'b",
    ]) {
      expect(refused(bad)).toMatch(/只能包含/)
    }
    for (const bad of [null, undefined, 12, {}, ['a']])
      expect(refused(bad)).toBe('供应商ID须为文本')
  })

  it('accepts exactly the trimmed strings of 1–64 allowed characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (raw) => {
        const trimmed = raw.trim()
        const valid = trimmed.length >= 1 && trimmed.length <= 64 && /^[\w.:-]+$/.test(trimmed)
        expect(checkRemoteId(raw)).toEqual(
          valid ? { remoteId: trimmed } : { why: expect.any(String) },
        )
      }),
    )
  })
})
