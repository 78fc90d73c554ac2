// Keys that are not what a filter left there: another type of value, a damaged
// root or shard header, chunks of the wrong length, a shard of another filter,
// a semi-sorted bucket with an impossible rank. Each is a CuckooFilterError
// (a FormatError for the format's checks) with a code, from open, from the
// lookups and from the scripts, and nothing is written.
import { CuckooFilterError, FormatError, init } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { connect, startServer, type Client, type RedisServer } from './support/servers';

let server: RedisServer;
let redis: Client;
let bytes: Client;

beforeAll(async () => {
  await init();
  server = await startServer();
  redis = await connect(server);
  bytes = redis.withTypeMapping({ 36: Buffer }) as unknown as Client;
});

afterAll(async () => {
  await redis?.quit();
  await server?.remove();
});

afterEach(async () => {
  await redis.flushAll();
});

/** Every key and its value (strings as bytes): what "nothing is written" compares. */
async function snapshot(): Promise<string> {
  const entries: string[] = [];
  for (const key of (await redis.keys('*')).sort()) {
    const type = await redis.type(key);
    const value = type === 'string' ? Buffer.from((await bytes.get(key)) as unknown as Buffer).toString('hex') : JSON.stringify(await redis.sendCommand(['DUMP', key]).then(String));
    entries.push(`${key} ${type} ${value}`);
  }
  return entries.join('\n');
}

interface Refusal {
  type: 'FormatError' | 'CuckooFilterError';
  code: string;
}

/** The call's error as its class and code; and the keys were left exactly as they were. */
async function refusal(call: () => Promise<unknown>): Promise<Refusal> {
  const before = await snapshot();
  let caught: unknown;
  try {
    await call();
  } catch (error) {
    caught = error;
  }
  expect(await snapshot()).toBe(before);
  if (!(caught instanceof CuckooFilterError)) throw new Error(`expected a CuckooFilterError, got ${String(caught)}`);
  return { type: caught instanceof FormatError ? 'FormatError' : 'CuckooFilterError', code: caught.code };
}

const format = (code: string): Refusal => ({ type: 'FormatError', code });
const filterError = (code: string): Refusal => ({ type: 'CuckooFilterError', code });

async function made(name: string, options = { capacity: 20_000, fpr: 0.001 }) {
  const filter = await RedisCuckooFilter.create(redis, name, options);
  await filter.addMany(new Uint32Array(5000).map((_, i) => i));
  // The chunks, not the change log's keys ({T}:log, {T}:seq).
  const chunks = (await redis.keys(`{${name}:*`)).filter((key) => /:\d+$/.test(key)).sort();
  return { filter, chunk0: chunks.find((key) => key.endsWith(':0'))!, chunks };
}

async function patch(key: string, offset: number, values: number[]): Promise<void> {
  await redis.sendCommand(['SETRANGE', key, String(offset), Buffer.from(values)]);
}

/**
 * A change to a field whose bytes are random (the seed, the filter id): each
 * byte XORed with `mask`, so that it differs whatever the filter drew. Writing
 * a fixed byte there left the header unchanged once in 256 filters.
 */
const flip = (mask: number) => ({ flip: mask });

async function patchOrFlip(key: string, offset: number, change: readonly number[] | { flip: number }): Promise<void> {
  if (!('flip' in change)) return patch(key, offset, [...change]);
  const current = (await bytes.getRange(key, offset, offset)) as unknown as Buffer;
  return patch(key, offset, [current[0]! ^ change.flip]);
}

test('a key of another type: as the name, or as a chunk', async () => {
  await redis.hSet('a-hash', 'field', 'value');
  expect(await refusal(() => RedisCuckooFilter.open(redis, 'a-hash'))).toEqual(format('BAD_MAGIC'));
  expect(await refusal(() => RedisCuckooFilter.create(redis, 'a-hash', { capacity: 10, fpr: 0.1 }))).toEqual(filterError('EXISTS'));
  expect(await refusal(() => RedisCuckooFilter.drop(redis, 'a-hash'))).toEqual(format('BAD_MAGIC'));
  const { filter, chunk0, chunks } = await made('typed');
  await redis.del(chunk0);
  await redis.rPush(chunk0, ['not', 'a', 'chunk']);
  expect(await refusal(() => RedisCuckooFilter.open(redis, 'typed'))).toEqual(format('BAD_MAGIC'));
  for (const call of [() => filter.add(1), () => filter.has(1), () => filter.hasMany([1, 2]), () => filter.delete(1), () => filter.size(), () => filter.toBytes()]) {
    expect(await refusal(call)).toEqual(format('BAD_MAGIC'));
  }
  if (chunks.length > 1) {
    const last = chunks[chunks.length - 1]!;
    await redis.del(chunk0);
    await redis.del(last);
    await redis.sAdd(last, 'member');
    expect(await refusal(() => RedisCuckooFilter.open(redis, 'typed'))).toEqual(format('BAD_MAGIC'));
  }
});

test.each([
  ['bad magic', 0, [0x58], format('BAD_MAGIC')],
  ['a newer format version', 4, [3], format('UNSUPPORTED_VERSION')],
  ['the version without a change log, with a log length', 4, [1], format('BAD_PARAMETERS')],
  ['an unknown flag', 5, [2], format('BAD_PARAMETERS')],
  ['fingerprints of 40 bits', 7, [40], format('BAD_PARAMETERS')],
  ['a bucket size of 3', 8, [3], format('BAD_PARAMETERS')],
  ['a hash id that disagrees with the bucket count', 6, [1], format('BAD_PARAMETERS')],
  ['a chunking that does not cover the table', 10, [0, 9], format('BAD_PARAMETERS')],
  ['a shard count of 0', 42, [0, 0], format('BAD_PARAMETERS')],
  ['a state past "being created"', 41, [7], format('BAD_PARAMETERS')],
  ['another filter id (its shards disagree)', 44, [1, 2, 3, 4, 5, 6], format('INCONSISTENT')],
  ['another maxKicks (its shards disagree)', 15, [9], format('INCONSISTENT')],
] as const)('a damaged root: %s', async (_, offset, values, expected) => {
  await made('rooted');
  await patch('rooted', offset, [...values]);
  expect(await refusal(() => RedisCuckooFilter.open(redis, 'rooted'))).toEqual(expected);
});

test('a root of the wrong length', async () => {
  await made('short');
  const root = (await bytes.get('short')) as unknown as Buffer;
  await redis.set('short', root.subarray(0, 30));
  expect(await refusal(() => RedisCuckooFilter.open(redis, 'short'))).toEqual(format('TRUNCATED'));
  await redis.set('short', Buffer.concat([root, Buffer.from([0])]));
  expect(await refusal(() => RedisCuckooFilter.open(redis, 'short'))).toEqual(format('INCONSISTENT'));
});

test.each([
  ['bad magic', 1, [0x00], format('BAD_MAGIC'), format('BAD_MAGIC')],
  ['a newer format version', 4, [9], format('UNSUPPORTED_VERSION'), format('UNSUPPORTED_VERSION')],
  ['another fingerprint width', 7, [12], format('INCONSISTENT'), format('BAD_PARAMETERS')],
  ['another seed', 23, flip(77), format('INCONSISTENT'), format('BAD_PARAMETERS')],
  ['another filter id', 49, flip(77), format('INCONSISTENT'), filterError('NOT_FOUND')],
  ['a stash fingerprint wider than the fingerprints', 52, [0xff, 0xff, 0xff, 0xff], format('INCONSISTENT'), format('INCONSISTENT')],
  ['a stash bucket past the table', 52, [0, 0, 0, 1, 0xff, 0xff, 0xff, 0xff], format('INCONSISTENT'), format('INCONSISTENT')],
] as const)("a damaged shard header: %s", async (_, offset, change, fromOpen, fromScript) => {
  const { filter, chunk0 } = await made('headed');
  await patchOrFlip(chunk0, offset, change);
  expect(await refusal(() => RedisCuckooFilter.open(redis, 'headed'))).toEqual(fromOpen);
  for (const call of [() => filter.add(1), () => filter.addMany([10, 11]), () => filter.delete(1), () => filter.addUnique(9), () => filter.toBytes()]) {
    expect(await refusal(call)).toEqual(fromScript);
  }
});

test('chunks of the wrong length, and a missing chunk', async () => {
  const { filter, chunks } = await made('lengths', { capacity: 2_000_000, fpr: 0.001 });
  expect(chunks.length).toBeGreaterThan(1);
  const last = chunks[chunks.length - 1]!;
  const value = (await bytes.get(last)) as unknown as Buffer;
  await redis.set(last, value.subarray(1));
  expect(await refusal(() => RedisCuckooFilter.open(redis, 'lengths'))).toEqual(format('TRUNCATED'));
  // Items whose buckets are in that chunk: the script checks its length before reading.
  const many = new Uint32Array(20_000).map((_, i) => 10_000 + i);
  expect(await refusal(() => filter.addMany(many))).toEqual(format('TRUNCATED'));
  expect(await refusal(() => filter.deleteMany(new Uint32Array(5000).map((_, i) => i)))).toEqual(format('TRUNCATED'));
  expect(await refusal(() => filter.toBytes())).toEqual(format('TRUNCATED'));
  await redis.set(last, Buffer.concat([value, Buffer.from([0])]));
  expect(await refusal(() => RedisCuckooFilter.open(redis, 'lengths'))).toEqual(format('INCONSISTENT'));
  expect(await refusal(() => filter.addMany(many))).toEqual(format('INCONSISTENT'));
  await redis.del(last);
  expect(await refusal(() => RedisCuckooFilter.open(redis, 'lengths'))).toEqual(format('TRUNCATED'));
  expect(await refusal(() => filter.addMany(many))).toEqual(format('TRUNCATED'));
});

test("a shard of another filter under this filter's keys", async () => {
  const { filter, chunk0 } = await made('mine');
  const other = await made('theirs');
  const theirs = (await bytes.get(other.chunk0)) as unknown as Buffer;
  const mine = (await bytes.get(chunk0)) as unknown as Buffer;
  await redis.set(chunk0, Buffer.concat([theirs.subarray(0, 76), mine.subarray(76)]));
  expect(await refusal(() => RedisCuckooFilter.open(redis, 'mine'))).toEqual(format('INCONSISTENT'));
  for (const call of [() => filter.add(1), () => filter.has(1), () => filter.size(), () => filter.drop()]) {
    expect(await refusal(call)).toEqual(filterError('NOT_FOUND'));
  }
});

test('a semi-sorted bucket whose rank names no bucket', async () => {
  const filter = await RedisCuckooFilter.create(redis, 'ranked', { capacity: 1000, fpr: 0.001, semiSort: true });
  const [chunk0] = (await redis.keys('{ranked:*')).filter((key) => key.endsWith(':0'));
  // Bucket 0's rank is the first 12 bits after the header (BITFIELD order).
  await redis.sendCommand(['BITFIELD', chunk0!, 'SET', 'u12', String(76 * 8), '4095']);
  // Items whose first bucket is bucket 0 meet it in the script and in lookups.
  const inBucketZero: number[] = [];
  const { locateItems } = await import('../../dist/cjs/parts');
  const located = locateItems(filter.params, new Float64Array(200_000).map((_, i) => i), 'test');
  for (let k = 0; k < 200_000 && inBucketZero.length < 2; k++) if (located[4 * k + 1] === 0) inBucketZero.push(k);
  expect(await refusal(() => filter.add(inBucketZero[0]!))).toEqual(format('INCONSISTENT'));
  expect(await refusal(() => filter.has(inBucketZero[1]!))).toEqual(format('INCONSISTENT'));
  expect(await refusal(() => filter.toBytes())).toEqual(format('INCONSISTENT'));
});

test('a stray key where a shard would go: create refuses and leaves only that key', async () => {
  await redis.set('{stray:0:0}:0', 'left over');
  const caught = await RedisCuckooFilter.create(redis, 'stray', { capacity: 100, fpr: 0.01 }).catch((error: CuckooFilterError) => error);
  expect((caught as CuckooFilterError).code).toBe('EXISTS');
  expect((caught as Error).message).toMatch(/^RedisCuckooFilter\.create: key \{stray:0:0\}:0 already exists$/);
  expect(await redis.keys('*')).toEqual(['{stray:0:0}:0']);
  expect(await redis.get('{stray:0:0}:0')).toBe('left over');
});
