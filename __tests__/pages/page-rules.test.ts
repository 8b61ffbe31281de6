import { checkPasswordForm } from '@/pages/user/parts/password/password-rules'
import { checkDeletionRequest } from '@/pages/user/parts/deletion'
import {
  buildWorkTypeOptions,
  workTypeLabel,
} from '@/pages/user/parts/personal-data/work-type-options'
import { weappLabel, weappState } from '@/pages/user/parts/permissions/permission-items'
import { categoryOf } from '@/pages/user/parts/messages/message-categories'
import { checkFeedback } from '@/pages/CustomerService/parts/feedback-rules'
import { PROTOCOLS, protocolIndex } from '@/pages/webView/parts/protocol-content'

describe('set-password form', () => {
  it('asks for the confirmation, then a match', () => {
    expect(checkPasswordForm({ newPassword: 'abc123', confirmPassword: '' })).toBe(
      '请再次输入新密码',
    )
    expect(checkPasswordForm({ newPassword: 'abc123', confirmPassword: 'abc124' })).toBe(
      '两次输入的密码不一致',
    )
    expect(checkPasswordForm({ newPassword: 'abc123', confirmPassword: 'abc123' })).toBeNull()
  })

  it('rejects a password of 14 characters', () => {
    const long = 'abcdefg1234567'
    expect(checkPasswordForm({ newPassword: long, confirmPassword: long })).toBe(
      '密码需为6-13位，且同时包含字母和数字',
    )
  })
})

describe('account deletion request', () => {
  it('needs the checkbox first, then a 6-digit code', () => {
    expect(checkDeletionRequest(false, '123456')).toMatch('我已阅读并知晓注销后果')
    expect(checkDeletionRequest(true, '12345')).toBe('请输入6位数字验证码')
    expect(checkDeletionRequest(true, '123456')).toBeNull()
  })
})

describe('feedback', () => {
  it('takes 5 to 500 characters, contact optional', () => {
    expect(checkFeedback('   ', '')).toBe('请输入反馈内容')
    expect(checkFeedback('太卡了', '')).toBe('反馈内容至少5个字')
    expect(checkFeedback('云手机经常断开连接', '')).toBeNull()
    expect(checkFeedback('好'.repeat(501), '')).toBe('反馈内容不能超过500个字')
    expect(checkFeedback('云手机经常断开连接', 'x'.repeat(65))).toBe('联系方式不能超过64个字')
  })
})

describe('industry and work type picker', () => {
  const industries = [
    { id: 1, label: '互联网', parentId: null },
    { id: 2, label: '零售', parentId: null },
  ]
  const worktypes = [
    { id: 11, label: '运营', parentId: 1 },
    { id: 12, label: '开发', parentId: 1 },
  ]

  it('cascades work types under their industry and drops industries without any', () => {
    expect(buildWorkTypeOptions(industries, worktypes)).toEqual([
      {
        label: '互联网',
        value: 1,
        children: [
          { label: '运营', value: 11 },
          { label: '开发', value: 12 },
        ],
      },
    ])
  })

  it('names a pair from the dictionary', () => {
    expect(workTypeLabel({ industryId: 1, worktypeId: 12 }, industries, worktypes)).toBe(
      '互联网 / 开发',
    )
  })
})

describe('permissions and messages', () => {
  it('reads mini-program auth settings as 已授权 / 未授权', () => {
    expect(weappLabel(weappState(true))).toBe('已授权')
    expect(weappLabel(weappState(false))).toBe('未授权')
    expect(weappLabel(weappState(undefined))).toBe('未授权')
  })

  it('knows the five message categories and locks only system messages', () => {
    expect(categoryOf('2')?.label).toBe('续费提醒')
    expect(categoryOf(9)).toBeUndefined()
    expect(categoryOf(5)?.locked).toBe(true)
  })
})

describe('agreements', () => {
  it('opens the privacy policy for type=privacy and the user agreement otherwise', () => {
    expect(PROTOCOLS[protocolIndex('privacy')].title).toBe('云手机隐私政策')
    expect(PROTOCOLS[protocolIndex(undefined)].title).toBe('云手机用户服务协议')
    expect(PROTOCOLS[protocolIndex('nonsense')].title).toBe('云手机用户服务协议')
  })

  it('says devices are kept 2 hours after expiry', () => {
    const fees = PROTOCOLS[0].sections.find((s) => s.heading.includes('费用与续费'))
    expect(fees?.paragraphs.join('')).toContain('保留2小时')
  })
})
