import {
  MAX_BATCH,
  MAX_RENEW_BATCH,
  validateBatchSelection,
  validateRenewSelection,
} from '@/domain/batch-results'
import { actionQuery, URL_DEVICE_IDS_MAX } from '@/pages/Home/parts/fleet/action-routes'

const ids = (n: number) => Array.from({ length: n }, (_, i) => i + 1)

describe('a studio renews up to MAX_RENEW_BATCH phones at once', () => {
  it('takes a whole studio for a renewal, the command bound for the rest', () => {
    expect(MAX_RENEW_BATCH).toBe(10_000)
    expect(validateRenewSelection(ids(MAX_RENEW_BATCH))).toBeNull()
    expect(validateRenewSelection(ids(MAX_RENEW_BATCH + 1))).toBe('一次最多操作10000台')
    expect(validateBatchSelection(ids(MAX_BATCH + 1))).toBe(`一次最多操作${MAX_BATCH}台`)
    expect(validateRenewSelection([])).toBe('请选择云手机')
    expect(validateRenewSelection([1, 0])).toBe('云手机编号无效')
  })

  it('hands a large renewal over as the fleet selection, not a 60 KB address', () => {
    expect(actionQuery('renew', ids(URL_DEVICE_IDS_MAX))).toEqual({
      deviceIds: ids(URL_DEVICE_IDS_MAX).join(','),
    })
    expect(actionQuery('renew', ids(URL_DEVICE_IDS_MAX + 1))).toEqual({ selection: '1' })
    expect(actionQuery('moveGroup', ids(300)).deviceIds).toHaveLength(ids(300).join(',').length)
  })
})
