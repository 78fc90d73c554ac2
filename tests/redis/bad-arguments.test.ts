// Every bad argument of CuckooFilter is refused the same way by
// RedisCuckooFilter: the same error class and the same message, naming
// `RedisCuckooFilter.<method>` instead of `CuckooFilter.<method>` (each
// expected error is CuckooFilter's own, not written here). Then the arguments
// only this class has (redis, name, shards, the shard to export), and a
// dropped handle. Nothing is written by a refused call.
import { CuckooFilter, init } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { connect, startServer, SUITE_ENGINE, type Client, type RedisServer } from './support/servers';

let server: RedisServer;
let redis: Client;
let live: RedisCuckooFilter;
let dropped: RedisCuckooFilter;
let local: CuckooFilter;

beforeAll(async () => {
  await init();
  server = await startServer();
  redis = await connect(server);
  live = await RedisCuckooFilter.create(redis, 'live', { capacity: 1000, fpr: 0.01, seed: 3 });
  dropped = await RedisCuckooFilter.create(redis, 'dropped', { capacity: 10, fpr: 0.1 });
  await dropped.drop();
  local = CuckooFilter.create({ capacity: 1000, fpr: 0.01, seed: 3 });
});

afterAll(async () => {
  local?.dispose();
  await redis?.quit();
  await server?.remove();
});

/** What a call throws (synchronously or as a rejection): its class and message. */
async function thrown(call: () => unknown): Promise<{ type: string; message: string; code?: string }> {
  try {
    await call();
  } catch (error) {
    const caught = error as Error & { code?: string };
    return { type: caught.constructor.name, message: caught.message, ...(caught.code === undefined ? {} : { code: caught.code }) };
  }
  return { type: 'none', message: 'returned' };
}

/** CuckooFilter's refusal, as this class words it. */
async function asRedis(call: () => unknown, method: string): Promise<{ type: string; message: string; code?: string }> {
  const refusal = await thrown(call);
  expect(refusal.type).not.toBe('none');
  return { ...refusal, message: refusal.message.replace(`CuckooFilter.${method}`, `RedisCuckooFilter.${method}`) };
}

const huge = (): Uint8Array => new Uint8Array(2 ** 31 + 5); // zero pages: no real memory
const badItems: [string, () => unknown][] = [
  ['NaN', () => NaN],
  ['-Infinity', () => -Infinity],
  ['1.5', () => 1.5],
  ['2^53', () => 2 ** 53],
  ['2^64 as a bigint', () => 2n ** 64n],
  ['-(2^63) - 1 as a bigint', () => -(2n ** 63n) - 1n],
  ['null', () => null],
  ['undefined', () => undefined],
  ['an object', () => ({})],
  ['a Date', () => new Date(0)],
  ['a String object', () => new String('x')],
  ['a symbol', () => Symbol('s')],
  ['a function', () => () => 1],
  ['a view over 2 GiB', huge],
];
const badBatches: [string, () => unknown][] = [
  ['42', () => 42],
  ['null', () => null],
  ["'abc'", () => 'abc'],
  ['an ArrayBuffer', () => new ArrayBuffer(8)],
  ['[NaN]', () => [NaN]],
  ["['ok', {}]", () => ['ok', {}]],
  ['[, 1] (a hole)', () => [, 1]],
  ['Float64Array [1, NaN]', () => new Float64Array([1, NaN])],
  ['Float32Array [0.5]', () => new Float32Array([0.5])],
  ['[a view over 2 GiB]', () => [huge()]],
];

const singles = ['add', 'addUnique', 'has', 'count', 'delete'] as const;
const batches = ['addMany', 'hasMany', 'deleteMany'] as const;

describe.each(singles)('%s(item)', (method) => {
  test.each(badItems)('%s', async (_, item) => {
    const before = await live.toBytes();
    const expected = await asRedis(() => (local[method] as (x: unknown) => unknown)(item()), method);
    expect(await thrown(() => (live[method] as (x: unknown) => unknown)(item()))).toEqual(expected);
    expect(Buffer.from(await live.toBytes()).equals(Buffer.from(before))).toBe(true);
  });
});

describe.each(batches)('%s(items)', (method) => {
  test.each(badBatches)('%s', async (_, items) => {
    const expected = await asRedis(() => (local[method] as (x: unknown) => unknown)(items()), method);
    expect(await thrown(() => (live[method] as (x: unknown) => unknown)(items()))).toEqual(expected);
  });
});

const createValues: [string, Record<string, unknown> | unknown][] = [
  ['options undefined', undefined],
  ['options null', null],
  ['options 42', 42],
  ['options a string', 'options'],
  ...[0, -1, 1.5, NaN, Infinity, 2 ** 53, '10', 10n, null, true].map((capacity): [string, Record<string, unknown>] => [`capacity ${String(capacity)}`, { capacity }]),
  ['capacity 2^40, too large for memory', { capacity: 2 ** 40 }],
  ...[0, 1, -0.1, NaN, Infinity, 2, '0.01', 1n, null, 1e-10, Number.MIN_VALUE].map((fpr): [string, Record<string, unknown>] => [`fpr ${String(fpr)}`, { fpr }]),
  ...[-1, 1.5, 1_000_001, NaN, '5', 5n, null].map((maxKicks): [string, Record<string, unknown>] => [`maxKicks ${String(maxKicks)}`, { maxKicks }]),
  ...[-1, 0.5, NaN, 2 ** 53, -1n, 2n ** 64n, '1', null, {}].map((seed): [string, Record<string, unknown>] => [`seed ${String(seed)}`, { seed }]),
  ...[null, 'true', 0, 1n].map((semiSort): [string, Record<string, unknown>] => [`semiSort ${String(semiSort)}`, { semiSort }]),
  // A value that is not a boolean, as CuckooFilter.create says; true is refused apart (multiply-shift.test.ts).
  ...[null, 'true', 1, 1n].map((multiplyShiftHash): [string, Record<string, unknown>] => [`multiplyShiftHash ${String(multiplyShiftHash)}`, { multiplyShiftHash }]),
];

test.each(createValues)('create: %s', async (_, override) => {
  const options = typeof override === 'object' && override !== null ? { capacity: 1000, fpr: 0.01, ...override } : override;
  const expected = await asRedis(() => CuckooFilter.create(options as never), 'create');
  const got = await thrown(() => RedisCuckooFilter.create(redis, 'never', options as never));
  // The object this class asks for names `shards`, `logLength` and `engine` too, and not
  // `multiplyShiftHash`, which only a CuckooFilter can have.
  expect(got).toEqual({ ...expected, message: expected.message.replace('keyedHash?, multiplyShiftHash? }', 'keyedHash?, shards?, logLength?, engine? }') });
  expect(await redis.exists('never')).toBe(0);
});

test.each([
  ['undefined', undefined], ['null', null], ['a string', 'CKFW'], ['a number', 42], ['a DataView', new DataView(new ArrayBuffer(64))],
  ['a Uint16Array', new Uint16Array(32)], ['an empty Uint8Array', new Uint8Array(0)], ['2 GiB of zeros', new Uint8Array(2 ** 31)],
] as const)('fromBytes: %s', async (_, bytes) => {
  const expected = await asRedis(() => CuckooFilter.fromBytes(bytes as never), 'fromBytes');
  const got = await thrown(() => RedisCuckooFilter.fromBytes(redis, 'never', bytes as never));
  // A TypeError also says an array of shards' bytes is taken.
  const message = got.type === 'TypeError' ? expected.message.replace('must be a Uint8Array', 'must be a Uint8Array, or an array of 1 to 1024 of them (one per shard)') : expected.message;
  expect(got).toEqual({ ...expected, message });
  expect(await redis.exists('never')).toBe(0);
});

// What only this class takes: the client, the name, shards, the engine, the shard to export.
const own: [string, () => unknown, RegExp, string][] = [
  ['create: redis undefined', () => RedisCuckooFilter.create(undefined as never, 'n', { capacity: 10, fpr: 0.1 }), /^RedisCuckooFilter\.create: redis must be a node-redis client or cluster, or a RedisConnection, got undefined$/, 'TypeError'],
  ['open: redis a string', () => RedisCuckooFilter.open('redis://x' as never, 'n'), /^RedisCuckooFilter\.open: redis must be a node-redis client or cluster, or a RedisConnection, got "redis:\/\/x"$/, 'TypeError'],
  ['open: redis an object of neither kind', () => RedisCuckooFilter.open({ get: () => 1 } as never, 'n'), /^RedisCuckooFilter\.open: redis must be a node-redis client or cluster, or a RedisConnection \(\{ call, transaction \}\), got an object \(Object\)$/, 'TypeError'],
  ['create: name 42', () => RedisCuckooFilter.create(redis, 42 as never, { capacity: 10, fpr: 0.1 }), /^RedisCuckooFilter\.create: name must be a string, got number 42$/, 'TypeError'],
  ['open: name empty', () => RedisCuckooFilter.open(redis, ''), /^RedisCuckooFilter\.open: name must not be empty$/, 'RangeError'],
  ['fromBytes: name with a brace', () => RedisCuckooFilter.fromBytes(redis, 'a{b}', local.toBytes()), /^RedisCuckooFilter\.fromBytes: name must not contain '\{' or '\}' \(the filter's keys carry hash tags of their own\), got "a\{b\}"$/, 'RangeError'],
  ['drop: name null', () => RedisCuckooFilter.drop(redis, null as never), /^RedisCuckooFilter\.drop: name must be a string, got null$/, 'TypeError'],
  ...[0, 1025, 1.5, NaN, -1].map((shards): [string, () => unknown, RegExp, string] => [
    `create: shards ${shards}`, () => RedisCuckooFilter.create(redis, 'n', { capacity: 10, fpr: 0.1, shards }), new RegExp(`^RedisCuckooFilter\\.create: shards must be an integer from 1 to 1024, got ${shards}$`), 'RangeError',
  ]),
  ...['2', 2n, null].map((shards): [string, () => unknown, RegExp, string] => [
    `create: shards ${String(shards)}`, () => RedisCuckooFilter.create(redis, 'n', { capacity: 10, fpr: 0.1, shards: shards as never }), /^RedisCuckooFilter\.create: shards must be a number \(an integer from 1 to 1024\), got /, 'TypeError',
  ]),
  ...[-1, 65536, 1.5, NaN].map((logLength): [string, () => unknown, RegExp, string] => [
    `create: logLength ${logLength}`, () => RedisCuckooFilter.create(redis, 'n', { capacity: 10, fpr: 0.1, logLength }), new RegExp(`^RedisCuckooFilter\\.create: logLength must be an integer from 0 to 65535, got ${logLength}$`), 'RangeError',
  ]),
  ['create: logLength a string', () => RedisCuckooFilter.create(redis, 'n', { capacity: 10, fpr: 0.1, logLength: '5' as never }), /^RedisCuckooFilter\.create: logLength must be a number \(an integer from 0 to 65535\), got "5"$/, 'TypeError'],
  ['addChangeLog: logLength 0', () => RedisCuckooFilter.addChangeLog(redis, 'live', { logLength: 0 }), /^RedisCuckooFilter\.addChangeLog: logLength must be an integer from 1 to 65535, got 0$/, 'RangeError'],
  ['addChangeLog: name empty', () => RedisCuckooFilter.addChangeLog(redis, ''), /^RedisCuckooFilter\.addChangeLog: name must not be empty$/, 'RangeError'],
  ['openReplica: redis undefined', () => RedisCuckooFilter.openReplica(undefined as never, 'n'), /^RedisCuckooFilter\.openReplica: redis must be a node-redis client or cluster, or a RedisConnection, got undefined$/, 'TypeError'],
  ['openReplica: name with a brace', () => RedisCuckooFilter.openReplica(redis, '{x}'), /^RedisCuckooFilter\.openReplica: name must not contain/, 'RangeError'],
  ...['lua', 42, null].map((engine): [string, () => unknown, RegExp, string] => [
    `create: engine ${String(engine)}`, () => RedisCuckooFilter.create(redis, 'n', { capacity: 10, fpr: 0.1, engine: engine as never }), /^RedisCuckooFilter\.create: engine must be 'auto', 'module' or 'scripts', got /, 'TypeError',
  ]),
  ['open: options 42', () => RedisCuckooFilter.open(redis, 'live', 42 as never), /^RedisCuckooFilter\.open: options must be an object \{ engine\? \}, got number 42$/, 'TypeError'],
  ['fromBytes: engine true', () => RedisCuckooFilter.fromBytes(redis, 'n', local.toBytes(), { engine: true as never }), /^RedisCuckooFilter\.fromBytes: engine must be 'auto', 'module' or 'scripts', got boolean true$/, 'TypeError'],
  ['fromBytes: an empty array', () => RedisCuckooFilter.fromBytes(redis, 'n', []), /^RedisCuckooFilter\.fromBytes: bytes must be a Uint8Array, or an array of 1 to 1024 of them/, 'TypeError'],
  ['fromBytes: an array holding a string', () => RedisCuckooFilter.fromBytes(redis, 'n', [local.toBytes(), 'x' as never]), /^RedisCuckooFilter\.fromBytes: bytes must be a Uint8Array, or an array/, 'TypeError'],
  ...[1, -1, 0.5, NaN].map((shard): [string, () => unknown, RegExp, string] => [
    `toBytes(${shard}) of one shard`, () => live.toBytes(shard), new RegExp(`^RedisCuckooFilter\\.toBytes: shard must be an integer from 0 to 0, got ${shard}$`), 'RangeError',
  ]),
  ["toBytes('0')", () => live.toBytes('0' as never), /^RedisCuckooFilter\.toBytes: shard must be a number \(an integer from 0 to 0\), got "0"$/, 'TypeError'],
  ['shardOf(NaN)', () => live.shardOf(NaN), /^RedisCuckooFilter\.shardOf: item: a number item must be a safe integer/, 'RangeError'],
];

test.each(own)('%s', async (_, call, message, type) => {
  const refusal = await thrown(call);
  expect(refusal.type).toBe(type);
  expect(refusal.message).toMatch(message);
  expect(await redis.exists('n')).toBe(0);
});

const methods = [...singles, ...batches, 'size', 'toBytes', 'drop', 'shardOf'] as const;

test.each(methods)('a dropped filter refuses %s, whatever the argument (DISPOSED)', async (method) => {
  const refusal = await thrown(() => (dropped[method] as (x: unknown) => unknown)(NaN));
  expect(refusal).toEqual({ type: 'CuckooFilterError', code: 'DISPOSED', message: `RedisCuckooFilter.${method}: this filter was dropped` });
});

test('a dropped filter describes itself rather than refusing: toJSON and toString take no argument and say it was dropped', () => {
  expect(dropped.toJSON()).toEqual({ name: 'dropped', dropped: true });
  expect(dropped.toString()).toBe('RedisCuckooFilter {"name":"dropped","dropped":true}');
});

test('the table covers every public method', () => {
  const names = [
    ...Object.getOwnPropertyNames(RedisCuckooFilter.prototype).filter((name) => name !== 'constructor'),
    ...Object.getOwnPropertyNames(RedisCuckooFilter).filter((name) => !['length', 'name', 'prototype'].includes(name)),
  ];
  const covered = new Set<string>([...singles, ...batches, ...methods, 'create', 'fromBytes', 'open', 'drop', 'name', 'params', 'engine', 'toJSON', 'toString', 'openReplica', 'addChangeLog']);
  expect(names.filter((name) => !covered.has(name))).toEqual([]);
  expect(live.name).toBe('live');
  expect(live.engine).toBe(SUITE_ENGINE);
  expect(dropped.params.shards).toBe(1);
});
