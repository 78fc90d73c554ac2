// One shard of a FilterReplica: an in-process CuckooFilter started from a
// snapshot of the shard (its chunks, its log's count and last entry, read in
// one script) and kept current by the shard's change log (CHANGE-LOG.md),
// read with XREAD BLOCK on a connection of its own. Each record is also
// published as it is made (CHANGE-LOG.md): a follower subscribed applies it
// from the message at once, without asking (a read waits behind every script
// the server runs before it, a message leaves with the write's reply), and
// passes over it when its read brings it again. The log decides: a message
// that is not the next record is left to the read. Anything it cannot follow
// exactly — a gap in the records' counts (a trimmed log, a server restarted on
// older data), a record that does not parse or apply, a broken connection —
// makes it load a new snapshot; only a filter that is gone (dropped, or its
// name reused) stops it, as its failure.

import { CuckooFilter, CuckooFilterError, FormatError } from '../index.js';
import { replaceBuckets } from '../parts.js';
import { filterFromChunks } from './admin.js';
import { decodeRecord, recordReader, type RecordReader } from './change-log.js';
import { replyText, type DuplicateConnection } from './connection.js';
import { AT } from './layout.js';
import { checkFilterId, commandError, type OpenedFilter } from './opened.js';
import { runScript, SCRIPTS } from './scripts.js';

/** Records asked for per read: a reply of a few MB at most. */
const READ_COUNT = 256;
/** How long a read waits for a change before it asks again (and shows it is alive). */
const BLOCK_MS = 2000;
/** Without a connection of its own (RedisConnection.duplicate), how often it asks. */
const POLL_MS = 10;
/** After a failed read or snapshot: waits from 20 ms, doubling to 1 s. */
const FIRST_RETRY_MS = 20;
const LAST_RETRY_MS = 1000;
/** A stream entry ID is at most 41 characters (two 64-bit numbers and a dash). */
const MAX_ID_LENGTH = 41;
/** Records told by message and not yet read again from the log: past this many, forgotten (their reads then reload). */
const MAX_TOLD = 10_000;
const SPACE = 0x20;
const textDecoder = new TextDecoder();

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

interface Waiter {
  readonly seq: number;
  resolve(): void;
  reject(error: unknown): void;
}

/** Errors after which following cannot go on: the filter is gone or not one a replica can follow. */
function isFatal(error: unknown): boolean {
  return error instanceof CuckooFilterError;
}

export class ShardFollower {
  readonly #opened: OpenedFilter;
  readonly #shard: number;
  readonly #what: string;
  readonly #reader: RecordReader;
  readonly #logKey: string;
  #connection: DuplicateConnection | undefined;
  #filter: CuckooFilter;
  /** The `seq` of the last record applied (the snapshot's, after a reload). */
  #applied: number;
  #lastId: string;
  /** How to subscribe to the shard's channel on its server (the snapshot says). */
  readonly #subscribeCommand: 'SSUBSCRIBE' | 'SUBSCRIBE';
  /** The records applied from messages, by entry ID, until the log's read brings them again. */
  #told = new Map<string, number>();
  #reloads = 0;
  #mustReload = false;
  /** Whether it holds every change as of its last contact with the server, and since when it does or did. */
  #current = true;
  #currentAt = Date.now();
  #waiters: Waiter[] = [];
  #stopped = false;
  #failure: Error | undefined;
  #loop: Promise<void> | undefined;

  private constructor(opened: OpenedFilter, shard: number, what: string, snapshot: Snapshot) {
    this.#opened = opened;
    this.#shard = shard;
    this.#what = what;
    this.#reader = recordReader(opened.layout, shard);
    this.#logKey = opened.logKeys[shard]![0];
    this.#filter = snapshot.filter;
    this.#applied = snapshot.seq;
    this.#lastId = snapshot.lastId;
    this.#subscribeCommand = snapshot.subscribeCommand;
  }

  /** A follower of shard `shard`, from its first snapshot; it follows the log once `start` is called. */
  static async open(opened: OpenedFilter, shard: number, what: string): Promise<ShardFollower> {
    return new ShardFollower(opened, shard, what, await takeSnapshot(opened, shard, what));
  }

  /**
   * Starts following, on a connection of its own when the client can make
   * one, and told of each record on `subscriber` when given.
   */
  async start(subscriber: DuplicateConnection | undefined): Promise<void> {
    const { connection } = this.#opened;
    try {
      await subscriber?.subscribe?.(this.#logKey, this.#subscribeCommand, (message) => this.#hear(message));
    } catch {
      // Not told (a server or ACL that refuses the subscription): the reads bring every record all the same.
    }
    if (connection.duplicate !== undefined) this.#connection = await connection.duplicate();
    this.#loop = this.#follow();
  }

  /**
   * A message on the shard's channel: \`<entry ID> <record>\`. Applied when it
   * is the next record; anything else (a record further on, one read
   * already, one that does not apply, a message that is not a record) is
   * left to the log's read, which brings every record.
   */
  #hear(message: Uint8Array): void {
    if (this.#stopped || this.#mustReload) return;
    const space = message.indexOf(SPACE);
    if (space <= 0 || space > MAX_ID_LENGTH) return;
    const record = decodeRecord(this.#reader, message.subarray(space + 1));
    if (typeof record === 'string' || record.seq !== this.#applied + 1) return;
    try {
      replaceBuckets(this.#filter, record, this.#what);
    } catch {
      return; // nothing written: the read meets the record and settles it
    }
    this.#applied = record.seq;
    if (this.#told.size >= MAX_TOLD) this.#told.clear();
    this.#told.set(textDecoder.decode(message.subarray(0, space)), record.seq);
    this.#settleWaiters();
  }

  get filter(): CuckooFilter {
    return this.#filter;
  }
  /** Whether its filter may be asked: neither failed nor stopped (read on every lookup, so a field). */
  usable = true;
  get reloads(): number {
    return this.#reloads;
  }
  get failure(): Error | undefined {
    return this.#failure;
  }
  /** Milliseconds since it last knew it held every change: 0 while it does. */
  lagAt(now: number): number {
    return this.#current ? 0 : now - this.#currentAt;
  }

  /** Resolves once it has applied the record `seq` (or a snapshot after it). */
  waitFor(seq: number): Promise<void> {
    if (this.#failure !== undefined) return Promise.reject(this.#failure);
    if (this.#applied >= seq) return Promise.resolve();
    return new Promise((resolve, reject) => this.#waiters.push({ seq, resolve, reject }));
  }

  /** Stops following and releases the connection and the filter. */
  async stop(): Promise<void> {
    this.usable = false;
    this.#stopped = true;
    this.#closeConnection();
    await this.#loop;
    this.#filter.dispose();
    this.#settleWaiters(new CuckooFilterError('DISPOSED', `${this.#what}: the replica was closed`));
  }

  async #follow(): Promise<void> {
    let retryMs = FIRST_RETRY_MS;
    while (!this.#stopped) {
      try {
        if (this.#mustReload) await this.#reload();
        const caughtUp = this.#apply(await this.#read());
        if (caughtUp && this.#connection === undefined) await sleep(POLL_MS);
        retryMs = FIRST_RETRY_MS;
      } catch (error) {
        if (this.#stopped) break;
        if (isFatal(error)) {
          this.fail(error as Error);
          break;
        }
        // A broken connection, a server restarted: what it missed, or lost, a snapshot tells.
        this.#current = false;
        this.#mustReload = true;
        await sleep(retryMs);
        retryMs = Math.min(2 * retryMs, LAST_RETRY_MS);
      }
    }
  }

  /** The log's records after the last one applied: XREAD's reply, null when none came. */
  async #read(): Promise<unknown> {
    const wait = this.#connection !== undefined ? ['BLOCK', String(BLOCK_MS)] : [];
    const command = ['XREAD', 'COUNT', String(READ_COUNT), ...wait, 'STREAMS', this.#logKey, this.#lastId];
    try {
      return await (this.#connection ?? this.#opened.connection).call(this.#logKey, command, true);
    } catch (error) {
      throw commandError(error, this.#logKey, this.#what);
    }
  }

  /** Applies a reply's records in order; true when it held every record there was. */
  #apply(reply: unknown): boolean {
    const entries = streamEntries(reply);
    for (const entry of entries) {
      const [id, fields] = entry as [unknown, unknown[]];
      // Told by its message already: passed over, unread.
      const told = this.#told.get(replyText(id));
      if (told !== undefined) {
        this.#told.delete(replyText(id));
        if (told <= this.#applied) {
          this.#lastId = replyText(id);
          continue;
        }
      }
      const value = fields.findIndex((field, k) => k % 2 === 0 && replyText(field) === 'c');
      const record = value >= 0 && fields[value + 1] instanceof Uint8Array ? decodeRecord(this.#reader, fields[value + 1] as Uint8Array) : 'a log entry without its record';
      // A record must be the next one: anything else, a snapshot settles.
      if (typeof record === 'string' || record.seq !== this.#applied + 1) {
        this.#mustReload = true;
        this.#current = false;
        return false;
      }
      try {
        replaceBuckets(this.#filter, record, this.#what);
      } catch (error) {
        if (!(error instanceof FormatError)) throw error;
        this.#mustReload = true;
        this.#current = false;
        return false;
      }
      this.#applied = record.seq;
      this.#lastId = replyText(id);
    }
    this.#settleWaiters();
    const caughtUp = entries.length < READ_COUNT;
    if (caughtUp) {
      this.#current = true;
      this.#currentAt = Date.now();
    } else {
      this.#current = false;
    }
    return caughtUp;
  }

  async #reload(): Promise<void> {
    const snapshot = await takeSnapshot(this.#opened, this.#shard, this.#what);
    if (this.#stopped) {
      snapshot.filter.dispose();
      return;
    }
    this.#filter.dispose();
    this.#filter = snapshot.filter;
    this.#applied = snapshot.seq;
    this.#lastId = snapshot.lastId;
    this.#told.clear();
    this.#reloads++;
    this.#mustReload = false;
    this.#current = true;
    this.#currentAt = Date.now();
    this.#settleWaiters();
  }

  /** Ends following for good: the filter is gone (also when sync() finds it so). */
  fail(error: Error): void {
    this.usable = false;
    this.#failure ??= error;
    this.#settleWaiters(error);
    this.#stopped = true;
    this.#closeConnection();
  }

  /** Closes the connection of its own, once (what it waits for then fails, and the loop ends). */
  #closeConnection(): void {
    const connection = this.#connection;
    this.#connection = undefined;
    connection?.close();
  }

  /** Resolves the waiters whose record is applied; with `error`, rejects every one left. */
  #settleWaiters(error?: unknown): void {
    const waiting: Waiter[] = [];
    for (const waiter of this.#waiters) {
      if (error !== undefined) waiter.reject(error);
      else if (this.#applied >= waiter.seq) waiter.resolve();
      else waiting.push(waiter);
    }
    this.#waiters = waiting;
  }
}

/**
 * The entries of XREAD's reply for one stream: RESP2's [[key, entries]], or
 * RESP3's map of key to entries (node-redis 6 gives it as an object or a Map);
 * none when it timed out (null).
 */
function streamEntries(reply: unknown): unknown[] {
  if (reply === null || reply === undefined) return [];
  const streams = Array.isArray(reply) ? reply.map((stream) => (stream as unknown[])[1]) : reply instanceof Map ? [...reply.values()] : Object.values(reply as object);
  const entries = streams[0];
  if (streams.length !== 1 || !Array.isArray(entries)) throw new Error(`unexpected reply to XREAD: ${String(reply)}`);
  return entries;
}

interface Snapshot {
  readonly filter: CuckooFilter;
  readonly seq: number;
  readonly lastId: string;
  readonly subscribeCommand: 'SSUBSCRIBE' | 'SUBSCRIBE';
}

/** The shard, its log's count and last entry, read at one instant (SNAPSHOT_SHARD_SOURCE). */
async function takeSnapshot(opened: OpenedFilter, shard: number, what: string): Promise<Snapshot> {
  const parts = (await runScript(opened.connection, SCRIPTS.snapshotShard, opened.scriptKeys[shard]!, [opened.fixedHeaders[shard]!], what)) as unknown[];
  const chunkCount = opened.layout.chunkCount;
  const seqText = replyText(parts[chunkCount]);
  if (!/^\d{1,15}$/.test(seqText)) {
    throw new FormatError('INCONSISTENT', `${what}: key '${opened.logKeys[shard]![1]}' holds '${seqText}', not a count of changes`);
  }
  const filter = filterFromChunks(opened, shard, parts.slice(0, chunkCount) as Uint8Array[], what);
  const subscribeCommand = replyText(parts[chunkCount + 2]) === 'SSUBSCRIBE' ? 'SSUBSCRIBE' : 'SUBSCRIBE';
  return { filter, seq: Number(seqText), lastId: replyText(parts[chunkCount + 1]), subscribeCommand };
}

/**
 * The change counts of every shard now, each read with its shard's filter id
 * in one transaction: a replica holding these holds every change acknowledged
 * before. NOT_FOUND when the filter was dropped (or its name used again).
 */
export async function currentCounts(opened: OpenedFilter, what: string): Promise<number[]> {
  return Promise.all(
    opened.logKeys.map(async ([, seqKey], shard) => {
      const chunk0 = opened.keys[shard]![0]!;
      let replies: unknown[];
      try {
        // The id as BITFIELD_RO reads it: a number, whatever a client makes of bulk strings in a transaction.
        replies = await opened.connection.transaction(chunk0, [
          ['BITFIELD_RO', chunk0, 'GET', 'u48', String(8 * AT.id)],
          ['GET', seqKey],
        ]);
      } catch (error) {
        throw commandError(error, chunk0, what);
      }
      checkFilterId(opened, Number((replies[0] as unknown[])[0]), chunk0, what);
      return replies[1] === null ? 0 : Number(replyText(replies[1]));
    }),
  );
}
