import type { Db } from './client'

/**
 * Statements prepared once per connection, for those that run inside transactions.
 *
 * Drizzle prepares a statement on the connection it is built from, so one built on the pool cannot run
 * in a transaction, which holds a connection of its own; and built anew on every call, the statements
 * of an order (among them a 30-column insert) took about 45% of the server's CPU while it created
 * orders. Here each connection keeps the statements built on it: drizzle builds each once per
 * connection and PostgreSQL parses it once per connection. Drizzle has no cache of its own for this.
 * On PGlite every transaction has a connection object of its own, so there they are built per
 * transaction, as before. On the pool (outside a transaction) a statement is kept for the pool.
 *
 * `name` is also PostgreSQL's name for the statement, so it must be unique in the server and always
 * name the same statement.
 */
const statementsByConnection = new WeakMap<object, Map<string, unknown>>()

export function preparedOn<P>(
  db: Db,
  name: string,
  build: (db: Db) => { prepare(name: string): P },
): P {
  // drizzle's session for node-postgres and PGlite keeps the connection (or pool) as `client`
  const connection = (db._.session as unknown as { client?: object }).client
  if (!connection) throw new Error('preparedOn: this drizzle session has no client')
  let statements = statementsByConnection.get(connection)
  if (!statements) {
    statements = new Map()
    statementsByConnection.set(connection, statements)
  }
  let statement = statements.get(name) as P | undefined
  if (!statement) {
    statement = build(db).prepare(name)
    statements.set(name, statement)
  }
  return statement
}
