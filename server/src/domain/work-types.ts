export interface WorkTypePair {
  industryId: number
  worktypeId: number
}

/** SPEC 5: the same industry+work type pair may appear only once. Returns true when a pair repeats. */
export function hasDuplicateWorkType(pairs: readonly WorkTypePair[]): boolean {
  const seen = new Set<string>()
  for (const { industryId, worktypeId } of pairs) {
    const key = `${industryId}:${worktypeId}`
    if (seen.has(key)) return true
    seen.add(key)
  }
  return false
}
