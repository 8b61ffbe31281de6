/**
 * Multi-select of the fleet: pure set operations (a new Set each time so observers see the change),
 * and the `deviceIds=1,2,3` query a selection travels in to the pages that act on several phones.
 */
export type Selection = ReadonlySet<number>

export const toggle = (selection: Selection, id: number): Set<number> => {
  const next = new Set(selection)
  if (next.has(id)) next.delete(id)
  else next.add(id)
  return next
}

export const selectAll = (ids: number[]): Set<number> => new Set(ids)

/** Only ids still in the list stay selected (after a reload or a filter change). */
export const keepExisting = (selection: Selection, ids: number[]): Set<number> => {
  const present = new Set(ids)
  return new Set([...selection].filter((id) => present.has(id)))
}

/** 全选 is ticked when every phone of the list (all `total`, not just loaded ones) is selected. */
export const allSelected = (selection: Selection, total: number) =>
  total > 0 && selection.size >= total

export const selectedIds = (selection: Selection): number[] => [...selection].sort((a, b) => a - b)

/** A page's `deviceIds` as it arrives: the mini-program hands query values over still percent-encoded. */
function decodeQueryValue(value: string): string {
  try {
    return decodeURIComponent(value)
  } catch {
    return value // a stray '%' is junk to drop below, not a crash
  }
}

/**
 * '1,2,3' (or '1%2C2%2C3', as url() encodes it) → [1, 2, 3]; repeats and anything that is not a
 * positive whole number are dropped.
 */
export function parseDeviceIds(value: string | undefined): number[] {
  return [
    ...new Set(
      decodeQueryValue(String(value ?? ''))
        .split(',')
        .map((part) => Number(part.trim()))
        .filter((id) => Number.isInteger(id) && id > 0),
    ),
  ]
}
