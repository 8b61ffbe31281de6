import {
  isIdCard,
  isMobile,
  isPassword,
  isSmsCode,
  isUrl,
  validateIdCard,
  validateMobile,
  validateName,
  validatePassword,
  validateRealName,
  validateSmsCode,
  validateUrl,
} from '@/domain/validators'

describe('mobile phone (11 digits, starts with 1, second digit 3-9)', () => {
  it.each(['13812345678', '19912345678', '15000000000'])('accepts %s', (v) => {
    expect(isMobile(v)).toBe(true)
    expect(validateMobile(v)).toBeNull()
  })
  it.each([
    '12812345678',
    '10812345678',
    '23812345678',
    '1381234567',
    '138123456789',
    '1381234567a',
  ])('rejects %s', (v) => {
    expect(isMobile(v)).toBe(false)
    expect(validateMobile(v)).toBe('请输入正确的手机号')
  })
  it('asks for a number when empty', () => {
    expect(validateMobile('')).toBe('请输入手机号')
    expect(validateMobile(undefined)).toBe('请输入手机号')
    expect(validateMobile('  ')).toBe('请输入手机号')
  })
})

describe('national ID number (15 or 18 digits)', () => {
  it.each([
    '110105491231002',
    '11010519491231002X',
    '11010519491231002x',
    '440301199003071230',
    '110105200002290021', // 29 February 2000, a leap year
  ])('accepts %s', (v) => {
    expect(isIdCard(v)).toBe(true)
    expect(validateIdCard(v)).toBeNull()
  })
  it.each([
    '11010519491231002', // 17 digits
    '110105194912310021', // wrong check digit
    '110105491331002', // month 13
    '110105490231002', // 31 February (15 digits)
    '110105194902300020', // 30 February (18 digits, right check digit)
    '110105190002290025', // 29 February 1900: not a leap year
    '010105491231002', // leading zero
    '1101051949123100XX',
  ])('rejects %s', (v) => {
    expect(isIdCard(v)).toBe(false)
    expect(validateIdCard(v)).toBe('请输入正确的身份证号')
  })
  it('asks for the number when empty', () => {
    expect(validateIdCard('')).toBe('请输入身份证号')
  })
})

describe('password (6-13 characters mixing letters and digits)', () => {
  it.each(['abc123', 'A1b2C3d4e5f6g', 'pass_w0rd!'])('accepts %s', (v) => {
    expect(isPassword(v)).toBe(true)
    expect(validatePassword(v)).toBeNull()
  })
  it.each([
    ['abcdef', 'no digits'],
    ['123456', 'no letters'],
    ['ab12c', 'five characters'],
    ['a1b2c3d4e5f6g7', 'fourteen characters'],
    ['abc 123', 'a space'],
  ])('rejects %s (%s)', (v) => {
    expect(isPassword(v)).toBe(false)
    expect(validatePassword(v)).toBe('密码需为6-13位，且同时包含字母和数字')
  })
  it('asks for a password when empty', () => {
    expect(validatePassword('')).toBe('请输入密码')
  })
})

describe('verification code (6 digits by default)', () => {
  it('accepts six digits and a custom length', () => {
    expect(isSmsCode('123456')).toBe(true)
    expect(validateSmsCode('123456')).toBeNull()
    expect(validateSmsCode('1234', 4)).toBeNull()
  })
  it('rejects other lengths and letters', () => {
    expect(isSmsCode('12345')).toBe(false)
    expect(validateSmsCode('12345')).toBe('请输入6位数字验证码')
    expect(validateSmsCode('12345a')).toBe('请输入6位数字验证码')
    expect(validateSmsCode('123456', 4)).toBe('请输入4位数字验证码')
    expect(validateSmsCode('')).toBe('请输入验证码')
  })
})

describe('generic checks', () => {
  it('url', () => {
    expect(isUrl('https://example.com/x?y=1')).toBe(true)
    expect(validateUrl('http://a.cn')).toBeNull()
    expect(validateUrl('ftp://a.cn')).toBe('请输入正确的网址（以http://或https://开头）')
    expect(validateUrl('')).toBe('请输入网址')
  })
  it('real name and nickname', () => {
    expect(validateRealName('张三')).toBeNull()
    expect(validateRealName('Zhang')).toBe('请输入2-20位中文真实姓名')
    expect(validateRealName('')).toBe('请输入真实姓名')
    expect(validateName('小明')).toBeNull()
    expect(validateName('字'.repeat(21))).toBe('昵称不能超过20个字')
    expect(validateName('')).toBe('请输入昵称')
  })
})
