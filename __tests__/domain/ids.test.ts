import { createUsageLogId } from '@/domain/usage-log-id'
import { versionCode } from '@/domain/version-code'
import {
  addWorkType,
  hasDuplicateWorkType,
  removeWorkType,
  type WorkTypeEntry,
} from '@/domain/work-types'

describe('versionCode', () => {
  it('pads each part to 3 digits and joins them', () => {
    expect(versionCode('2.4.8')).toBe('002004008')
    expect(versionCode('1.0.0')).toBe('001000000')
    expect(versionCode('10.12.123')).toBe('010012123')
  })
})

describe('usage log id', () => {
  it('joins the timestamp, the user id padded to 10 digits and a 7-digit random', () => {
    const log = createUsageLogId(1750000000000, 42, () => 0.5)
    expect(log).toEqual({ time: 1750000000000, id: '1750000000000_0000000042_5500000' })
  })
  it('always gives seven random digits', () => {
    expect(createUsageLogId(1, 1, () => 0).id).toMatch(/^1_0000000001_\d{7}$/)
    expect(createUsageLogId(1, 1, () => 0.9999999).id).toMatch(/^1_0000000001_\d{7}$/)
  })
  it('pads a missing user id with zeros', () => {
    expect(createUsageLogId(5, null, () => 0).id).toBe('5_0000000000_1000000')
  })
})

describe('work types', () => {
  let n = 0
  const key = () => `k${++n}`
  const base: WorkTypeEntry[] = [{ industryId: 1, worktypeId: 11, key: 'a' }]

  it('appends a new pair with a generated key without changing the input', () => {
    const result = addWorkType(base, { industryId: 1, worktypeId: 12 }, key)
    expect(result.ok).toBe(true)
    if (result.ok) {
      expect(result.list).toHaveLength(2)
      expect(result.list[1]).toMatchObject({ industryId: 1, worktypeId: 12 })
      expect(result.list[1].key).toMatch(/^k\d+$/)
    }
    expect(base).toHaveLength(1)
  })
  it('rejects a duplicate industry/work-type pair with 请勿重复添加', () => {
    expect(addWorkType(base, { industryId: 1, worktypeId: 11 }, key)).toEqual({
      ok: false,
      error: '请勿重复添加',
    })
    expect(addWorkType(base, { industryId: '1', worktypeId: '11' }, key).ok).toBe(false)
  })
  it('removes an entry by its key', () => {
    const list = [...base, { industryId: 2, worktypeId: 21, key: 'b' }]
    expect(removeWorkType(list, 'a')).toEqual([{ industryId: 2, worktypeId: 21, key: 'b' }])
    expect(removeWorkType(list, 'zzz')).toHaveLength(2)
  })
  it('detects a duplicate in a submitted list', () => {
    expect(
      hasDuplicateWorkType([
        { industryId: 1, worktypeId: 2 },
        { industryId: 1, worktypeId: 3 },
      ]),
    ).toBe(false)
    expect(
      hasDuplicateWorkType([
        { industryId: 1, worktypeId: 2 },
        { industryId: 1, worktypeId: 2 },
      ]),
    ).toBe(true)
  })
})
