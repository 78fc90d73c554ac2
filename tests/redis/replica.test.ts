// FilterReplica on a real redis-server: a replica answers in-process what the
// Redis filter holds, kept current by the change log every write appends
// (ts/src/redis/CHANGE-LOG.md), reloads by itself when it cannot follow the
// log exactly, and its bytes equal the filter's once synced.
import { CuckooFilter, CuckooFilterError, FormatError, type CuckooFilterOptions } from 'cuckoo-wasm';
import { FilterReplica, RedisCuckooFilter, type DuplicateConnection, type RedisConnection } from 'cuckoo-wasm/redis';
import { inspect } from 'node:util';
import { connect, serverForFile } from './support/servers';
import { RespClient } from './support/resp-client';

const live = serverForFile();

const numbers = (first: number, count: number): Float64Array => Float64Array.from({ length: count }, (_, i) => first + i);
const equalBytes = (a: Uint8Array, b: Uint8Array): boolean => Buffer.from(a).equals(Buffer.from(b));

test('a replica answers what the filter holds, and catches every writer up to sync()', async () => {
  const filter = await RedisCuckooFilter.create(live.redis, 'replica-basic', { capacity: 100_000, fpr: 0.001, seed: 3 });
  await filter.addMany(numbers(0, 5000));
  await using replica = await RedisCuckooFilter.openReplica(live.redis, 'replica-basic');
  expect(replica).toBeInstanceOf(FilterReplica);
  expect(replica.name).toBe('replica-basic');
  expect(replica.params).toEqual(filter.params);
  expect(replica.size).toBe(5000);
  expect(replica.hasMany(numbers(0, 5000)).every((answer) => answer === 1)).toBe(true);
  // Another client writes; the replica hears it through the log.
  const other = await connect(live.server);
  try {
    const writer = await RedisCuckooFilter.open(other, 'replica-basic');
    for (let round = 0; round < 20; round++) {
      expect(await writer.addMany(numbers(10_000 + 100 * round, 100))).toBe(100);
      expect(await writer.deleteMany(numbers(100 * round, 50))).toBe(50);
      await replica.sync();
      // Read your writes: every acknowledged add is there, every delete gone (no false negatives).
      expect(replica.hasMany(numbers(10_000, 100 * (round + 1))).every((answer) => answer === 1)).toBe(true);
      expect(replica.has(10_000 + 100 * round)).toBe(true);
      expect(replica.count(10_000 + 100 * round)).toBe(await filter.count(10_000 + 100 * round));
    }
    expect(await writer.addUnique('x')).toBe(true);
    expect(await writer.add('x')).toBe(true);
    await replica.sync();
    expect(replica.count('x')).toBe(2);
    expect(replica.size).toBe(await filter.size());
    expect(equalBytes(replica.toBytes(), await filter.toBytes())).toBe(true);
    expect(replica.lag).toBe(0);
    expect(replica.reloads).toBe(0);
  } finally {
    await other.quit();
  }
  await filter.drop();
});

const shapes: [string, CuckooFilterOptions][] = [
  ['plain, one word per bucket, hash id 1', { bucketCount: 256, bucketSize: 4, fingerprintBits: 12 }],
  ['semi-sorted, hash id 2', { bucketCount: 300, bucketSize: 4, fingerprintBits: 13, semiSort: true }],
  ['semi-sorted, two words per bucket', { bucketCount: 150, bucketSize: 4, fingerprintBits: 20, semiSort: true }],
  ['8 slots of 9 bits, two words per bucket', { bucketCount: 64, bucketSize: 8, fingerprintBits: 9 }],
  ['4 slots of 32 bits', { bucketCount: 100, bucketSize: 4, fingerprintBits: 32 }],
  ['1 slot of 5 bits', { bucketCount: 512, bucketSize: 1, fingerprintBits: 5 }],
  ['3 kicks at most: the stash fills and empties', { bucketCount: 64, bucketSize: 4, fingerprintBits: 10, maxKicks: 3 }],
];

test.each(shapes)('every shape: adds to the full filter, deletes, the stash: the replica stays byte for byte the filter (%s)', async (label, shape) => {
  const name = `replica-shape-${shapes.findIndex(([other]) => other === label)}`;
  using local = new CuckooFilter({ ...shape, seed: 0xbeefn });
  const remote = await RedisCuckooFilter.fromBytes(live.redis, name, local.toBytes());
  await using replica = await RedisCuckooFilter.openReplica(live.redis, name);
  let next = 1;
  for (let round = 0; round < 8; round++) {
    // Until a few adds are refused, in batches and one by one; then deletes, which may re-place the stashed fingerprint.
    for (let refused = 0; refused < 2; ) {
      const batch = numbers(next, 30);
      next += 30;
      const added = await remote.addMany(batch);
      if (added < 30) refused++;
      if (!(await remote.add(next++))) refused++;
    }
    await remote.deleteMany(numbers(1 + 37 * round, 25));
    await replica.sync();
    expect([round, equalBytes(replica.toBytes(), await remote.toBytes())]).toEqual([round, true]);
  }
  expect(replica.reloads).toBe(0);
  await remote.drop();
});

/** The records of a shard's log, read back from the stream (CHANGE-LOG.md). */
async function records(key: string): Promise<Buffer[]> {
  const raw = live.redis.withTypeMapping({ 36: Buffer });
  const entries = (await raw.sendCommand(['XRANGE', key, '-', '+'])) as unknown as [Buffer, Buffer[]][];
  return entries.map(([, fields]) => {
    expect(fields.length).toBe(2);
    expect(fields[0]!.toString()).toBe('c');
    return fields[1]!;
  });
}

test('the records are CHANGE-LOG.md\'s, field by field: a reader of the spec alone can follow them', async () => {
  const filter = await RedisCuckooFilter.create(live.redis, 'replica-records', { capacity: 1000, fpr: 0.01, seed: 9, logLength: 50 });
  const { bucketCount, bucketSize, fingerprintBits } = filter.params;
  const bucketBits = bucketSize * fingerprintBits;
  const [chunk0, log, seq] = ['{replica-records:0:0}:0', '{replica-records:0:0}:log', '{replica-records:0:0}:seq'];
  const raw = live.redis.withTypeMapping({ 36: Buffer });
  const header = async (): Promise<Buffer> => (await raw.getRange(chunk0, 0, 75)) as unknown as Buffer;
  expect(await filter.add('apple')).toBe(true);
  expect(await filter.delete('pear')).toBe(false); // changes nothing: no record
  expect(await filter.addMany(['a', 'b', 'c', 'd'])).toBe(4);
  const written = await records(log);
  expect(written.length).toBe(2);
  expect(await live.redis.get(seq)).toBe('2');
  const now = await header();
  const stride = Math.ceil(bucketBits / 8);
  written.forEach((record, k) => {
    expect(record.subarray(0, 6)).toEqual(Buffer.from([0x43, 0x4b, 0x46, 0x43, 1, 0]));
    expect(record.subarray(6, 12)).toEqual(now.subarray(44, 50)); // filter id
    expect(record.subarray(12, 16)).toEqual(Buffer.from([0, 0, 0, 0])); // shard 0, reserved
    expect(record.readBigUInt64BE(16)).toBe(BigInt(k + 1));
    const count = record.readUInt32BE(48);
    expect(record.length).toBe(52 + count * (4 + stride));
    expect(count).toBeGreaterThanOrEqual(k === 0 ? 1 : 2);
  });
  // The last record's state is the header's now, and each bucket's bytes are its bits in the chunk.
  const last = written[1]!;
  expect(last.subarray(24, 48)).toEqual(now.subarray(52, 76));
  for (let at = 52; at < last.length; at += 4 + stride) {
    const bucket = last.readUInt32BE(at);
    expect(bucket).toBeLessThan(bucketCount);
    const [word] = (await live.redis.sendCommand(['BITFIELD_RO', chunk0, 'GET', `u${bucketBits}`, String(8 * 76 + bucket * bucketBits)])) as number[];
    const bytes = Buffer.alloc(8);
    bytes.writeBigUInt64BE(BigInt(word!) << BigInt(64 - bucketBits));
    expect(last.subarray(at + 4, at + 4 + stride)).toEqual(bytes.subarray(0, stride));
  }
  // The log is bounded: past logLength records Redis trims whole stream nodes.
  for (let round = 0; round < 300; round++) await filter.add(round);
  expect(Number(await live.redis.sendCommand(['XLEN', log]))).toBeLessThan(50 + 101);
  expect(await live.redis.get(seq)).toBe('302');
  await filter.drop();
  expect(await live.redis.exists([log, seq])).toBe(0);
});

/**
 * A connection whose connections of their own answer XREAD only after
 * `delay()` resolves: a replica whose reads fall behind. With `told`, they
 * also subscribe (the records' messages come at once); without, they cannot.
 */
function slowReader(inner: RedisConnection, delay: () => Promise<unknown>, told: boolean): RedisConnection {
  return {
    call: (key, command, readOnly) => inner.call(key, command, readOnly),
    transaction: (key, commands) => inner.transaction(key, commands),
    duplicate: async (): Promise<DuplicateConnection> => {
      const { subscribe, ...reader } = await inner.duplicate!();
      expect(subscribe).toBeInstanceOf(Function);
      return {
        ...reader,
        ...(told && { subscribe }),
        call: async (key, command, readOnly) => {
          const reply = await reader.call(key, command, readOnly);
          await delay();
          return reply;
        },
      };
    },
  };
}
const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

test('a replica that falls behind a trimmed log reloads the filter, and misses nothing', async () => {
  const { nodeRedisConnection } = await import('cuckoo-wasm/redis');
  let delay = 0;
  const connection = slowReader(nodeRedisConnection(live.redis), () => sleep(delay), false);
  const filter = await RedisCuckooFilter.create(live.redis, 'replica-trimmed', { capacity: 100_000, fpr: 0.001, logLength: 10 });
  await using replica = await RedisCuckooFilter.openReplica(connection, 'replica-trimmed');
  await filter.addMany(numbers(0, 100));
  await replica.sync();
  expect(replica.reloads).toBe(0);
  delay = 400;
  // While its reads come late, writes push 500 records through a log that keeps about 10 (and a stream node).
  for (let k = 100; k < 600; k++) await filter.add(k);
  await replica.sync();
  expect(replica.reloads).toBeGreaterThanOrEqual(1);
  expect(replica.hasMany(numbers(0, 600)).every((answer) => answer === 1)).toBe(true);
  expect(equalBytes(replica.toBytes(), await filter.toBytes())).toBe(true);
  delay = 0;
  await filter.drop();
});

test('told by message: a replica whose reads are held back applies each record as it is published, and passes over it when the read brings it', async () => {
  const { nodeRedisConnection } = await import('cuckoo-wasm/redis');
  let release: () => void = () => undefined;
  let held: Promise<void> | undefined = new Promise((resolve) => (release = resolve));
  let readsSinceRelease = 0;
  const afterRead = (): Promise<void> => {
    if (held !== undefined) return held;
    readsSinceRelease++;
    return Promise.resolve();
  };
  const connection = slowReader(nodeRedisConnection(live.redis), afterRead, true);
  const filter = await RedisCuckooFilter.create(live.redis, 'replica-told', { capacity: 10_000, fpr: 0.001, seed: 4 });
  await using replica = await RedisCuckooFilter.openReplica(connection, 'replica-told');
  const log = '{replica-told:0:0}:log';
  const raw = live.redis.withTypeMapping({ 36: Buffer });
  const published = (message: Buffer | string): Promise<unknown> => live.redis.sendCommand(['SPUBLISH', log, message]);
  // A listener of the spec's own: each message is the entry ID, a space, the record as appended.
  const listener = live.redis.duplicate();
  await listener.connect();
  const heard: Buffer[] = [];
  await listener.sSubscribe(log, (message) => heard.push(message), true);
  const synced = async (): Promise<void> => {
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error('sync() waited 10 s: no message was applied')), 10_000)));
    await Promise.race([replica.sync(), late]).finally(() => clearTimeout(timer));
  };
  for (let round = 0; round < 10; round++) {
    await filter.addMany(numbers(100 * round, 100));
    await filter.deleteMany(numbers(100 * round, 10));
    // No read has come back: only the messages can have brought the records.
    await synced();
    expect([round, equalBytes(replica.toBytes(), await filter.toBytes())]).toEqual([round, true]);
  }
  const entries = (await raw.sendCommand(['XRANGE', log, '-', '+'])) as unknown as [Buffer, Buffer[]][];
  expect(entries.length).toBe(20);
  expect(heard).toEqual(entries.map(([entryId, entryFields]) => Buffer.concat([entryId, Buffer.from(' '), entryFields[1]!])));
  await listener.quit();
  // Messages that are not the next record change nothing: garbage, a record again, a record with an ID and no record.
  const before = replica.toBytes();
  const [[id, fields]] = (await raw.sendCommand(['XREVRANGE', log, '+', '-', 'COUNT', '1'])) as unknown as [Buffer, Buffer[]][];
  expect(await published('not a record')).toBe(1);
  expect(await published(Buffer.concat([id!, Buffer.from(' '), fields![1]!]))).toBe(1);
  expect(await published(Buffer.concat([id!, Buffer.from(' ')]))).toBe(1);
  // The record after the next one (its seq skips one), published ahead of its write: not applied.
  const ahead = Buffer.from(fields![1]!);
  ahead.writeBigUInt64BE(ahead.readBigUInt64BE(16) + 2n, 16);
  expect(await published(Buffer.concat([Buffer.from('9999999999999-0 '), ahead]))).toBe(1);
  await sleep(50);
  expect(equalBytes(replica.toBytes(), before)).toBe(true);
  // The reads come back with every record: each told one passed over, nothing reloaded.
  held = undefined;
  release();
  await filter.add('last');
  await synced();
  // The read held back, then one from where it ended, which brings the records told meanwhile.
  for (let waited = 0; waited < 250 && readsSinceRelease < 1; waited++) await sleep(20);
  await sleep(20);
  expect(readsSinceRelease).toBeGreaterThanOrEqual(1);
  expect(replica.reloads).toBe(0);
  expect(replica.hasMany(numbers(0, 1000)).filter((answer) => answer === 0).length).toBeLessThanOrEqual(100);
  expect(numbers(0, 1000).filter((item) => item % 100 >= 10).every((item) => replica.has(item))).toBe(true);
  expect(equalBytes(replica.toBytes(), await filter.toBytes())).toBe(true);
  await filter.drop();
});

test('a log entry that does not parse, or out of order, makes the replica reload, not miss or fail', async () => {
  const filter = await RedisCuckooFilter.create(live.redis, 'replica-garbage', { capacity: 10_000, fpr: 0.001 });
  await using replica = await RedisCuckooFilter.openReplica(live.redis, 'replica-garbage');
  await filter.addMany(numbers(0, 100));
  await replica.sync();
  const log = '{replica-garbage:0:0}:log';
  await live.redis.sendCommand(['XADD', log, '*', 'c', 'not a record']);
  await filter.addMany(numbers(100, 100));
  await replica.sync();
  const first = replica.reloads;
  expect(first).toBeGreaterThanOrEqual(1);
  // A record copied again (its seq repeats), then writes after it.
  const [[, fields]] = (await live.redis.withTypeMapping({ 36: Buffer }).sendCommand(['XREVRANGE', log, '+', '-', 'COUNT', '1'])) as unknown as [Buffer, Buffer[]][];
  await live.redis.sendCommand(['XADD', log, '*', 'c', fields![1]!]);
  await filter.addMany(numbers(200, 100));
  await replica.sync();
  expect(replica.reloads).toBeGreaterThan(first);
  expect(replica.hasMany(numbers(0, 300)).every((answer) => answer === 1)).toBe(true);
  expect(equalBytes(replica.toBytes(), await filter.toBytes())).toBe(true);
  await filter.drop();
});

test('a replica describes itself: name, params, size, lag and reloads, read when asked', async () => {
  const filter = await RedisCuckooFilter.create(live.redis, 'replica-described', { capacity: 1000, fpr: 0.01, seed: 5, shards: 2 });
  await filter.addMany(['a', 'b', 'c']);
  const replica = await RedisCuckooFilter.openReplica(live.redis, 'replica-described');
  await replica.sync();
  const params = { ...filter.params, seed: '5' };
  const facts = { name: 'replica-described', params, size: 3, lag: expect.any(Number), reloads: 0 };
  expect(replica.toJSON()).toEqual(facts);
  expect(JSON.parse(JSON.stringify(replica))).toEqual(facts);
  expect(String(replica)).toMatch(/^FilterReplica \{"name":"replica-described","params":\{.*\},"size":3,"lag":\d+,"reloads":0\}$/);
  expect(inspect(replica)).toMatch(/^FilterReplica \{\n {2}name: 'replica-described',\n {2}params: \{/);
  await replica.close();
  await filter.drop();
});

test('a dropped filter ends its replicas with NOT_FOUND; a closed replica refuses every call', async () => {
  const filter = await RedisCuckooFilter.create(live.redis, 'replica-dropped', { capacity: 1000, fpr: 0.01 });
  const replica = await RedisCuckooFilter.openReplica(live.redis, 'replica-dropped');
  await filter.drop();
  await RedisCuckooFilter.create(live.redis, 'replica-dropped', { capacity: 1000, fpr: 0.01 }); // the name, used again
  await live.redis.sendCommand(['XADD', '{replica-dropped:0:0}:log', '*', 'c', 'wake the reader']);
  await expect(replica.sync()).rejects.toMatchObject({ code: 'NOT_FOUND' });
  expect(() => replica.has('x')).toThrow(CuckooFilterError);
  expect(replica.toJSON()).toEqual({ name: 'replica-dropped', failed: expect.stringContaining('replica-dropped') });
  await replica.close();
  expect(replica.toJSON()).toEqual({ name: 'replica-dropped', closed: true });
  expect(String(replica)).toBe('FilterReplica {"name":"replica-dropped","closed":true}');
  const error = (() => {
    try {
      replica.has('x');
    } catch (caught) {
      return caught as CuckooFilterError;
    }
    return undefined;
  })();
  expect(error?.code).toBe('DISPOSED');
  await expect(replica.sync()).rejects.toMatchObject({ code: 'DISPOSED' });
  await replica.close(); // idempotent
  await RedisCuckooFilter.drop(live.redis, 'replica-dropped');
});

test('no filter, another key, a filter without a log: clear refusals; addChangeLog gives an old filter its log', async () => {
  await expect(RedisCuckooFilter.openReplica(live.redis, 'replica-nothing')).rejects.toMatchObject({ code: 'NOT_FOUND' });
  await live.redis.set('replica-a-string', 'hello');
  await expect(RedisCuckooFilter.openReplica(live.redis, 'replica-a-string')).rejects.toBeInstanceOf(FormatError);
  // A filter without a change log, as releases before change logs made them (layout version 1).
  const old = await RedisCuckooFilter.create(live.redis, 'replica-old', { capacity: 10_000, fpr: 0.001, logLength: 0 });
  await old.addMany(numbers(0, 1000));
  expect(await live.redis.exists(['{replica-old:0:0}:log', '{replica-old:0:0}:seq'])).toBe(0);
  await expect(RedisCuckooFilter.openReplica(live.redis, 'replica-old')).rejects.toThrow(
    "RedisCuckooFilter.openReplica: filter 'replica-old' has no change log (it was made before change logs, or with logLength 0), so no replica can follow it; RedisCuckooFilter.addChangeLog(redis, 'replica-old') gives it one",
  );
  expect(await RedisCuckooFilter.addChangeLog(live.redis, 'replica-old', { logLength: 100 })).toBe(true);
  expect(await RedisCuckooFilter.addChangeLog(live.redis, 'replica-old')).toBe(false);
  await using replica = await RedisCuckooFilter.openReplica(live.redis, 'replica-old');
  // The handle opened before the upgrade goes on writing, and its writes reach the replica.
  await old.addMany(numbers(1000, 1000));
  await replica.sync();
  expect(replica.hasMany(numbers(0, 2000)).every((answer) => answer === 1)).toBe(true);
  expect(equalBytes(replica.toBytes(), await old.toBytes())).toBe(true);
  const reopened = await RedisCuckooFilter.open(live.redis, 'replica-old');
  expect(reopened.params).toEqual(old.params);
  await old.drop();
});

test('through a RedisConnection that cannot make a connection of its own, a replica asks for changes itself', async () => {
  const client = await RespClient.connect(live.server.port);
  const connection = client.connection();
  try {
    const filter = await RedisCuckooFilter.create(connection, 'replica-polling', { capacity: 10_000, fpr: 0.001 });
    await using replica = await RedisCuckooFilter.openReplica(connection, 'replica-polling');
    await filter.addMany(numbers(0, 3000));
    await replica.sync();
    expect(replica.hasMany(numbers(0, 3000)).every((answer) => answer === 1)).toBe(true);
    expect(equalBytes(replica.toBytes(), await filter.toBytes())).toBe(true);
    await filter.drop();
  } finally {
    client.close();
  }
});

test('a sharded filter: one follower per shard, toBytes per shard', async () => {
  const filter = await RedisCuckooFilter.create(live.redis, 'replica-sharded', { capacity: 30_000, fpr: 0.001, shards: 3 });
  await using replica = await RedisCuckooFilter.openReplica(live.redis, 'replica-sharded');
  const items = Array.from({ length: 6000 }, (_, i) => `item-${i}`);
  expect(await filter.addMany(items)).toBe(6000);
  await replica.sync();
  expect(replica.hasMany(items).every((answer) => answer === 1)).toBe(true);
  expect(items.slice(0, 50).every((item) => replica.has(item) && replica.count(item) >= 1)).toBe(true);
  expect(replica.size).toBe(6000);
  for (let shard = 0; shard < 3; shard++) expect(equalBytes(replica.toBytes(shard), await filter.toBytes(shard))).toBe(true);
  expect(() => replica.toBytes()).toThrow(RangeError);
  expect(() => replica.toBytes(3)).toThrow(RangeError);
  await filter.drop();
});
