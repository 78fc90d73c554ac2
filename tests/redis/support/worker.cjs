// A separate process sharing one filter: opens it and adds items
// [first, first + count) in batches, or looks up items [first, first + count)
// in a loop until told to stop, counting any that are not found. Prints one
// line of JSON when done. Run by tests/redis/concurrency.test.ts:
//   node worker.cjs <target> <name> add|watch <first> <count>
// where <target> is a redis:// URL or cluster:<url>,<url>,...
const { createClient, createCluster } = require('redis');
const { init } = require('../../../dist/cjs/index.node.js');
const { RedisCuckooFilter } = require('../../../dist/cjs/redis/index.js');

async function main() {
  const [target, name, operation, firstText, countText] = process.argv.slice(2);
  const first = Number(firstText);
  const count = Number(countText);
  await init();
  const redis = target.startsWith('cluster:')
    ? createCluster({ rootNodes: target.slice(8).split(',').map((url) => ({ url })) })
    : createClient({ url: target });
  redis.on('error', () => undefined);
  await redis.connect();
  const filter = await RedisCuckooFilter.open(redis, name);
  const items = new Float64Array(count).map((_, i) => first + i);
  if (operation === 'add') {
    let added = 0;
    for (let start = 0; start < count; start += 1000) added += await filter.addMany(items.subarray(start, start + 1000));
    process.stdout.write(`${JSON.stringify({ added })}\n`);
  } else {
    // Watches items added before it started: any answer 0 is a false negative.
    let rounds = 0;
    let missing = 0;
    let stopping = false;
    process.stdin.on('data', () => (stopping = true));
    process.stdout.write('{"ready":true}\n');
    while (!stopping) {
      const answers = await filter.hasMany(items);
      for (const answer of answers) if (answer !== 1) missing++;
      rounds++;
    }
    process.stdout.write(`${JSON.stringify({ rounds, missing })}\n`);
  }
  await (redis.close ?? redis.quit).call(redis);
}

main().catch((error) => {
  process.stderr.write(`${error.stack}\n`);
  process.exit(1);
});
