// Running the Lua scripts: by SHA-1 (EVALSHA), and with their source (EVAL,
// which also caches it) when the server answers NOSCRIPT: a server restarted,
// failed over, or told SCRIPT FLUSH. A script's refusal comes back as the
// reply {code, message} and becomes a CuckooFilterError here.

import { CuckooFilterError, FormatError, type CuckooFilterErrorCode, type FormatErrorCode } from '../index.js';
import { errorText, replyText, type RedisArgument, type RedisConnection } from './connection.js';
import { CREATE_SHARD_SOURCE, DROP_SHARD_SOURCE, EXPORT_SHARD_SOURCE, ROOT_SOURCE } from './lua-admin.js';
import { ADD_LOG_SOURCE, SNAPSHOT_SHARD_SOURCE } from './lua-log.js';
import { MUTATE_SOURCE } from './lua-mutate.js';

/** SHA-1 of a text's UTF-8 bytes, in hexadecimal: what Redis names a script by. */
export function sha1Hex(text: string): string {
  const message = new TextEncoder().encode(text);
  const length = (((message.length + 8) >> 6) + 1) << 6;
  const padded = new Uint8Array(length);
  padded.set(message);
  padded[message.length] = 0x80;
  const view = new DataView(padded.buffer);
  view.setUint32(length - 8, Math.floor((message.length * 8) / 2 ** 32));
  view.setUint32(length - 4, (message.length * 8) >>> 0);
  const h = [0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0];
  const w = new Uint32Array(80);
  for (let block = 0; block < length; block += 64) {
    for (let t = 0; t < 16; t++) w[t] = view.getUint32(block + 4 * t);
    for (let t = 16; t < 80; t++) {
      const x = w[t - 3]! ^ w[t - 8]! ^ w[t - 14]! ^ w[t - 16]!;
      w[t] = (x << 1) | (x >>> 31);
    }
    let [a, b, c, d, e] = h as [number, number, number, number, number];
    for (let t = 0; t < 80; t++) {
      const [f, k] =
        t < 20 ? [(b & c) | (~b & d), 0x5a827999] : t < 40 ? [b ^ c ^ d, 0x6ed9eba1] : t < 60 ? [(b & c) | (b & d) | (c & d), 0x8f1bbcdc] : [b ^ c ^ d, 0xca62c1d6];
      const next = (((a << 5) | (a >>> 27)) + f + e + k + w[t]!) >>> 0;
      e = d;
      d = c;
      c = ((b << 30) | (b >>> 2)) >>> 0;
      b = a;
      a = next;
    }
    h[0] = (h[0]! + a) >>> 0;
    h[1] = (h[1]! + b) >>> 0;
    h[2] = (h[2]! + c) >>> 0;
    h[3] = (h[3]! + d) >>> 0;
    h[4] = (h[4]! + e) >>> 0;
  }
  return h.map((word) => word.toString(16).padStart(8, '0')).join('');
}

/** A Lua script and its SHA-1. */
export interface Script {
  readonly source: string;
  readonly sha: string;
}

const script = (source: string): Script => ({ source, sha: sha1Hex(source) });

export const SCRIPTS = {
  mutate: script(MUTATE_SOURCE),
  createShard: script(CREATE_SHARD_SOURCE),
  dropShard: script(DROP_SHARD_SOURCE),
  exportShard: script(EXPORT_SHARD_SOURCE),
  root: script(ROOT_SOURCE),
  snapshotShard: script(SNAPSHOT_SHARD_SOURCE),
  addLog: script(ADD_LOG_SOURCE),
} as const;

// The codes the scripts refuse with that are byte-format checks (FormatError's).
const formatCodes: readonly string[] = ['BAD_MAGIC', 'UNSUPPORTED_VERSION', 'TRUNCATED', 'BAD_PARAMETERS', 'INCONSISTENT'];

/** The error for a script's refusal: a FormatError for a format code, else a CuckooFilterError. */
export function refusalError(code: string, message: string, what: string): CuckooFilterError {
  const text = `${what}: ${message}`;
  if (formatCodes.includes(code)) return new FormatError(code as FormatErrorCode, text);
  return new CuckooFilterError(code as CuckooFilterErrorCode, text);
}

/**
 * Runs `script` on `keys` (one hash slot) with `args`; resolves to the value
 * of its {'OK', value} reply, or rejects with the refusal it replied.
 */
export async function runScript(
  connection: RedisConnection,
  script: Script,
  keys: readonly string[],
  args: readonly RedisArgument[],
  what: string,
): Promise<unknown> {
  const tail = [String(keys.length), ...keys, ...args];
  let reply: unknown;
  try {
    reply = await connection.call(keys[0]!, ['EVALSHA', script.sha, ...tail], false);
  } catch (error) {
    if (!errorText(error).startsWith('NOSCRIPT')) throw error;
    reply = await connection.call(keys[0]!, ['EVAL', script.source, ...tail], false);
  }
  if (!Array.isArray(reply) || reply.length !== 2) {
    throw new CuckooFilterError('INCONSISTENT', `${what}: unexpected reply from the server's script: ${String(reply)}`);
  }
  const status = replyText(reply[0]);
  if (status !== 'OK') throw refusalError(status, replyText(reply[1]), what);
  return reply[1];
}
