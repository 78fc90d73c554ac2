// A filter of format 2 (ts/src/redis/CHANGE-LOG.md, issue 31): each write
// through the module that changed a shard appends exactly one record to the
// shard's log, as the scripts do: INCR {T}:seq, XADD {T}:log MAXLEN ~ n * c
// <record>. Here the records are read back and applied to the shard's
// earlier bytes as a follower would, giving its bytes now.
import { init } from 'cuckoo-wasm';
import { serverForFile } from '../redis/support/servers';
import { refusedWith, send } from './support/commands';

const live = serverForFile();
beforeAll(() => init());

const CHUNK = '{logged:0:0}:0';

interface ChangeRecord {
  seq: bigint;
  id: Buffer;
  shard: number;
  state: Buffer;
  buckets: { bucket: number; contents: Buffer }[];
}

function decode(record: Buffer, bucketBytes: number): ChangeRecord {
  expect(record.subarray(0, 4).toString('latin1')).toBe('CKFC');
  expect([record[4], record[5], record.readUInt16BE(14)]).toEqual([1, 0, 0]);
  const count = record.readUInt32BE(48);
  expect(record.length).toBe(52 + count * (4 + bucketBytes));
  const buckets = Array.from({ length: count }, (_, k) => {
    const at = 52 + k * (4 + bucketBytes);
    return { bucket: record.readUInt32BE(at), contents: record.subarray(at + 4, at + 4 + bucketBytes) };
  });
  return { seq: record.readBigUInt64BE(16), id: record.subarray(6, 12), shard: record.readUInt16BE(12), state: record.subarray(24, 48), buckets };
}

/** Applies a record to a one-chunk shard's bytes as a follower does: each bucket's bits, then the state. */
function apply(chunk: Buffer, record: ChangeRecord, bucketBits: number): void {
  for (const { bucket, contents } of record.buckets) {
    for (let bit = 0; bit < bucketBits; bit++) {
      const value = (contents[bit >> 3]! >> (7 - (bit & 7))) & 1;
      const at = 8 * 76 + bucket * bucketBits + bit;
      chunk[at >> 3] = (chunk[at >> 3]! & ~(1 << (7 - (at & 7)))) | (value << (7 - (at & 7)));
    }
  }
  record.state.copy(chunk, 52);
}

test('each write through the module appends the record the change log specifies; a write that changed nothing appends none', async () => {
  const { redis } = live;
  const bytes = redis.withTypeMapping({ 36: Buffer });
  expect(await send(redis, 'CUCKOO.RESERVE', 'logged', '2000', '0.01', 'SEED', '6')).toBe('OK');
  // The upgrade of CHANGE-LOG.md, by hand: format 2 and a log length on the root and the shard.
  for (const key of ['logged', CHUNK]) await redis.sendCommand(['SETRANGE', key, '4', Buffer.from([2])]);
  for (const key of ['logged', CHUNK]) await redis.sendCommand(['SETRANGE', key, '50', Buffer.from([0, 100])]);
  const header = (await bytes.getRange(CHUNK, 0, 75)) as unknown as Buffer;
  const bucketBits = header[7]! * header[8]!;
  const bucketBytes = Math.ceil(bucketBits / 8);
  const records = async (): Promise<ChangeRecord[]> => {
    const entries = (await bytes.sendCommand(['XRANGE', '{logged:0:0}:log', '-', '+'])) as [Buffer, Buffer[]][];
    return entries.map(([, fields]) => {
      expect(String(fields[0])).toBe('c');
      return decode(Buffer.from(fields[1]!), bucketBytes);
    });
  };

  expect(await send(redis, 'CUCKOO.EXISTS', 'logged', 'x')).toBe(0);
  expect(await send(redis, 'CUCKOO.DEL', 'logged', 'x')).toBe(0);
  expect(await redis.exists(['{logged:0:0}:seq', '{logged:0:0}:log'])).toBe(0);

  const start = Buffer.from((await bytes.get(CHUNK)) as unknown as Buffer);
  expect(await send(redis, 'CUCKOO.ADD', 'logged', 'x')).toBe(1);
  expect(await send(redis, 'CUCKOO.MADD', 'logged', ...Array.from({ length: 300 }, (_, k) => `item-${k}`))).toBe(300);
  expect(await send(redis, 'CUCKOO.DEL', 'logged', 'item-7', 'never')).toBe(1);
  expect(await redis.get('{logged:0:0}:seq')).toBe('3');
  const written = await records();
  expect(written.map((record) => record.seq)).toEqual([1n, 2n, 3n]);
  expect(written.map((record) => record.buckets.length)).toEqual([1, expect.any(Number), 1]);
  const followed = Buffer.from(start);
  for (const record of written) {
    expect([record.id, record.shard]).toEqual([header.subarray(44, 50), 0]);
    apply(followed, record, bucketBits);
  }
  expect(followed.toString('hex')).toBe(Buffer.from((await bytes.get(CHUNK)) as unknown as Buffer).toString('hex'));

  // A damaged change count: the write is refused before anything is written.
  await redis.set('{logged:0:0}:seq', 'not a count');
  expect(await refusedWith(redis, 'CUCKOO.ADD', 'logged', 'y')).toBe("INCONSISTENT key '{logged:0:0}:seq' does not hold the shard's change count");
});

test('RESERVE … LOGLENGTH n makes a filter of format 2 whose writes are logged from the first', async () => {
  const { redis } = live;
  const bytes = redis.withTypeMapping({ 36: Buffer });
  expect(await send(redis, 'CUCKOO.RESERVE', 'fresh', '1000', '0.01', 'LOGLENGTH', '300', 'SHARDS', '2')).toBe('OK');
  for (const key of ['fresh', '{fresh:0:0}:0']) {
    const header = (await bytes.getRange(key, 0, 51)) as unknown as Buffer;
    expect([key, header[4], header.readUInt16BE(50)]).toEqual([key, 2, 300]);
  }
  expect(await send(redis, 'CUCKOO.MADD', 'fresh', ...Array.from({ length: 50 }, (_, k) => `f${k}`))).toBe(50);
  const counts = await Promise.all((await redis.keys('{fresh:*}:seq')).map((key) => redis.get(key)));
  expect(counts.sort()).toEqual(['1', '1']);
  expect(await redis.keys('{fresh:*}:log')).toHaveLength(2);
});
