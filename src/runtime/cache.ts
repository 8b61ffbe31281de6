/** A value cache with a lifetime, on an injected clock. Concurrent loads of one key share a request. */
export function createTtlCache<V>(ttlMs: number, now: () => number) {
  const entries = new Map<string, { value: V; at: number }>()
  const pending = new Map<string, Promise<V>>()

  return {
    async get(key: string, load: () => Promise<V>): Promise<V> {
      const hit = entries.get(key)
      if (hit && now() - hit.at < ttlMs) return hit.value
      const running = pending.get(key)
      if (running) return running
      const promise = load()
        .then((value) => {
          entries.set(key, { value, at: now() })
          return value
        })
        .finally(() => pending.delete(key))
      pending.set(key, promise)
      return promise
    },
    clear(key?: string) {
      if (key === undefined) entries.clear()
      else entries.delete(key)
    },
  }
}
