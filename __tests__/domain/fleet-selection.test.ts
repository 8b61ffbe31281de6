import {
  allSelected,
  keepExisting,
  parseDeviceIds,
  selectAll,
  selectedIds,
  toggle,
} from '@/domain/fleet-selection'

describe('fleet selection', () => {
  it('toggles a phone in and out without changing the original set', () => {
    const start = new Set([1])
    const added = toggle(start, 2)
    expect(selectedIds(added)).toEqual([1, 2])
    expect(selectedIds(toggle(added, 1))).toEqual([2])
    expect(selectedIds(start)).toEqual([1])
  })

  it('全选 is ticked only when every phone of the list is selected', () => {
    expect(allSelected(selectAll([1, 2, 3]), 3)).toBe(true)
    expect(allSelected(selectAll([1, 2]), 3)).toBe(false)
    expect(allSelected(new Set(), 0)).toBe(false)
  })

  it('forgets phones that left the list', () => {
    expect(selectedIds(keepExisting(new Set([1, 2, 3]), [2, 3, 4]))).toEqual([2, 3])
  })

  it('lists ids in ascending order', () => {
    expect(selectedIds(new Set([9, 2, 5]))).toEqual([2, 5, 9])
  })

  it('reads the deviceIds a page receives, encoded or not, dropping junk and repeats', () => {
    expect(parseDeviceIds('1, 2,2,x,-4,0,3.5,7')).toEqual([1, 2, 7])
    expect(parseDeviceIds('1,2,x,2,%203')).toEqual([1, 2, 3])
    // the mini-program passes url()'s encoding through: 1%2C2 is two phones, not junk
    expect(parseDeviceIds('1%2C2%2C3')).toEqual([1, 2, 3])
    expect(parseDeviceIds('5,%')).toEqual([5])
    expect(parseDeviceIds(undefined)).toEqual([])
  })
})
