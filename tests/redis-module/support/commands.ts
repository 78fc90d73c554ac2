// What the module's suites share: the commands as any client sends them,
// and "nothing was written" as a snapshot of every key.
import type { Client } from '../../redis/support/servers';

/** A command's reply, or its error reply's text. */
export async function send(redis: Client, ...args: (string | Buffer)[]): Promise<unknown> {
  try {
    return await redis.sendCommand(args);
  } catch (error) {
    return { error: (error as Error).message };
  }
}

/** Every key with its type and value (strings as hex; others as DUMP), sorted. */
export async function snapshot(redis: Client): Promise<string> {
  const bytes = redis.withTypeMapping({ 36: Buffer });
  const entries: string[] = [];
  for (const key of (await redis.keys('*')).sort()) {
    const type = await redis.type(key);
    if (type === 'stream') {
      // A change log by its records (CHANGE-LOG.md): their entry IDs are times, which differ between servers.
      const records = (await bytes.sendCommand(['XRANGE', key, '-', '+'])) as [Buffer, Buffer[]][];
      entries.push(`${key} ${type} ${records.map(([, fields]) => Buffer.from(fields[1]!).toString('hex')).join(' ')}`);
      continue;
    }
    const value = type === 'string' ? Buffer.from((await bytes.get(key)) as unknown as Buffer) : ((await bytes.sendCommand(['DUMP', key])) as Buffer);
    entries.push(`${key} ${type} ${Buffer.from(value).toString('hex')}`);
  }
  return entries.join('\n');
}

/** The error reply of a command that must change nothing. */
export async function refusedWith(redis: Client, ...args: (string | Buffer)[]): Promise<string> {
  const before = await snapshot(redis);
  const reply = await send(redis, ...args);
  expect(await snapshot(redis)).toBe(before);
  if (typeof reply !== 'object' || reply === null || !('error' in reply)) throw new Error(`expected an error reply to ${args.join(' ')}, got ${String(reply)}`);
  return (reply as { error: string }).error;
}

/**
 * The bytes of every key matching `pattern` but the change logs', sorted by key, with the filter
 * id (header bytes 44..49) zeroed, in hexadecimal (which Jest compares at
 * once, unlike megabytes of Buffer).
 */
export async function bytesOf(redis: Client, pattern: string): Promise<string[]> {
  const bytes = redis.withTypeMapping({ 36: Buffer });
  const values: string[] = [];
  for (const key of (await redis.keys(pattern)).sort()) {
    // Not the change log (CHANGE-LOG.md) and its count: a batch is one record from the module and one per
    // script call from the scripts, and either may list buckets in any order; change-log.test.ts replays them.
    if (key.endsWith(':log') || key.endsWith(':seq')) continue;
    const value = Buffer.from((await bytes.get(key)) as unknown as Buffer);
    if (value.length >= 52) value.fill(0, 44, 50);
    values.push(value.toString('hex'));
  }
  return values;
}

/** An integer item as the core hashes it: 8 bytes, little-endian. */
export function integerItem(value: number): Buffer {
  const bytes = Buffer.alloc(8);
  bytes.writeBigInt64LE(BigInt(value));
  return bytes;
}

/** CUCKOO.INFO's map as an object (node-redis gives a RESP3 map as one, a RESP2 reply as pairs in an array). */
export async function infoOf(redis: Client, ...args: string[]): Promise<Record<string, unknown>> {
  const reply = (await redis.sendCommand(['CUCKOO.INFO', ...args])) as unknown;
  if (!Array.isArray(reply)) return { ...(reply as Record<string, unknown>) };
  const fields: Record<string, unknown> = {};
  for (let k = 0; k < reply.length; k += 2) fields[String(reply[k])] = reply[k + 1];
  return fields;
}
