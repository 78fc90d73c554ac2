// From Python too (Debian's python3-redis): a Python script finds the items
// Node added, strings and numbers, and adds its own, which Node then finds.
import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { RedisCuckooFilter } from 'cuckoo-wasm/redis';
import { serverForFile } from '../redis/support/servers';

const live = serverForFile();
const run = promisify(execFile);
// Debian's interpreter, whatever python3 comes first on PATH: python3-redis is installed for it.
const PYTHON = '/usr/bin/python3';

test("a Python script reads Node's writes and Node reads the script's", async () => {
  const filter = await RedisCuckooFilter.create(live.redis, 'shared', { capacity: 100_000, fpr: 0.001 });
  expect(filter.engine).toBe('module');
  const strings = Array.from({ length: 1000 }, (_, k) => `node-${k}`);
  const numbers = Array.from({ length: 500 }, (_, k) => k - 250);
  expect(await filter.addMany(strings)).toBe(1000);
  expect(await filter.addMany(new Int32Array(numbers))).toBe(500);
  const { stdout } = await run(PYTHON, [join(__dirname, 'python', 'from_python.py'), String(live.server.port), 'shared']);
  const summary = JSON.parse(stdout) as Record<string, number>;
  // Strangers: 1,000 of them at a rate of about 0.1 % (2b / 2^f = 0.098 % here): a handful at most.
  expect(summary).toEqual({ strings: 1000, numbers: 500, strangers: expect.any(Number), added: 1000, single: 1, size: 2501 });
  expect(summary.strangers).toBeLessThan(10);
  expect((await filter.hasMany(Array.from({ length: 1000 }, (_, k) => `python-${k}`))).every((answer) => answer === 1)).toBe(true);
  expect(await filter.has('from python')).toBe(true);
});
