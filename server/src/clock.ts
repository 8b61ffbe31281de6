/** Time as the server reads it: injected everywhere, so tests and the sandboxes can move it. */
export interface Clock {
  now(): Date
}

export const systemClock: Clock = { now: () => new Date() }
