import {
  CONTENT_CONTROL_CHARACTERS,
  TITLE_CONTROL_CHARACTERS,
} from '@/domain/console/operator-messages'

describe('the control characters an operator message may not carry', () => {
  it('refuses NUL, line breaks and DEL in a title', () => {
    for (const text of ['a\u0000b', '第一行\n第二行', 'tab\there', 'del\u007f'])
      expect(TITLE_CONTROL_CHARACTERS.test(text)).toBe(true)
    expect(TITLE_CONTROL_CHARACTERS.test('系统维护通知 2026-12-05')).toBe(false)
  })

  it('lets a body have tabs and line feeds but not NUL, carriage returns or DEL', () => {
    expect(CONTENT_CONTROL_CHARACTERS.test('第一行\n\t第二行')).toBe(false)
    for (const text of ['a\u0000b', 'windows\r\n', 'bell\u0007', 'del\u007f'])
      expect(CONTENT_CONTROL_CHARACTERS.test(text)).toBe(true)
  })
})
