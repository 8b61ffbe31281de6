/** The app library's shared rules (src/domain/apps.ts): 安装中 n/N and the sum, package names, refusals. */
import {
  APK_QUOTA,
  APK_REFUSALS,
  INSTALL_SKIPS,
  installProgressText,
  PACKAGE_NAME,
} from '@/domain/apps'

describe('installProgressText', () => {
  const counts = { total: 10, done: 0, installed: 0, failed: 0, skipped: 0 }

  it('says 安装中 n/N while any phone has no result', () => {
    expect(installProgressText(counts)).toBe('安装中 0/10')
    expect(installProgressText({ ...counts, done: 9, installed: 7, skipped: 2 })).toBe(
      '安装中 9/10',
    )
  })

  it('sums the batch once every phone has its result, naming only what happened', () => {
    expect(installProgressText({ ...counts, done: 10, installed: 10 })).toBe('安装完成：成功 10')
    expect(installProgressText({ ...counts, done: 10, installed: 6, failed: 1, skipped: 3 })).toBe(
      '安装完成：成功 6，失败 1，跳过 3',
    )
    expect(installProgressText({ ...counts, done: 10, skipped: 10 })).toBe(
      '安装完成：成功 0，跳过 10',
    )
  })
})

describe('package names and the words of refusals', () => {
  it('takes Java identifiers joined by dots, at least two', () => {
    for (const name of ['com.tencent.mm', 'a.b', 'com.example_1.App2']) {
      expect(PACKAGE_NAME.test(name)).toBe(true)
    }
    for (const name of ['demo', '1com.example', 'com..example', 'com.example/evil', '.com.x']) {
      expect(PACKAGE_NAME.test(name)).toBe(false)
    }
  })

  it('says the quota and the limits in the numbers the server applies', () => {
    expect(APK_REFUSALS.quotaBytes).toBe(
      `今日上传安装包已超过${APK_QUOTA.bytes / 1024 / 1024}MB，请明天再试`,
    )
    expect(APK_REFUSALS.tooLarge).toBe('安装包不能超过100MB')
    expect(Object.values(INSTALL_SKIPS)).toEqual([
      '不是你的云手机',
      '仅有查看权限',
      '云手机已到期',
      '云手机未开机',
    ])
  })
})
