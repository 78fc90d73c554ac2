// Hash ids 6 to 11 (multiplyShiftHash, FORMAT.md versions 5 to 7) have no
// Redis filters: the scripts place items themselves, in Lua, with XXH3 or the
// keyed hash, and the module as they do. So create refuses the option,
// fromBytes refuses a version 5, 6 or 7 filter's bytes, and a stored header that
// names hash id 6 to 11 is refused as such (not as a hash id that disagrees with the bucket
// count, nor read as keyed); each a typed error with nothing written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CuckooFilter, CuckooFilterError, FormatError } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { serverForFile, type Client } from './support/servers';

const live = serverForFile();

afterEach(async () => {
  await live.redis.flushAll();
});

const UNSUPPORTED = 'Redis filters do not support multiplyShiftHash (hash ids 6 to 11, format versions 5 to 7)';
const fixture = (name: string): Uint8Array => new Uint8Array(readFileSync(join(__dirname, '..', 'fixtures', name)));
// Format version 5, hash id 6 (1,024 buckets) and hash id 7 (1,000 buckets, semi-sorted), and
// version 6, hash ids 8 and 9 (the same with keys mixed), and version 7, hash ids 10 and 11 (the
// seeded mix), written by the native core.
const mulXor = fixture('golden-f12-b4-m1024-seed42-mulshift.cf');
const mulRange = fixture('golden-f13-b4-m1000-seed42-semisorted-mulshift.cf');
const mixedXor = fixture('golden-f12-b4-m1024-seed42-mulshift-mixed.cf');
const mixedRange = fixture('golden-f13-b4-m1000-seed42-semisorted-mulshift-mixed.cf');
const mix64Xor = fixture('golden-f12-b4-m1024-seed42-mix64.cf');
const mix64Range = fixture('golden-f13-b4-m1000-seed42-semisorted-mix64.cf');

/** Every key and its value, to compare before and after a refusal. */
async function snapshot(redis: Client): Promise<string> {
  const bytes = redis.withTypeMapping({ 36: Buffer });
  const entries: string[] = [];
  for (const key of (await redis.keys('*')).sort()) {
    const type = await redis.type(key);
    entries.push(`${key} ${type} ${type === 'string' ? Buffer.from((await bytes.get(key)) as unknown as Buffer).toString('hex') : ''}`);
  }
  return entries.join('\n');
}

/** The call's error, which must be one of the library's, with every key left as it was. */
async function refusal(call: () => Promise<unknown>): Promise<CuckooFilterError> {
  const before = await snapshot(live.redis);
  const caught = await call().then(
    () => undefined,
    (error: unknown) => error,
  );
  expect(await snapshot(live.redis)).toBe(before);
  if (!(caught instanceof CuckooFilterError)) throw new Error(`expected a CuckooFilterError, got ${String(caught)}`);
  return caught;
}

const summary = (error: CuckooFilterError) => ({ type: error instanceof FormatError ? 'FormatError' : 'CuckooFilterError', code: error.code, message: error.message });

test('create: multiplyShiftHash: true is refused (INCOMPATIBLE) before anything is written; false makes a filter as without it', async () => {
  const { redis } = live;
  for (const options of [
    { capacity: 1000, fpr: 0.01, multiplyShiftHash: true },
    { capacity: 1000, fpr: 0.01, multiplyShiftHash: true, shards: 2, semiSort: true },
    { capacity: 1000, fpr: 0.01, multiplyShiftHash: true, engine: 'scripts' },
  ]) {
    const error = await refusal(() => RedisCuckooFilter.create(redis, 'keys', options as unknown as { capacity: number }));
    expect(summary(error)).toEqual({
      type: 'CuckooFilterError',
      code: 'INCOMPATIBLE',
      message: expect.stringMatching(/^RedisCuckooFilter\.create: multiplyShiftHash must be false or absent: Redis filters do not support multiplyShiftHash \(hash ids 6 to 11, format versions 5 to 7\): .*XXH3 \(hash ids 1 and 2\) or the keyed hash/),
    });
  }
  expect(await redis.keys('*')).toEqual([]);
  const made = await RedisCuckooFilter.create(redis, 'plain', { capacity: 1000, fpr: 0.01, seed: 5, multiplyShiftHash: false });
  expect(made.params.multiplyShiftHash).toBe(false);
  expect(await made.add(7)).toBe(true);
  const opened = await RedisCuckooFilter.open(redis, 'plain');
  expect(opened.params).toEqual(made.params);
  expect(await opened.has(7)).toBe(true);
});

test('fromBytes: the bytes of a CuckooFilter of format versions 5 to 7 are refused (INCOMPATIBLE), alone or as a shard', async () => {
  const { redis } = live;
  for (const [bytes, version, hashId] of [
    [mulXor, 5, 6],
    [mulRange, 5, 7],
    [mixedXor, 6, 8],
    [mixedRange, 6, 9],
    [mix64Xor, 7, 10],
    [mix64Range, 7, 11],
  ] as const) {
    expect([bytes[4], bytes[6]]).toEqual([version, hashId]);
    using local = CuckooFilter.fromBytes(bytes); // valid bytes: the refusal is Redis's alone
    expect(local.size).toBe(2050);
    expect(summary(await refusal(() => RedisCuckooFilter.fromBytes(redis, 'copy', bytes)))).toEqual({
      type: 'CuckooFilterError',
      code: 'INCOMPATIBLE',
      message: `RedisCuckooFilter.fromBytes: the bytes are a CuckooFilter of format version ${version} (hash id ${hashId}): ${UNSUPPORTED}: their scripts, and the cuckoo module, place items with XXH3 (hash ids 1 and 2) or the keyed hash (keyedHash: 4 and 5) only`,
    });
  }
  using xxh3 = new CuckooFilter({ bucketCount: 1024, bucketSize: 4, fingerprintBits: 12, seed: 42 });
  const error = await refusal(() => RedisCuckooFilter.fromBytes(redis, 'copy', [xxh3.toBytes(), mulXor]));
  expect([error.code, error.message]).toEqual(['INCOMPATIBLE', expect.stringMatching(/^RedisCuckooFilter\.fromBytes: bytes\[1\]: the bytes are a CuckooFilter of format version 5 \(hash id 6\)/)]);
  expect(await redis.keys('*')).toEqual([]);
  // The XXH3 filter alone still loads.
  const loaded = await RedisCuckooFilter.fromBytes(redis, 'copy', xxh3.toBytes());
  expect(loaded.params.multiplyShiftHash).toBe(false);
});

test.each([6, 7, 8, 9, 10, 11])("a stored root or shard header naming hash id %i is refused as unsupported (FormatError UNSUPPORTED_VERSION), not misread as keyed", async (hashId) => {
  const { redis } = live;
  const filter = await RedisCuckooFilter.create(redis, 'stored', { capacity: 20_000, fpr: 0.001, seed: 3 });
  expect(await filter.addMany(new Uint32Array(1000).map((_, i) => i))).toBe(1000);
  const [chunk0] = (await redis.keys('{stored:*')).filter((key) => key.endsWith(':0'));
  for (const key of ['stored', chunk0!]) {
    const bytes = redis.withTypeMapping({ 36: Buffer });
    const original = (await bytes.getRange(key, 6, 6)) as unknown as Buffer;
    await redis.sendCommand(['SETRANGE', key, '6', Buffer.from([hashId])]);
    const expected = {
      type: 'FormatError',
      code: 'UNSUPPORTED_VERSION',
      message: expect.stringMatching(new RegExp(`^RedisCuckooFilter\\.open: key '${key.replace(/[{}]/g, '\\$&')}' has hash id ${hashId}: Redis filters do not support multiplyShiftHash \\(hash ids 6 to 11, format versions 5 to 7\\)`)),
    };
    expect(summary(await refusal(() => RedisCuckooFilter.open(redis, 'stored')))).toEqual(expected);
    expect(summary(await refusal(() => RedisCuckooFilter.openReplica(redis, 'stored')))).toEqual({ ...expected, message: expect.stringMatching(/has hash id \d+: Redis filters do not support multiplyShiftHash/) });
    if (key === chunk0) {
      // A handle opened before: the scripts find the header changed under it; the module reads it as unsupported.
      for (const call of [() => filter.add(5000), () => filter.delete(1)]) {
        const error = await refusal(call);
        expect(error).toBeInstanceOf(FormatError);
        expect(error.code).toBe(filter.engine === 'module' ? 'UNSUPPORTED_VERSION' : 'BAD_PARAMETERS');
      }
      expect(summary(await refusal(() => filter.toBytes()))).toMatchObject({ type: 'FormatError', code: 'BAD_PARAMETERS' });
    }
    await redis.sendCommand(['SETRANGE', key, '6', original]);
  }
  expect(await (await RedisCuckooFilter.open(redis, 'stored')).has(999)).toBe(true);
});

test("a CuckooFilter's own bytes stored where a Redis filter belongs are named as such (BAD_MAGIC)", async () => {
  const { redis } = live;
  using xxh3 = new CuckooFilter({ bucketCount: 64, bucketSize: 4, fingerprintBits: 12, seed: 1 });
  for (const [bytes, why] of [
    [mulXor, `format version 5\\), not a Redis filter: ${UNSUPPORTED.replace(/[()]/g, '\\$&')}`],
    [mixedXor, `format version 6\\), not a Redis filter: ${UNSUPPORTED.replace(/[()]/g, '\\$&')}`],
    [mix64Xor, `format version 7\\), not a Redis filter: ${UNSUPPORTED.replace(/[()]/g, '\\$&')}`],
    [xxh3.toBytes(), 'format version 1\\), not a Redis filter: RedisCuckooFilter\\.fromBytes makes a Redis filter of them$'],
  ] as const) {
    await redis.set('local', Buffer.from(bytes));
    const error = await refusal(() => RedisCuckooFilter.open(redis, 'local'));
    expect(summary(error)).toEqual({ type: 'FormatError', code: 'BAD_MAGIC', message: expect.stringMatching(new RegExp(`^RedisCuckooFilter\\.open: key 'local' holds a CuckooFilter's bytes \\(${why}`)) });
  }
});

test('a stored header of layout version 5 is a version this library does not read', async () => {
  const { redis } = live;
  await RedisCuckooFilter.create(redis, 'versioned', { capacity: 1000, fpr: 0.01 });
  await redis.sendCommand(['SETRANGE', 'versioned', '4', Buffer.from([5])]);
  const error = await refusal(() => RedisCuckooFilter.open(redis, 'versioned'));
  expect(summary(error)).toEqual({ type: 'FormatError', code: 'UNSUPPORTED_VERSION', message: "RedisCuckooFilter.open: key 'versioned' holds format version 5, this library reads 1 and 2" });
});
