import type { WorkTypeEntry, WorkTypePair } from '@/domain/work-types'

/** A dictionary entry as the common service returns it (label is the entry's name). */
export interface DictItem {
  id: number
  label: string
  parentId: number | null
}

export interface CascadeOption {
  label: string
  value: number
  children?: CascadeOption[]
}

/** Industry → work type options for a cascading picker; industries without work types are left out. */
export function buildWorkTypeOptions(
  industries: DictItem[],
  worktypes: DictItem[],
): CascadeOption[] {
  return industries
    .map((industry) => ({
      label: industry.label,
      value: industry.id,
      children: worktypes
        .filter((w) => w.parentId === industry.id)
        .map((w) => ({ label: w.label, value: w.id })),
    }))
    .filter((option) => option.children.length > 0)
}

/** '互联网 / 运营' for a pair, falling back to ids when the dictionary does not know them. */
export function workTypeLabel(
  pair: WorkTypePair,
  industries: DictItem[],
  worktypes: DictItem[],
): string {
  const industry = industries.find((i) => String(i.id) === String(pair.industryId))
  const worktype = worktypes.find((w) => String(w.id) === String(pair.worktypeId))
  return `${industry?.label ?? `行业${pair.industryId}`} / ${worktype?.label ?? `工种${pair.worktypeId}`}`
}

let seq = 0
export const newWorkTypeKey = () => `wt-${Date.now()}-${(seq += 1)}`

export const withKeys = (pairs: WorkTypePair[]): WorkTypeEntry[] =>
  pairs.map((pair) => ({ ...pair, key: newWorkTypeKey() }))
