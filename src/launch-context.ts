/**
 * What a launch link tells the next login (SPEC 3 "Login request"): `preGroup` (the group a shared
 * link was made for) and `shareUser` (the user id of who shared it). Read from the launch query of
 * either runtime (mini-program launch options, H5 address); anything malformed is left out, so the
 * server's login contract (preGroup ≤ 64 characters, shareUser an integer) never refuses a login over it.
 */
export interface LaunchLoginContext {
  preGroup?: string
  shareUser?: number
}

const PRE_GROUP_MAX = 64

export function launchLoginContext(query: Record<string, string | undefined>): LaunchLoginContext {
  const context: LaunchLoginContext = {}
  const preGroup = query.preGroup?.trim()
  if (
    preGroup &&
    preGroup.length <= PRE_GROUP_MAX &&
    ![...preGroup].some((c) => c.charCodeAt(0) < 0x20)
  ) {
    context.preGroup = preGroup
  }
  const shareUser = Number(query.shareUser)
  if (/^\d{1,10}$/.test(query.shareUser ?? '') && shareUser > 0 && shareUser <= 2 ** 31 - 1) {
    context.shareUser = shareUser
  }
  return context
}
