// A minimal Redis client of its own (RESP2 over one TCP socket, pipelined),
// made only to show that RedisCuckooFilter works through a RedisConnection of
// a few lines with a client the package knows nothing about.
import { Socket } from 'node:net';
import type { RedisCommand, RedisConnection } from 'cuckoo-wasm/redis';

type Reply = null | number | string | Buffer | Error | Reply[];

/** Parses one reply at `at`; returns it and where the next starts, or undefined when the buffer ends first. */
function parse(buffer: Buffer, at: number): [Reply, number] | undefined {
  const lineEnd = buffer.indexOf('\r\n', at);
  if (lineEnd < 0) return undefined;
  const line = buffer.toString('latin1', at + 1, lineEnd);
  const next = lineEnd + 2;
  switch (buffer[at]) {
    case 0x2b: // +
      return [line, next];
    case 0x2d: // -
      return [new Error(line), next];
    case 0x3a: // :
      return [Number(line), next];
    case 0x24: {
      // $
      const length = Number(line);
      if (length < 0) return [null, next];
      if (buffer.length < next + length + 2) return undefined;
      return [buffer.subarray(next, next + length), next + length + 2];
    }
    case 0x2a: {
      // *
      const count = Number(line);
      if (count < 0) return [null, next];
      const items: Reply[] = [];
      let position = next;
      for (let k = 0; k < count; k++) {
        const parsed = parse(buffer, position);
        if (parsed === undefined) return undefined;
        items.push(parsed[0]);
        position = parsed[1];
      }
      return [items, position];
    }
    default:
      throw new Error(`unexpected reply byte ${buffer[at]}`);
  }
}

function encode(command: RedisCommand): Buffer {
  const parts: Buffer[] = [Buffer.from(`*${command.length}\r\n`)];
  for (const arg of command) {
    const bytes = typeof arg === 'string' ? Buffer.from(arg) : Buffer.from(arg.buffer, arg.byteOffset, arg.byteLength);
    parts.push(Buffer.from(`$${bytes.length}\r\n`), bytes, Buffer.from('\r\n'));
  }
  return Buffer.concat(parts);
}

export class RespClient {
  readonly #socket = new Socket();
  readonly #waiting: { resolve: (reply: Reply) => void }[] = [];
  #pending = Buffer.alloc(0);

  private constructor() {
    this.#socket.on('data', (chunk: Buffer) => {
      this.#pending = Buffer.concat([this.#pending, chunk]);
      for (;;) {
        const parsed = this.#pending.length > 0 ? parse(this.#pending, 0) : undefined;
        if (parsed === undefined) break;
        this.#pending = this.#pending.subarray(parsed[1]);
        this.#waiting.shift()!.resolve(parsed[0]);
      }
    });
  }

  static connect(port: number): Promise<RespClient> {
    const client = new RespClient();
    return new Promise((resolve, reject) => {
      client.#socket.once('error', reject);
      client.#socket.connect(port, '127.0.0.1', () => resolve(client));
    });
  }

  /** Sends commands back to back and resolves to their replies, in order. */
  send(commands: readonly RedisCommand[]): Promise<Reply[]> {
    const replies = commands.map(() => new Promise<Reply>((resolve) => this.#waiting.push({ resolve })));
    this.#socket.write(Buffer.concat(commands.map(encode)));
    return Promise.all(replies);
  }

  close(): void {
    this.#socket.end();
  }

  /** This client as a RedisConnection: an error reply rejects with its text. */
  connection(): RedisConnection {
    const failIfError = (reply: Reply): Reply => {
      if (reply instanceof Error) throw reply;
      return reply;
    };
    return {
      call: async (_key, command) => failIfError((await this.send([command]))[0]!),
      transaction: async (_key, commands) => {
        const replies = await this.send([['MULTI'], ...commands, ['EXEC']]);
        const queued = replies.slice(1, -1).find((reply) => reply instanceof Error);
        if (queued !== undefined) throw queued;
        const results = failIfError(replies[replies.length - 1]!) as Reply[];
        return results.map(failIfError);
      },
    };
  }
}
