/** SPEC 4 "Work-type list" and SPEC 5: a duplicate industry/work-type pair is rejected. */
export interface WorkTypePair {
  industryId: number | string
  worktypeId: number | string
}

export interface WorkTypeEntry extends WorkTypePair {
  key: string
}

export const DUPLICATE_WORK_TYPE_MESSAGE = '请勿重复添加'

export type AddWorkTypeResult =
  { ok: true; list: WorkTypeEntry[] } | { ok: false; error: typeof DUPLICATE_WORK_TYPE_MESSAGE }

const samePair = (a: WorkTypePair, b: WorkTypePair) =>
  String(a.industryId) === String(b.industryId) && String(a.worktypeId) === String(b.worktypeId)

/** True when some pair appears twice (the server checks a whole submitted list with this). */
export function hasDuplicateWorkType(list: readonly WorkTypePair[]): boolean {
  return list.some((item, i) => list.findIndex((other) => samePair(item, other)) !== i)
}

/** Returns a new list with the entry appended, or the 请勿重复添加 error. The input is not changed. */
export function addWorkType(
  list: readonly WorkTypeEntry[],
  pair: WorkTypePair,
  makeKey: () => string,
): AddWorkTypeResult {
  if (list.some((item) => samePair(item, pair))) {
    return { ok: false, error: DUPLICATE_WORK_TYPE_MESSAGE }
  }
  const entry: WorkTypeEntry = {
    industryId: pair.industryId,
    worktypeId: pair.worktypeId,
    key: makeKey(),
  }
  return { ok: true, list: [...list, entry] }
}

export function removeWorkType(list: readonly WorkTypeEntry[], key: string): WorkTypeEntry[] {
  return list.filter((item) => item.key !== key)
}
