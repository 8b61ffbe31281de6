/**
 * Sessions this instance has looked up recently, so a burst of calls with one token asks the database
 * once. An entry is trusted for `ttlMs` at most, and never past the token's own expiry.
 *
 * Revocations made through this instance take effect at once: `change` drops entries before and after
 * the revoking transaction, and a lookup that overlapped any change is not stored (it may have read the
 * old row). A change made elsewhere — another instance on the same PostgreSQL, or an operator freezing
 * an account in SQL — is seen here within `ttlMs`.
 */
export class SessionCache<T extends { userId: number; tokenId: number }> {
  private readonly entries = new Map<string, { value: T; expiresAt: number; storedAt: number }>()
  /** Bumped by every change, so a lookup that started before one is not stored. */
  private generation = 0
  /** Changes under way (their transactions may not have committed yet). */
  private changingCount = 0

  constructor(
    private readonly ttlMs: number,
    private readonly maxEntries: number,
  ) {}

  get(key: string, now: number): T | null {
    const entry = this.entries.get(key)
    if (!entry) return null
    if (now >= entry.expiresAt || now - entry.storedAt >= this.ttlMs || now < entry.storedAt) {
      this.entries.delete(key)
      return null
    }
    return entry.value
  }

  /** A token for `store`: the lookup it covers must start after this call. */
  begin(): number {
    return this.generation
  }

  /** Keeps a looked-up session unless a change started or ran since `begin`. */
  store(key: string, value: T, expiresAt: number, now: number, begun: number) {
    if (this.ttlMs <= 0 || begun !== this.generation || this.changingCount > 0) return
    this.entries.delete(key)
    this.entries.set(key, { value, expiresAt, storedAt: now })
    // Map keeps insertion order: the first key is the oldest entry
    if (this.entries.size > this.maxEntries) this.entries.delete(this.entries.keys().next().value!)
  }

  /** Runs `revoke` (which may be a transaction) with the matching entries dropped before and after it. */
  async change<R>(matches: (value: T) => boolean, revoke: () => Promise<R>): Promise<R> {
    this.changingCount++
    this.drop(matches)
    try {
      return await revoke()
    } finally {
      this.changingCount--
      this.drop(matches)
    }
  }

  get size() {
    return this.entries.size
  }

  /** Whether a change is under way (revocations check they run inside one). */
  get changing() {
    return this.changingCount > 0
  }

  private drop(matches: (value: T) => boolean) {
    this.generation++
    for (const [key, entry] of this.entries) if (matches(entry.value)) this.entries.delete(key)
  }
}
