/** What a step of the check is, and how it fails: a CheckFailed's message is printed without a stack. */
export class CheckFailed extends Error {}

export const fail = (message) => {
  throw new CheckFailed(message)
}

export const expect = (condition, message) => condition || fail(message)

/** One named step; the entry runs them in its order and stops at the first that throws. */
export const step = (name, fn) => ({ name, fn })
