// Adds that go on while the server is killed under them (SIGKILL) and
// restarted on its files: three writers add batches of 100 of the numbers
// 0 .. 59,999 to a filter; once 10,000 are acknowledged the server is killed,
// `whileDown` runs (given the items acknowledged so far), and the server
// starts again on the same port and folder.
import type { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { startServer, type RedisServer } from './servers';

export interface KillRun {
  /** The items whose add was acknowledged, before and after the kill. */
  readonly acknowledged: number[];
  readonly acknowledgedBeforeTheKill: number;
  /** Batches that failed: those in flight at the kill, or sent while the server was down. */
  readonly failed: number;
  /** Items an add was attempted for. */
  readonly attempted: number;
  /** The server started again. */
  readonly server: RedisServer;
}

export async function addThroughAKill(
  filter: RedisCuckooFilter,
  server: RedisServer,
  args: string[],
  whileDown: (acknowledged: readonly number[]) => Promise<void> = async () => undefined,
): Promise<KillRun> {
  const { port, dir } = server;
  const acknowledged: number[] = [];
  let failed = 0;
  let next = 0;
  let killed = false;
  const writer = async (): Promise<void> => {
    while (next < 60_000) {
      const batch = Array.from({ length: 100 }, () => next++);
      try {
        const added = await filter.addMany(batch);
        acknowledged.push(...batch.slice(0, added));
      } catch {
        failed++;
        if (!killed) throw new Error('an add failed before the kill');
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  const writers = [writer(), writer(), writer()];
  while (acknowledged.length < 10_000) await new Promise((resolve) => setTimeout(resolve, 5));
  killed = true;
  await server.stop('SIGKILL');
  const acknowledgedBeforeTheKill = acknowledged.length;
  await whileDown(acknowledged.slice());
  const restarted = await startServer({ port, dir, args });
  await Promise.all(writers);
  return { acknowledged, acknowledgedBeforeTheKill, failed, attempted: next, server: restarted };
}
