import { moveInOrder } from '@/pages/Group/parts/group-order'

describe('group order', () => {
  it('swaps a group with its neighbour', () => {
    expect(moveInOrder([1, 2, 3], 1, 'up')).toEqual([2, 1, 3])
    expect(moveInOrder([1, 2, 3], 1, 'down')).toEqual([1, 3, 2])
  })

  it('leaves the order alone at the ends', () => {
    expect(moveInOrder([1, 2, 3], 0, 'up')).toEqual([1, 2, 3])
    expect(moveInOrder([1, 2, 3], 2, 'down')).toEqual([1, 2, 3])
  })
})
