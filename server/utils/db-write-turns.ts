import type { Client, InStatement, ResultSet, Transaction, TransactionMode } from '@libsql/client'
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
 *
 * Single write statements waiting for a turn go together (group commit, `groupedWrites`): each
 * commit of its own waits for the disk (fsync) with the event loop blocked, 7–20 ms on a busy
 * machine, so 300 guests' inits in a burst queued for seconds behind one another's commits.
 */
export function withWriteTurns(client: Client, timeoutMs: number): Client {
  const turns = withTimeout(new Mutex(), timeoutMs, new LibsqlError('SQLITE_BUSY: no write turn within the busy timeout', 'SQLITE_BUSY'))
  const inTurn = <T>(work: () => Promise<T>) => turns.runExclusive(work)
  const writeStatement = groupedWrites(client, inTurn)
  return new Proxy(client, {
    get(target, property, receiver) {
      switch (property) {
        case 'execute':
          return (statement: InStatement | string, args?: unknown) => {
            const sql = typeof statement === 'string' ? statement : statement.sql
            const run = () => (typeof statement === 'string' ? target.execute(statement, args as never) : target.execute(statement))
            if (isReadOnlySql(sql)) return run()
            if (!isRowWriteSql(sql)) return inTurn(run)
            return writeStatement(typeof statement === 'string' ? { sql: statement, args: (args ?? []) as never } : statement)
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

/** At most this many statements share a commit: the event loop is blocked while they run. */
const MAX_GROUP = 100

interface WaitingWrite {
  statement: InStatement
  resolve: (result: ResultSet) => void
  reject: (error: unknown) => void
}

/**
 * Group commit of single write statements. The first statement that finds none waiting asks for a
 * turn once this turn of the event loop has read what arrived; those that arrive until the turn is
 * given wait with it, and all of them run in one write
 * transaction (`batch`, on one connection: one commit, one fsync). Each statement's caller gets
 * its own result only after that commit, so an answer never reports a write that is not durable.
 * A group that fails (a statement's error rolls back the whole batch) is run again statement by
 * statement in the same turn, so each caller gets exactly the result or the error its statement
 * would have had alone. Statements of one caller never share a group (each awaits the last), and
 * statements of different callers were concurrent anyway: their order within a group is the order
 * they were asked in.
 */
function groupedWrites(client: Client, inTurn: <T>(work: () => Promise<T>) => Promise<T>) {
  const waiting: WaitingWrite[] = []
  const runGroup = async () => {
    const group = waiting.splice(0, MAX_GROUP)
    if (waiting.length > 0) askForTurn()
    if (group.length === 1) {
      await client.execute(group[0]!.statement).then(group[0]!.resolve, group[0]!.reject)
      return
    }
    const results = await client.batch(group.map(write => write.statement), 'write').catch(() => null)
    if (results) {
      group.forEach((write, index) => write.resolve(results[index]!))
      return
    }
    for (const write of group) await client.execute(write.statement).then(write.resolve, write.reject)
  }
  function askForTurn() {
    // After the I/O callbacks of this turn of the event loop: a statement runs synchronously, so
    // requests read meanwhile reach their writes only then, and join this group instead of each
    // waiting for a commit of its own. Only the turn itself can fail here (not given within the
    // busy timeout): every statement still waiting then fails as SQLITE_BUSY would have failed it.
    setImmediate(() => {
      inTurn(runGroup).catch((error: unknown) => {
        for (const write of waiting.splice(0)) write.reject(error)
      })
    })
  }
  return (statement: InStatement) => new Promise<ResultSet>((resolve, reject) => {
    waiting.push({ statement, resolve, reject })
    if (waiting.length === 1) askForTurn()
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

/**
 * Statements that write rows and may share a transaction with others (`groupedWrites`): a PRAGMA
 * (the journal mode cannot change inside one), BEGIN and the like run alone in their turn.
 */
export function isRowWriteSql(sql: string): boolean {
  return /^\s*(insert|update|delete|replace)\b/i.test(sql) || (/^\s*with\b/i.test(sql) && /\b(insert|update|delete|replace)\b/i.test(sql))
}
