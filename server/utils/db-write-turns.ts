import type { Client, InStatement, Transaction, TransactionMode } from '@libsql/client'
import { LibsqlError } from '@libsql/client'
import { Mutex, withTimeout, type MutexInterface } from 'async-mutex'

/**
 * Writers of this process take turns here, asynchronously, on a local database file.
 *
 * libsql's local driver runs each statement synchronously on one of a pool of connections. A
 * write that finds another connection of this process holding the write lock (a transaction
 * between two of its awaits) waits in SQLite's busy handler, which blocks the event loop: the
 * holder can never finish, and the waiter fails SQLITE_BUSY when the busy timeout runs out.
 * Worse, the statement that failed stays unreset on its pooled connection (libsql 0.5 resets a
 * statement only when it is garbage-collected): the next transaction there fails "cannot commit
 * transaction - SQL statements in progress", its connection is dropped still holding the write
 * lock, and every writer gets SQLITE_BUSY until the garbage collector runs. Two admin writes that
 * start in one tick are enough (an answer from memory yields to nothing in between): a bulk approve
 * then left 503s for 15 s, and a ten-line script with four concurrent transactions hangs the same way.
 *
 * So one transaction, write batch or write statement at a time, the others waiting here without
 * blocking anything; reads never wait (WAL lets them run beside a writer). A turn not given within
 * the busy timeout fails as SQLITE_BUSY would (the API answers 503 DATABASE_UNAVAILABLE). SQLite's
 * own busy timeout still serves against other processes on the same file.
 */
export function withWriteTurns(client: Client, timeoutMs: number): Client {
  const turns = withTimeout(new Mutex(), timeoutMs, new LibsqlError('SQLITE_BUSY: no write turn within the busy timeout', 'SQLITE_BUSY'))
  const inTurn = <T>(work: () => Promise<T>) => turns.runExclusive(work)
  return new Proxy(client, {
    get(target, property, receiver) {
      switch (property) {
        case 'execute':
          return (statement: InStatement | string, args?: unknown) => {
            const sql = typeof statement === 'string' ? statement : statement.sql
            const run = () => (typeof statement === 'string' ? target.execute(statement, args as never) : target.execute(statement))
            return isReadOnlySql(sql) ? run() : inTurn(run)
          }
        case 'batch':
          return (statements: InStatement[], mode?: TransactionMode) => {
            const run = () => target.batch(statements, mode)
            return mode === 'read' || statements.every(statement => isReadOnlySql(typeof statement === 'string' ? statement : statement.sql)) ? run() : inTurn(run)
          }
        case 'migrate':
          return (statements: InStatement[]) => inTurn(() => target.migrate(statements))
        case 'executeMultiple':
          return (sql: string) => inTurn(() => target.executeMultiple(sql))
        case 'transaction':
          return (mode?: TransactionMode) => (mode === 'read' ? target.transaction(mode) : transactionInTurn(target, turns, mode))
        default: {
          const value = Reflect.get(target, property, receiver)
          return typeof value === 'function' ? value.bind(target) : value
        }
      }
    },
  })
}

/** The turn is held from BEGIN until the transaction commits, rolls back or is closed. */
async function transactionInTurn(client: Client, turns: MutexInterface, mode?: TransactionMode): Promise<Transaction> {
  const release = await turns.acquire()
  let transaction: Transaction
  try {
    transaction = await client.transaction(mode)
  }
  catch (error) {
    release()
    throw error
  }
  let released = false
  const settle = () => {
    if (released) return
    released = true
    release()
  }
  return new Proxy(transaction, {
    get(target, property, receiver) {
      if (property === 'commit' || property === 'rollback') {
        return () => target[property]().finally(settle)
      }
      if (property === 'close') {
        return () => {
          try {
            target.close()
          }
          finally {
            settle()
          }
        }
      }
      const value = Reflect.get(target, property, receiver)
      return typeof value === 'function' ? value.bind(target) : value
    },
  })
}

/**
 * Statements that only read: drizzle writes `select …`; a `with` reads unless it writes. Their
 * values are bound, never in the text, so a keyword here is SQL. Anything else takes a turn.
 */
export function isReadOnlySql(sql: string): boolean {
  return /^\s*select\b/i.test(sql) || (/^\s*with\b/i.test(sql) && !/\b(insert|update|delete|replace)\b/i.test(sql))
}
