// The module's commands as any client sends them (node-redis sendCommand,
// as redis-cli would): the same filters, keys and bytes as RedisCuckooFilter
// makes, the replies, the flags and key specs that MULTI, WATCH, ACLs and
// scripts rely on, and errors that name the problem with nothing written.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CuckooFilter } from 'cuckoo-wasm';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { LOCATION_WORDS, locateItems } from '../../dist/cjs/parts';
import { collidingIntegers } from '../support/colliding-keys';
import { connect, serverForFile } from '../redis/support/servers';
import { bytesOf, infoOf, integerItem, refusedWith, send, snapshot } from './support/commands';

const live = serverForFile();

afterEach(async () => {
  await live.redis.flushAll();
  await live.redis.sendCommand(['ACL', 'RESET']).catch(() => undefined);
});

test.each([
  [1_000_000, 0.001, [] as string[]],
  [5000, 0.01, ['SEMISORT']],
  [100_000, 0.0001, ['SHARDS', '3']],
  [777, 0.05, ['MAXKICKS', '20']],
  [3_000_000, 0.001, ['semisort', 'maxkicks', '1000']],
  [20_000, 0.01, ['KEYEDHASH', 'SHARDS', '2']],
  [1024, 0.001, ['KEYEDHASH']],
  [1, 0.5, []],
])('RESERVE %d %d %s makes what RedisCuckooFilter.create makes: parameters, keys, bytes, memory', async (capacity, fpr, extra) => {
  const { redis } = live;
  const lower = extra.map((word) => word.toLowerCase());
  const shards = lower.includes('shards') ? Number(extra[lower.indexOf('shards') + 1]) : 1;
  const maxKicks = lower.includes('maxkicks') ? Number(extra[lower.indexOf('maxkicks') + 1]) : undefined;
  const made = await RedisCuckooFilter.create(redis, 'js', {
    capacity, fpr, seed: 99, shards, semiSort: lower.includes('semisort'), keyedHash: lower.includes('keyedhash'), ...(maxKicks === undefined ? {} : { maxKicks }),
  });
  expect(await send(redis, 'CUCKOO.RESERVE', 'mod', String(capacity), String(fpr), 'SEED', '99', ...extra)).toBe('OK');
  const reserved = await RedisCuckooFilter.open(redis, 'mod');
  expect(reserved.params).toEqual(made.params);
  const [jsKeys, modKeys] = [(await redis.keys('*js*')).sort(), (await redis.keys('*mod*')).sort()];
  // The keys' shards and chunks (the tags' salts depend on the name).
  const withoutSalt = (key: string, name: string): string => key.replace(new RegExp(`^\\{${name}:(\\d+):\\d+\\}`), '{$1}').replace(name, '');
  expect(modKeys.map((key) => withoutSalt(key, 'mod'))).toEqual(jsKeys.map((key) => withoutSalt(key, 'js')));
  expect(await bytesOf(redis, '*mod*')).toEqual(await bytesOf(redis, '*js*'));
  for (const [k, key] of modKeys.entries()) {
    expect([key, await redis.memoryUsage(key)]).toEqual([key, await redis.memoryUsage(jsKeys[k]!)]);
  }
  // The same items the same way leave the same bytes (the module hashing, the scripts placing).
  const items = Array.from({ length: Math.min(2 * capacity, 3000) }, (_, i) => `item-${i}`);
  const added = Number(await send(redis, 'CUCKOO.MADD', 'mod', ...items));
  expect(added).toBe(await made.addMany(items));
  expect(await bytesOf(redis, '*mod*')).toEqual(await bytesOf(redis, '*js*'));
});

test('RESERVE without SEED draws a random seed', async () => {
  const seeds = new Set<string>();
  for (const name of ['a', 'b', 'c']) {
    await send(live.redis, 'CUCKOO.RESERVE', name, '1000', '0.01');
    seeds.add(String((await RedisCuckooFilter.open(live.redis, name)).params.seed));
  }
  expect(seeds.size).toBe(3);
});

test("redis-cli's CUCKOO.ADD seen alice and filter.has('alice') agree, in Redis and in a filter loaded from its bytes", async () => {
  const { redis } = live;
  expect(await send(redis, 'CUCKOO.RESERVE', 'seen', '100000', '0.001')).toBe('OK');
  expect(await send(redis, 'CUCKOO.ADD', 'seen', 'alice')).toBe(1);
  const seen = await RedisCuckooFilter.open(redis, 'seen', { engine: 'scripts' });
  expect(await seen.has('alice')).toBe(true);
  expect(await seen.add(7)).toBe(true);
  expect(await seen.add('bob')).toBe(true);
  using local = CuckooFilter.fromBytes(await seen.toBytes());
  expect([local.has('alice'), local.has(7), local.has('bob'), local.has('mallory')]).toEqual([true, true, true, false]);
  expect(await send(redis, 'CUCKOO.MEXISTS', 'seen', 'alice', integerItem(7), 'bob', 'mallory')).toEqual([1, 1, 1, 0]);
  expect(await send(redis, 'CUCKOO.EXISTS', 'seen', Buffer.from(new TextEncoder().encode('alice')))).toBe(1);
});

test('the replies: ADD, ADDNX, MADD, EXISTS, MEXISTS, COUNT, DEL, and a full filter that refuses and changes nothing', async () => {
  const { redis } = live;
  await send(redis, 'CUCKOO.RESERVE', 'r', '10000', '0.01', 'SEED', '0');
  expect(await send(redis, 'CUCKOO.ADD', 'r', 'x')).toBe(1);
  expect(await send(redis, 'CUCKOO.ADD', 'r', 'x')).toBe(1);
  expect(await send(redis, 'CUCKOO.COUNT', 'r', 'x')).toBe(2);
  expect(await send(redis, 'CUCKOO.ADDNX', 'r', 'x')).toBe(0);
  expect(await send(redis, 'CUCKOO.ADDNX', 'r', 'y')).toBe(1);
  expect(await send(redis, 'CUCKOO.MADD', 'r', 'a', 'b', 'c')).toBe(3);
  expect(await send(redis, 'CUCKOO.EXISTS', 'r', 'a')).toBe(1);
  expect(await send(redis, 'CUCKOO.MEXISTS', 'r', 'a', 'zz', 'c')).toEqual([1, 0, 1]);
  expect(await send(redis, 'CUCKOO.DEL', 'r', 'x', 'zz', 'a')).toBe(2);
  expect(await send(redis, 'CUCKOO.DEL', 'r', 'a')).toBe(0);
  expect(await send(redis, 'CUCKOO.COUNT', 'r', 'x')).toBe(1);
  // Ten keys of one fingerprint and one pair of buckets: two buckets of 4 and the stash hold nine.
  const shape = (await RedisCuckooFilter.open(redis, 'r')).params;
  const colliding = collidingIntegers(shape, 11).map(integerItem);
  for (const key of colliding.slice(0, 9)) expect(await send(redis, 'CUCKOO.ADD', 'r', key)).toBe(1);
  const before = await snapshot(redis);
  expect(await send(redis, 'CUCKOO.ADD', 'r', colliding[9]!)).toBe(0);
  expect(await send(redis, 'CUCKOO.ADDNX', 'r', colliding[10]!)).toBe(0); // its fingerprint is there: "present"
  expect(await send(redis, 'CUCKOO.MADD', 'r', colliding[9]!, 'later')).toBe(0);
  expect(await snapshot(redis)).toBe(before);
  expect(await send(redis, 'CUCKOO.ADD', 'r', 'ordinary')).toBe(1);
  // ADDNX of an absent item that cannot be placed: -1. No kicks, so once the stash is taken any add to full buckets is refused.
  await send(redis, 'CUCKOO.RESERVE', 'nokicks', '50', '0.05', 'MAXKICKS', '0', 'SEED', '4');
  let full = 0;
  for (let k = 0; full === 0; k++) {
    if (Number(await send(redis, 'CUCKOO.EXISTS', 'nokicks', `n${k}`)) === 1) continue;
    const reply = Number(await send(redis, 'CUCKOO.ADDNX', 'nokicks', `n${k}`));
    if (reply === -1) full = k;
    else expect(reply).toBe(1);
  }
  expect(await send(redis, 'CUCKOO.EXISTS', 'nokicks', `n${full}`)).toBe(0);
});

test('INFO: the parameters, the layout, and size, load, bits per item and rates as the in-process filter reports them', async () => {
  const { redis } = live;
  await send(redis, 'CUCKOO.RESERVE', 'i', '50000', '0.001', 'SEED', '3');
  await send(redis, 'CUCKOO.MADD', 'i', ...Array.from({ length: 20_000 }, (_, k) => `k${k}`));
  const info = await infoOf(redis, 'i');
  const filter = await RedisCuckooFilter.open(redis, 'i');
  using local = CuckooFilter.fromBytes(await filter.toBytes());
  expect(info).toMatchObject({
    name: 'i', shards: 1, format: 2, 'shard-keys': ['{i:0:0}:0'],
    'bucket-count': local.params.bucketCount, 'bucket-size': local.params.bucketSize, 'fingerprint-bits': local.params.fingerprintBits,
    'semi-sorted': 0, 'max-kicks': 500, seed: '3', size: 20_000, stashed: 0, slots: local.slotCount,
  });
  expect(Number(info.load)).toBeCloseTo(local.loadFactor, 12);
  expect(Number(info['bits-per-item'])).toBeCloseTo(local.bitsPerItem, 9);
  expect(Number(info['expected-fpr'])).toBeCloseTo(local.expectedFpr, 12);
  expect(Number(info['fpr-bound'])).toBe(local.fprBound);
  expect(Number(info['table-bytes'])).toBe(Math.ceil((local.params.bucketCount * local.params.bucketSize * local.params.fingerprintBits) / 8));
});

test("a sharded filter: by name on one server the module routes each item; by a shard's key and the filter id, only that shard's items", async () => {
  const { redis } = live;
  await send(redis, 'CUCKOO.RESERVE', 'urls', '30000', '0.001', 'SHARDS', '4', 'SEED', '5');
  const items = Array.from({ length: 2000 }, (_, k) => `https://example.com/${k}`);
  expect(await send(redis, 'CUCKOO.MADD', 'urls', ...items)).toBe(2000);
  const filter = await RedisCuckooFilter.open(redis, 'urls', { engine: 'scripts' });
  expect(await filter.size()).toBe(2000);
  expect((await filter.hasMany(items)).every((answer) => answer === 1)).toBe(true);
  const info = await infoOf(redis, 'urls');
  const id = String(info.id);
  const keys = info['shard-keys'] as string[];
  expect(keys).toHaveLength(4);
  const item = items[17]!;
  const shard = filter.shardOf(item);
  expect(await send(redis, 'CUCKOO.EXISTS', keys[shard]!, id, item)).toBe(1);
  expect(await send(redis, 'CUCKOO.COUNT', keys[shard]!, id, item)).toBe(1);
  const other = (shard + 1) % 4;
  expect(await refusedWith(redis, 'CUCKOO.ADD', keys[other]!, id, item)).toBe(`ERR item 1 belongs to shard ${shard} (${keys[shard]}), not to shard ${other} (${keys[other]})`);
  expect(await refusedWith(redis, 'CUCKOO.ADD', keys[shard]!, '12345', item)).toMatch(/^NOT_FOUND key '\{urls:\d:\d+\}:0' belongs to filter id \d+, not 12345: that filter was dropped and the name used again$/);
  expect(await refusedWith(redis, 'CUCKOO.ADD', keys[shard]!, item)).toMatch(/^ERR a shard's key is followed by the filter id/);
  expect(await send(redis, 'CUCKOO.DEL', keys[shard]!, id, item)).toBe(1);
  expect(await filter.has(item)).toBe(false);
  expect((await infoOf(redis, keys[shard]!, id)).shard).toBe(shard);
});

test('arguments: errors that name the problem, nothing written', async () => {
  const { redis } = live;
  await send(redis, 'CUCKOO.RESERVE', 'f', '1000', '0.01');
  await redis.rPush('a-list', 'x');
  await redis.set('plain', 'hello world');
  const cases: [string[], RegExp][] = [
    [['CUCKOO.ADD', 'f'], /^ERR wrong number of arguments for 'cuckoo\.add' command$/],
    [['CUCKOO.ADD', 'f', 'a', 'b'], /^ERR wrong number of arguments for 'cuckoo\.add' command$/],
    [['CUCKOO.INFO', 'f', 'x', 'y'], /^ERR wrong number of arguments/],
    [['CUCKOO.EXISTS', 'missing', 'x'], /^NOT_FOUND there is no filter named 'missing'$/],
    [['CUCKOO.MADD', 'a-list', 'x'], /^WRONGTYPE Operation against a key holding the wrong kind of value \(key 'a-list'\)$/],
    [['CUCKOO.ADD', 'plain', 'x'], /^BAD_MAGIC key 'plain' does not hold a cuckoo-wasm filter \(bad magic bytes\)$/],
    [['CUCKOO.RESERVE', 'f', '1000', '0.01'], /^EXISTS the name 'f' is taken \(a filter, or another key, exists under it\)$/],
    [['CUCKOO.RESERVE', 'plain', '1000', '0.01'], /^EXISTS the name 'plain' is taken/],
    [['CUCKOO.RESERVE', 'n', '1000'], /^ERR wrong number of arguments/],
    ...['0', '-1', '1.5', 'abc', String(2 ** 53)].map((capacity): [string[], RegExp] => [['CUCKOO.RESERVE', 'n', capacity, '0.01'], /^ERR capacity must be an integer from 1 to 2\^53 - 1, got '/]),
    [['CUCKOO.RESERVE', 'n', '100', 'abc'], /^ERR fpr must be a number greater than 0 and less than 1, got 'abc'$/],
    ...['0', '1', '-0.5', 'inf'].map((fpr): [string[], RegExp] => [['CUCKOO.RESERVE', 'n', '100', fpr], /^ERR .*(rate|fpr)/]),
    [['CUCKOO.RESERVE', 'n', '100', '1e-30'], /^ERR /],
    [['CUCKOO.RESERVE', 'n', '100', '0.01', 'SPEED', '3'], /^ERR unknown option 'SPEED' \(MAXKICKS n, SEED n, SEMISORT, KEYEDHASH, SHARDS n, LOGLENGTH n\)$/],
    [['CUCKOO.RESERVE', 'n', '100', '0.01', 'SEMISORT', 'semisort'], /^ERR option SEMISORT given twice$/],
    [['CUCKOO.RESERVE', 'n', '100', '0.01', 'SEED'], /^ERR option SEED needs a value$/],
    [['CUCKOO.RESERVE', 'n', '100', '0.01', 'SEED', '-1'], /^ERR SEED must be an integer from 0 to 2\^64 - 1, got '-1'$/],
    [['CUCKOO.RESERVE', 'n', '100', '0.01', 'MAXKICKS', '1000001'], /^ERR MAXKICKS must be an integer from 0 to 1000000/],
    [['CUCKOO.RESERVE', 'n', '100', '0.01', 'SHARDS', '1025'], /^ERR SHARDS must be an integer from 1 to 1024/],
    [['CUCKOO.RESERVE', 'n', '100', '0.01', 'SHARDS', '0'], /^ERR SHARDS must be an integer from 1 to 1024/],
    [['CUCKOO.RESERVE', 'n', '100', '0.01', 'LOGLENGTH', '65536'], /^ERR LOGLENGTH must be an integer from 0 to 65535, got '65536'$/],
    [['CUCKOO.RESERVE', 'a{b}', '100', '0.01'], /^ERR name must be non-empty and without '\{' or '\}'/],
    [['CUCKOO.RESERVE', '', '100', '0.01'], /^ERR name must be non-empty/],
    [['CUCKOO.RESERVE', 'huge', '2000000000', '0.0001'], /^ERR each shard's table would be over 2 GiB: use more SHARDS, or a higher fpr$/],
    [['CUCKOO.RESERVE', 'huge', '4000000000000', '0.0001'], /^ERR the table would exceed the maximum table size/],
  ];
  for (const [args, expected] of cases) expect([args.join(' '), await refusedWith(redis, ...args)]).toEqual([args.join(' '), expect.stringMatching(expected)]);
  // A key of the filter taken by something else: RESERVE refuses before making any.
  await redis.set('{g:0:0}:0', 'taken');
  expect(await refusedWith(redis, 'CUCKOO.RESERVE', 'g', '1000', '0.01')).toBe('EXISTS key {g:0:0}:0 already exists');
  // A shard's bytes under a key not named as chunk 0.
  await redis.copy('{f:0:0}:0', 'copied');
  expect(await refusedWith(redis, 'CUCKOO.EXISTS', 'copied', '1', 'x')).toMatch(/^ERR key 'copied' holds a shard, but is not named as its chunk 0/);
});

test('hostile items: empty, binary, a megabyte, 100,000 in one command', async () => {
  const { redis } = live;
  await send(redis, 'CUCKOO.RESERVE', 'h', '200000', '0.001', 'SEED', '1');
  const odd = [Buffer.alloc(0), Buffer.from([0, 255, 13, 10, 0]), Buffer.alloc(1 << 20, 7), Buffer.from('é\u0000x')];
  expect(await send(redis, 'CUCKOO.MADD', 'h', ...odd)).toBe(4);
  expect(await send(redis, 'CUCKOO.MEXISTS', 'h', ...odd)).toEqual([1, 1, 1, 1]);
  const filter = await RedisCuckooFilter.open(redis, 'h', { engine: 'scripts' });
  expect(Array.from(await filter.hasMany(odd.map((item) => new Uint8Array(item))))).toEqual([1, 1, 1, 1]);
  const many = Array.from({ length: 100_000 }, (_, k) => `m${k}`);
  expect(await send(redis, 'CUCKOO.MADD', 'h', ...many)).toBe(100_000);
  expect(((await send(redis, 'CUCKOO.MEXISTS', 'h', ...many)) as number[]).every((answer) => answer === 1)).toBe(true);
});

test('damaged keys: refused, and what the command wrote before meeting the damage is undone', async () => {
  const { redis } = live;
  await send(redis, 'CUCKOO.RESERVE', 's', '1000', '0.001', 'SEMISORT', 'SEED', '2');
  const filter = await RedisCuckooFilter.open(redis, 's');
  // Bucket 0's rank names no bucket; the last item of a batch meets it after the others were placed.
  await redis.sendCommand(['BITFIELD', '{s:0:0}:0', 'SET', 'u12', String(76 * 8), '4095']);
  const located = locateItems(filter.params, new Float64Array(100_000).map((_, i) => i), 'test');
  let aimed = -1;
  for (let k = 0; aimed < 0; k++) if (located[LOCATION_WORDS * k + 1] === 0) aimed = k;
  const others = Array.from({ length: 300 }, (_, k) => `other-${k}`);
  expect(await refusedWith(redis, 'CUCKOO.MADD', 's', ...others, integerItem(aimed))).toBe('INCONSISTENT bucket 0 of shard 0 has rank 4095, which names no bucket');
  expect(await refusedWith(redis, 'CUCKOO.MEXISTS', 's', integerItem(aimed))).toMatch(/^INCONSISTENT bucket 0 of shard 0 has rank 4095/);
  // A later chunk cut short, or of another type; a damaged stash; a root whose making did not finish.
  await send(redis, 'CUCKOO.RESERVE', 'big', '1000000', '0.001');
  const chunks = (await redis.keys('{big:*')).sort();
  expect(chunks.length).toBeGreaterThan(1);
  const many = Array.from({ length: 5000 }, (_, k) => `i${k}`);
  const bytes = redis.withTypeMapping({ 36: Buffer });
  const maxKicks = (await bytes.getRange(chunks[0]!, 15, 15)) as unknown as Buffer;
  await redis.sendCommand(['SETRANGE', chunks[0]!, '15', Buffer.from([maxKicks[0]! ^ 1])]);
  expect(await refusedWith(redis, 'CUCKOO.MADD', 'big', ...many)).toBe("INCONSISTENT key '{big:0:0}:0' disagrees with the root 'big' at header byte 15: not shard 0 of this filter");
  await redis.sendCommand(['SETRANGE', chunks[0]!, '0', 'x']);
  expect(await refusedWith(redis, 'CUCKOO.MADD', 'big', ...many)).toBe("BAD_MAGIC key '{big:0:0}:0' does not hold a cuckoo-wasm filter (bad magic bytes)");
  await redis.sendCommand(['SETRANGE', chunks[0]!, '0', 'C']);
  await redis.sendCommand(['SETRANGE', chunks[0]!, '15', maxKicks]);
  const last = chunks[chunks.length - 1]!;
  const value = (await bytes.get(last)) as unknown as Buffer;
  await redis.set(last, value.subarray(1));
  expect(await refusedWith(redis, 'CUCKOO.MADD', 'big', ...many)).toMatch(new RegExp(`^TRUNCATED key '\\${last.slice(0, -2)}:\\d+' holds \\d+ bytes, the filter needs \\d+$`));
  await redis.del(last);
  await redis.sAdd(last, 'member');
  expect(await refusedWith(redis, 'CUCKOO.MADD', 'big', ...many)).toMatch(/^WRONGTYPE /);
  await redis.sendCommand(['SETRANGE', chunks[0]!, '52', Buffer.from([0xff, 0xff, 0xff, 0xff])]);
  expect(await refusedWith(redis, 'CUCKOO.ADD', 'big', 'x')).toBe("INCONSISTENT key '{big:0:0}:0' has a damaged stash");
  await redis.sendCommand(['SETRANGE', 'big', '41', Buffer.from([1])]);
  expect(await refusedWith(redis, 'CUCKOO.EXISTS', 'big', 'x')).toBe("NOT_FOUND filter 'big' is being created, or its creation did not finish");
  await redis.sendCommand(['SETRANGE', 'big', '41', Buffer.from([9])]);
  expect(await refusedWith(redis, 'CUCKOO.EXISTS', 'big', 'x')).toBe("BAD_PARAMETERS key 'big' has a bad state");
});

test('MULTI, WATCH and scripts: the flags and key specs Redis reads', async () => {
  const { redis } = live;
  await send(redis, 'CUCKOO.RESERVE', 'w', '1000', '0.01');
  const info = (await redis.sendCommand(['COMMAND', 'INFO', 'CUCKOO.ADD', 'CUCKOO.MEXISTS', 'CUCKOO.RESERVE'])) as unknown[][];
  expect(info.map((entry) => [entry[0], [...(entry[2] as string[])].sort()])).toEqual([
    ['cuckoo.add', ['denyoom', 'module', 'write']],
    ['cuckoo.mexists', ['fast', 'module', 'readonly']],
    ['cuckoo.reserve', ['denyoom', 'module', 'write']],
  ]);
  expect(await redis.sendCommand(['COMMAND', 'GETKEYS', 'CUCKOO.MADD', 'w', 'a', 'b'])).toEqual(['w']);
  const results = await redis.multi().addCommand(['CUCKOO.ADD', 'w', 'a']).addCommand(['CUCKOO.EXISTS', 'w', 'a']).addCommand(['CUCKOO.EXISTS', 'w', 'b']).exec();
  expect(results).toEqual([1, 1, 0]);
  expect(await redis.eval("return redis.call('CUCKOO.EXISTS', KEYS[1], ARGV[1])", { keys: ['w'], arguments: ['a'] })).toBe(1);
  // A read or a refused write leaves a WATCH alone; an add that changed the chunk breaks it.
  const watcher = await connect(live.server);
  try {
    await watcher.watch('{w:0:0}:0');
    await redis.sendCommand(['CUCKOO.MEXISTS', 'w', 'a', 'b']);
    await redis.sendCommand(['CUCKOO.DEL', 'w', 'never-added']);
    expect(await watcher.multi().set('x', '1').exec()).toEqual(['OK']);
    await watcher.watch('{w:0:0}:0');
    await redis.sendCommand(['CUCKOO.ADD', 'w', 'c']);
    await expect(watcher.multi().set('x', '2').exec()).rejects.toThrow(/WATCH|aborted/i);
  } finally {
    await watcher.quit();
  }
});

test("ACLs: the filter's own keys need the user's permission too, read or write as the command uses them", async () => {
  const { redis } = live;
  await send(redis, 'CUCKOO.RESERVE', 'acl', '1000', '0.01');
  await redis.sendCommand(['ACL', 'SETUSER', 'nameonly', 'on', '>pw', '+@all', '~acl']);
  await redis.sendCommand(['ACL', 'SETUSER', 'whole', 'on', '>pw', '+@all', '~acl', '~{acl:*']);
  await redis.sendCommand(['ACL', 'SETUSER', 'reader', 'on', '>pw', '+@all', '%R~*']);
  const as = async (user: string, ...args: string[]): Promise<unknown> => {
    const client = await connect(live.server);
    try {
      await client.auth({ username: user, password: 'pw' });
      return await send(client as never, ...args);
    } finally {
      await client.quit();
    }
  };
  expect(await as('nameonly', 'CUCKOO.ADD', 'acl', 'x')).toEqual({ error: expect.stringMatching(/^NOPERM this user has no permissions to access key '\{acl:0:0\}:0'/) });
  expect(await as('whole', 'CUCKOO.ADD', 'acl', 'x')).toBe(1);
  expect(await as('reader', 'CUCKOO.EXISTS', 'acl', 'x')).toBe(1);
  expect(await as('reader', 'CUCKOO.ADD', 'acl', 'y')).toEqual({ error: expect.stringMatching(/^NOPERM/) });
  expect(await send(redis, 'CUCKOO.EXISTS', 'acl', 'y')).toBe(0);
});

test("hash ids 6 and 7 (multiplyShiftHash): RESERVE has no option for them; a header naming one, or a CuckooFilter's own bytes, is refused by name", async () => {
  const { redis } = live;
  const unsupported = 'Redis filters do not support multiplyShiftHash (hash ids 6 to 11, format versions 5 to 7): their scripts, and the cuckoo module, place items with XXH3 (hash ids 1 and 2) or the keyed hash (keyedHash: 4 and 5) only';
  expect(await refusedWith(redis, 'CUCKOO.RESERVE', 'm', '1000', '0.01', 'MULTIPLYSHIFTHASH')).toBe(`ERR option MULTIPLYSHIFTHASH is not supported: ${unsupported}`);
  expect(await refusedWith(redis, 'CUCKOO.RESERVE', 'm', '1000', '0.01', 'KEYEDHASH', 'multiplyshifthash')).toBe(`ERR option MULTIPLYSHIFTHASH is not supported: ${unsupported}`);
  expect(await redis.keys('*')).toEqual([]);
  await send(redis, 'CUCKOO.RESERVE', 'f', '1000', '0.01', 'SEED', '4');
  expect(await send(redis, 'CUCKOO.MADD', 'f', 'a', 'b')).toBe(2);
  const chunk0 = (await redis.keys('{f:*')).find((key) => key.endsWith(':0'))!;
  const { id } = await infoOf(redis, 'f');
  const bytes = redis.withTypeMapping({ 36: Buffer });
  for (const key of ['f', chunk0]) {
    const original = (await bytes.getRange(key, 6, 6)) as unknown as Buffer;
    for (const hashId of [6, 7]) {
      await redis.sendCommand(['SETRANGE', key, '6', Buffer.from([hashId])]);
      const expected = `UNSUPPORTED_VERSION key '${key}' has hash id ${hashId}: ${unsupported}`;
      expect(await refusedWith(redis, 'CUCKOO.ADD', 'f', 'x')).toBe(expected);
      expect(await refusedWith(redis, 'CUCKOO.MEXISTS', 'f', 'a', 'b')).toBe(expected);
      expect(await refusedWith(redis, 'CUCKOO.INFO', 'f')).toBe(expected);
      if (key === chunk0) expect(await refusedWith(redis, 'CUCKOO.DEL', chunk0, String(id), 'a')).toBe(expected);
    }
    await redis.sendCommand(['SETRANGE', key, '6', original]);
  }
  expect(await send(redis, 'CUCKOO.MEXISTS', 'f', 'a', 'b')).toEqual([1, 1]);
  // A CuckooFilter's bytes where a filter belongs: version 5 (the golden fixture of hash id 6), and version 1.
  const version5 = readFileSync(join(__dirname, '..', 'fixtures', 'golden-f12-b4-m1024-seed42-mulshift.cf'));
  using version1 = new CuckooFilter({ bucketCount: 64, bucketSize: 4, fingerprintBits: 12, seed: 1 });
  await redis.set('five', version5);
  await redis.set('one', Buffer.from(version1.toBytes()));
  expect(await refusedWith(redis, 'CUCKOO.EXISTS', 'five', 'a')).toBe(`BAD_MAGIC key 'five' holds a CuckooFilter's bytes (format version 5), not a Redis filter: ${unsupported}`);
  expect(await refusedWith(redis, 'CUCKOO.ADD', 'one', 'a')).toBe("BAD_MAGIC key 'one' holds a CuckooFilter's bytes (format version 1), not a Redis filter: RedisCuckooFilter.fromBytes makes a Redis filter of them");
});
