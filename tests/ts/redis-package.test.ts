// The `cuckoo-wasm/redis` entry as users get it: `npm pack`, installed into an
// empty project without any Redis client (the client is an optional peer
// dependency), loaded through import and require, its types resolved through
// the exports map; and kept out of what a browser downloads for 'cuckoo-wasm'.
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { packAndInstall, repoRoot, type InstalledPackage } from '../support/pack';

let installed: InstalledPackage;
beforeAll(() => {
  installed = packAndInstall();
});
afterAll(() => installed?.remove());

// Without a server: the entry loads, and refuses a value that is no client.
const usage = `
  await api.init();
  let refused = null;
  try { await redis.RedisCuckooFilter.open(42, 'x'); } catch (e) { refused = [e.constructor.name, e.message]; }
  console.log(JSON.stringify({ names: Object.keys(redis).filter((k) => k !== 'default' && k !== '__esModule').sort(), refused }));
`;
const expected = {
  names: ['FilterReplica', 'RedisCuckooFilter', 'nodeRedisConnection'],
  refused: ['TypeError', 'RedisCuckooFilter.open: redis must be a node-redis client or cluster, or a RedisConnection, got number 42'],
};

function runNode(file: string): unknown {
  return JSON.parse(execFileSync(process.execPath, [file], { cwd: installed.consumerDir, encoding: 'utf8' }));
}

test('the consumer has no Redis client installed', () => {
  expect(() => execFileSync(process.execPath, ['-e', "require.resolve('redis')"], { cwd: installed.consumerDir, stdio: 'pipe' })).toThrow();
  const manifest = JSON.parse(readFileSync(join(installed.consumerDir, 'node_modules', 'cuckoo-wasm', 'package.json'), 'utf8'));
  expect(manifest.dependencies).toBeUndefined();
  expect(manifest.peerDependenciesMeta.redis.optional).toBe(true);
});

test('import of cuckoo-wasm/redis works in an ES module', () => {
  const file = join(installed.consumerDir, 'redis-use.mjs');
  writeFileSync(file, `import * as api from 'cuckoo-wasm';\nimport * as redis from 'cuckoo-wasm/redis';\n${usage}`);
  expect(runNode(file)).toEqual(expected);
});

test('require of cuckoo-wasm/redis works in CommonJS', () => {
  const file = join(installed.consumerDir, 'redis-use.cjs');
  writeFileSync(file, `const api = require('cuckoo-wasm');\nconst redis = require('cuckoo-wasm/redis');\n(async () => {${usage}})();`);
  expect(runNode(file)).toEqual(expected);
});

test('the types of cuckoo-wasm/redis resolve for ESM and CommonJS consumers (moduleResolution nodenext)', () => {
  const consumer = installed.consumerDir;
  const source = `
    async function use(connection: RedisConnection): Promise<[boolean, Uint8Array, number, RedisCuckooFilterParams]> {
      const filter: RedisCuckooFilter = await RedisCuckooFilter.create(connection, 'seen', { capacity: 10, fpr: 0.01, shards: 2 });
      // @ts-expect-error a boolean is not an item
      await filter.add(true);
      const options: RedisCreateOptions = { capacity: 5, fpr: 0.1 };
      await RedisCuckooFilter.create(connection, 'other', options);
      return [await filter.add('x'), await filter.hasMany(['x']), await filter.size(), filter.params];
    }
    export { use };
  `;
  const imports = `import { RedisCuckooFilter, type RedisConnection, type RedisCreateOptions, type RedisCuckooFilterParams } from 'cuckoo-wasm/redis';\n`;
  writeFileSync(join(consumer, 'redis-types.mts'), `${imports}${source}`);
  writeFileSync(join(consumer, 'redis-types.cts'), `${imports}${source}`);
  writeFileSync(
    join(consumer, 'tsconfig.redis.json'),
    JSON.stringify({
      compilerOptions: { module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022', strict: true, noEmit: true, lib: ['es2022', 'esnext.disposable', 'dom'], types: [] },
      files: ['redis-types.mts', 'redis-types.cts'],
    }),
  );
  const tsc = join(repoRoot, 'node_modules', 'typescript', 'bin', 'tsc');
  expect(() => execFileSync(process.execPath, [tsc, '-p', join(consumer, 'tsconfig.redis.json')], { encoding: 'utf8', stdio: 'pipe' })).not.toThrow();
});

test("the entry is not part of 'cuckoo-wasm': nothing there imports it", () => {
  for (const file of ['index.mjs', 'index.node.mjs']) {
    const index = readFileSync(join(installed.consumerDir, 'node_modules', 'cuckoo-wasm', 'dist', 'esm', file), 'utf8');
    expect(index).not.toMatch(/redis/);
  }
});
