/**
 * Times every statement and transaction this process sends to PostgreSQL (node-postgres), by wrapping
 * pg.Client#query: a transaction runs from its BEGIN to its COMMIT or ROLLBACK, a statement outside one
 * is its own. The longest transaction is the longest any row lock it took was held.
 */
import pg from 'pg'

export interface Timing {
  longestTx: number
  longestStatement: number
  statements: number
  reset(): void
}

export function timing(): Timing {
  const state: Timing = {
    longestTx: 0,
    longestStatement: 0,
    statements: 0,
    reset() {
      state.longestTx = 0
      state.longestStatement = 0
      state.statements = 0
    },
  }
  const began = new WeakMap<object, number>()
  const proto = pg.Client.prototype as unknown as { query: (...args: unknown[]) => unknown }
  const original = proto.query
  proto.query = function (this: object, ...args: unknown[]) {
    const first = args[0] as string | { text?: string } | undefined
    const text = (typeof first === 'string' ? first : (first?.text ?? '')).trim().toLowerCase()
    const start = performance.now()
    const done = () => {
      const end = performance.now()
      state.statements++
      state.longestStatement = Math.max(state.longestStatement, end - start)
      if (text.startsWith('begin')) began.set(this, start)
      else if (text.startsWith('commit') || text.startsWith('rollback')) {
        const from = began.get(this)
        if (from !== undefined) state.longestTx = Math.max(state.longestTx, end - from)
        began.delete(this)
      } else if (!began.has(this)) state.longestTx = Math.max(state.longestTx, end - start)
    }
    // pg.Pool#query calls the client with a callback; drizzle's transactions use the promise
    const last = args.length - 1
    if (typeof args[last] === 'function') {
      const callback = args[last] as (...results: unknown[]) => void
      args[last] = (...results: unknown[]) => {
        done()
        callback(...results)
      }
      return original.apply(this, args)
    }
    const result = original.apply(this, args)
    if (!result || typeof (result as Promise<unknown>).then !== 'function') return result
    return (result as Promise<unknown>).then(
      (value) => {
        done()
        return value
      },
      (error: unknown) => {
        done()
        throw error
      },
    )
  }
  return state
}
