import { MAX_BATCH, summariseBatch, validateBatchSelection } from '@/domain/batch-results'

const ok = (deviceId: number) => ({ deviceId, ok: true, msg: '操作成功' })
const fail = (deviceId: number, msg: string) => ({ deviceId, ok: false, msg })

describe('summariseBatch', () => {
  it('all succeeded: only the success count', () => {
    const s = summariseBatch([ok(1), ok(2), ok(3)])
    expect(s).toEqual({ okCount: 3, failCount: 0, text: '3台成功', failures: [] })
  })
  it('mixed: both counts, failures grouped by message in the order first met', () => {
    const s = summariseBatch([
      ok(1),
      fail(2, '云手机已到期，请续费后再操作'),
      fail(3, '云手机已释放'),
      ok(4),
      fail(5, '云手机已到期，请续费后再操作'),
    ])
    expect(s.okCount).toBe(2)
    expect(s.failCount).toBe(3)
    expect(s.text).toBe('2台成功，3台失败')
    expect(s.failures).toEqual([
      { msg: '云手机已到期，请续费后再操作', deviceIds: [2, 5] },
      { msg: '云手机已释放', deviceIds: [3] },
    ])
  })
  it('all failed: only the failure count', () => {
    expect(summariseBatch([fail(1, 'x'), fail(2, 'x')]).text).toBe('2台失败')
  })
})

describe('validateBatchSelection', () => {
  it('asks for a selection when none is made', () => {
    expect(validateBatchSelection([])).toBe('请选择云手机')
  })
  it(`accepts up to ${MAX_BATCH} phones and refuses one more`, () => {
    const ids = Array.from({ length: MAX_BATCH }, (_, i) => i + 1)
    expect(validateBatchSelection(ids)).toBeNull()
    expect(validateBatchSelection([...ids, MAX_BATCH + 1])).toBe('一次最多操作500台')
  })
  it('counts a phone selected twice once', () => {
    const ids = Array.from({ length: MAX_BATCH }, (_, i) => i + 1)
    expect(validateBatchSelection([...ids, 1])).toBeNull()
  })
  it('refuses ids that are not positive integers', () => {
    expect(validateBatchSelection([1, 0])).toBe('云手机编号无效')
    expect(validateBatchSelection([1.5])).toBe('云手机编号无效')
  })
})
