/** Group order changes (up/down) as the full id list /group/sort takes. */
export function moveInOrder(ids: number[], index: number, direction: 'up' | 'down'): number[] {
  const target = direction === 'up' ? index - 1 : index + 1
  if (index < 0 || index >= ids.length || target < 0 || target >= ids.length) return ids
  const next = [...ids]
  ;[next[index], next[target]] = [next[target], next[index]]
  return next
}
