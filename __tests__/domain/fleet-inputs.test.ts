import {
  ACTIVATION_CODE_PATTERN,
  normaliseActivationCode,
  validateActivationCode,
} from '@/domain/activation-codes'
import { validateDeviceName, validateGroupName, validatePackageName } from '@/domain/validators'

/** The fleet forms' rules; the server answers with the same messages (devices.test, groups.test). */
describe('fleet input rules', () => {
  it('accepts a phone name of 1 to 20 characters after trimming', () => {
    expect(validateDeviceName('  ')).toBe('请输入云手机名称')
    expect(validateDeviceName('工作室-01')).toBeNull()
    expect(validateDeviceName('机'.repeat(20))).toBeNull()
    expect(validateDeviceName('机'.repeat(21))).toBe('云手机名称不能超过20个字')
  })

  it('names groups with the same limits', () => {
    expect(validateGroupName('')).toBe('请输入分组名称')
    expect(validateGroupName('a'.repeat(21))).toBe('分组名称不能超过20个字')
  })

  it('wants a dotted Android package name', () => {
    expect(validatePackageName('')).toBe('请输入应用包名')
    expect(validatePackageName('com.example.app')).toBeNull()
    expect(validatePackageName('example')).toMatch(/^请输入正确的应用包名/)
    expect(validatePackageName('com..app')).toMatch(/^请输入正确的应用包名/)
  })

  it('reads an activation code pasted with spaces, dashes or lower case', () => {
    expect(normaliseActivationCode(' abcd-efgh jkmn-pqrs ')).toBe('ABCDEFGHJKMNPQRS')
    expect(validateActivationCode('abcd-efgh-jkmn-pqrs')).toBeNull()
    expect(validateActivationCode('')).toBe('请输入激活码')
    expect(validateActivationCode('ABC')).toBe('激活码为16位字母或数字')
  })

  it('knows a code the server could have issued: no 0/O/1/I/L', () => {
    expect(ACTIVATION_CODE_PATTERN.test('ABCDEFGHJKMNPQRS')).toBe(true)
    expect(ACTIVATION_CODE_PATTERN.test('ABCDEFGHJKMNPQR0')).toBe(false)
    expect(ACTIVATION_CODE_PATTERN.test('ABCDEFGHJKMNPQR')).toBe(false)
  })
})
