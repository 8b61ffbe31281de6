import {
  filtersKey,
  fleetQuery,
  groupFilterOf,
  normaliseKeyword,
  viewTypeOf,
} from '@/domain/fleet-query'

describe('fleet filters to /device/list query', () => {
  it('sends nothing for all groups, all versions and no keyword', () => {
    expect(fleetQuery({ groupId: null, version: 0, keyword: '  ' })).toEqual({})
  })

  it('sends groupId 0 for 未分组 and the chosen version and trimmed keyword', () => {
    expect(fleetQuery({ groupId: 0, version: 2, keyword: ' 云手机-12 ' })).toEqual({
      groupId: 0,
      version: 2,
      keyword: '云手机-12',
    })
  })

  it('gives the same key for filters that make the same query', () => {
    expect(filtersKey({ groupId: 3, version: 0, keyword: 'a ' })).toBe(
      filtersKey({ groupId: 3, version: 0, keyword: ' a' }),
    )
    expect(filtersKey({ groupId: 3, version: 0, keyword: '' })).not.toBe(
      filtersKey({ groupId: 0, version: 0, keyword: '' }),
    )
  })

  it('reads a remembered group id stored as number or string, anything else means all', () => {
    expect(groupFilterOf(5)).toBe(5)
    expect(groupFilterOf('0')).toBe(0)
    expect(groupFilterOf(null)).toBeNull()
    expect(groupFilterOf('abc')).toBeNull()
    expect(groupFilterOf(-1)).toBeNull()
  })

  it('caps the keyword at 30 characters', () => {
    expect(normaliseKeyword('x'.repeat(40))).toHaveLength(30)
  })

  it('reads the remembered view type, single unless multi', () => {
    expect(viewTypeOf(1)).toBe(1)
    expect(viewTypeOf('1')).toBe(1)
    expect(viewTypeOf(undefined)).toBe(0)
    expect(viewTypeOf(7)).toBe(0)
  })
})
