/** Loads many items a few at a time (a batch may hold hundreds of phones). */
export async function loadAll<T>(ids: number[], load: (id: number) => Promise<T>, size = 8) {
  const result: T[] = []
  for (let i = 0; i < ids.length; i += size) {
    result.push(...(await Promise.all(ids.slice(i, i + size).map(load))))
  }
  return result
}
