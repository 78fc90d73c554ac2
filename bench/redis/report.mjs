// The Redis benchmark's report: its figures in markdown tables and each of
// issue 20's targets, met or not.

const int = (value) => Math.round(value).toLocaleString('en-US');
const mops = (value) => (value / 1e6).toFixed(3);
const percent = (value, digits = 4) => `${(100 * value).toFixed(digits)}%`;
const ratio = (value) => `${value.toFixed(2)}×`;

/** The few hundred bytes a filter's keys may take beyond 1.05 times the table. */
export const FIXED_BYTES = 512;

function concurrencyRows(run, label) {
  const [low, high] = run.limits;
  return [
    `| ${label} | ${run.processes} × ${int(run.perProcess)} | ${mops(run.addsPerSecond)} | ${run.saddPerSecond === null ? '—' : mops(run.saddPerSecond)} | ${run.falseNegatives} | ${int(run.size)} | ${run.falsePositives} of ${int(run.probes)} (${percent(run.falsePositives / run.probes)}) | ${int(low)} – ${int(high)} | ${run.inProcessFalsePositives ?? '—'} |`,
  ];
}

function concurrencyMet(run) {
  const [low, high] = run.limits;
  return run.falseNegatives === 0 && run.size === run.processes * run.perProcess && run.falsePositives >= low && run.falsePositives <= high;
}

export function renderReport(results) {
  const { standalone, cluster, interchange, memory, speed, longest, faults, machine, sizes } = results;
  const lines = [];
  lines.push(`cuckoo-wasm/redis on redis-server ${machine.redis}, ${machine.cpu} (${machine.cores} cores), Node ${machine.node}; load average ${machine.loadAverageAtStart.toFixed(2)} at the start, ${machine.loadAverageAtEnd.toFixed(2)} at the end; ${results.seconds.toFixed(0)} s${results.quick ? ' (--quick: a tenth of the sizes)' : ''}.`);
  lines.push('', `Concurrency: processes adding their own items to one filter at once (capacity ${int(sizes.capacity)}, fpr ${sizes.fpr}), batches of 1,000; then every item looked up, size(), and ${int(standalone.probes)} never-added probes (limits: n·p ± 5·sqrt(n·p·(1 − p)), p the rate at the filter's load).`, '');
  lines.push('| filter | processes × adds | adds (M/s, all processes) | SADD, same items (M/s) | false negatives | size() | false positives | binomial limits | in-process CuckooFilter, same items |');
  lines.push('|---|---|--:|--:|--:|--:|---|---|--:|');
  lines.push(...concurrencyRows(standalone, 'standalone, 1 shard'));
  lines.push(...concurrencyRows(cluster, '3-master cluster, 3 shards'));
  lines.push('', `Interchange (${int(interchange.lookups)} lookups, half of them added items): Redis filter → toBytes() → CuckooFilter.fromBytes: ${interchange.outMismatches} answers differ; CuckooFilter → toBytes() → RedisCuckooFilter.fromBytes: ${interchange.inMismatches} differ.`);
  const allowed = 1.05 * memory.inProcessByteLength + FIXED_BYTES;
  lines.push('', `Memory (MEMORY USAGE … SAMPLES 0) holding ${int(memory.items)} items of 20 characters:`, '');
  lines.push('| structure | keys | bytes | bits per item | vs in-process byteLength | vs the SET |');
  lines.push('|---|--:|--:|--:|--:|--:|');
  const row = (label, used) => `| ${label} | ${used.keys} | ${int(used.bytes)} | ${((8 * used.bytes) / memory.items).toFixed(2)} | ${ratio(used.bytes / memory.inProcessByteLength)} | ${(memory.set.bytes / used.bytes).toFixed(1)}× smaller |`;
  lines.push(`| in-process CuckooFilter (byteLength) | — | ${int(memory.inProcessByteLength)} | ${((8 * memory.inProcessByteLength) / memory.items).toFixed(2)} | 1.00× | ${(memory.set.bytes / memory.inProcessByteLength).toFixed(1)}× smaller |`);
  lines.push(row('RedisCuckooFilter, 1 shard', memory.filter));
  lines.push(row('RedisCuckooFilter, 3 shards (cluster)', memory.sharded));
  lines.push(`| Redis SET | 1 | ${int(memory.set.bytes)} | ${((8 * memory.set.bytes) / memory.items).toFixed(1)} | ${ratio(memory.set.bytes / memory.inProcessByteLength)} | 1× |`);
  lines.push('', `Speed, one client, against the SET on the same server (median of ${sizes.speedRounds} rounds of ${int(sizes.speedItems)} adds and ${int(2 * sizes.speedItems)} lookups, half present):`, '');
  lines.push('| operation | RedisCuckooFilter (M/s) | SET (M/s) | ratio |');
  lines.push('|---|--:|--:|--:|');
  lines.push(`| addMany vs SADD, batches of 1,000 | ${mops(speed.addMany)} | ${mops(speed.sadd)} | ${ratio(speed.addMany / speed.sadd)} |`);
  lines.push(`| hasMany vs SMISMEMBER, batches of 1,000 | ${mops(speed.hasMany)} | ${mops(speed.smismember)} | ${ratio(speed.hasMany / speed.smismember)} |`);
  lines.push(`| has vs SISMEMBER, per call, 1,000 in flight (automatic pipelining) | ${mops(speed.has)} | ${mops(speed.sismember)} | ${ratio(speed.has / speed.sismember)} |`);
  const { costs } = results;
  lines.push('', 'Where the time goes (medians of 200 calls; server time from INFO commandstats):', '');
  lines.push('| measured | round trip through node-redis | server time |');
  lines.push('|---|--:|--:|');
  lines.push(`| BITFIELD_RO with the 2,000 GETs of 1,000 lookups | ${costs.bitfieldRead.roundTripMs.toFixed(3)} ms | ${costs.bitfieldRead.serverMs.toFixed(3)} ms |`);
  lines.push(`| SMISMEMBER of 1,000 members | ${costs.smismember.roundTripMs.toFixed(3)} ms | ${costs.smismember.serverMs.toFixed(3)} ms |`);
  lines.push(`| a GET of BITFIELD_RO called from Lua (how a script reads a bucket) | — | ${costs.scriptGetMicros.toFixed(2)} µs |`);
  lines.push(`| a SET of BITFIELD called from Lua (how a script writes one) | — | ${costs.scriptSetMicros.toFixed(2)} µs |`);
  lines.push(`| SADD, per member (batches of 1,000) | — | ${costs.saddMicrosPerMember.toFixed(2)} µs |`);
  const stashing = [...longest.stashingAddMicros].sort((a, b) => a - b);
  lines.push('', `Longest insert script: an add that ends in the stash after ${longest.maxKicks} kicks ran ${stashing.map(int).join(', ')} µs in the server (${stashing.length} such adds; median ${int(stashing[stashing.length >> 1])} µs), during which Redis serves nothing else; the median other single add near full ${int(longest.medianAddMicros)} µs (${longest.singleAdds} single adds, the server's own time, INFO commandstats).`);
  lines.push('', `Faults (appendonly yes, appendfsync always): SIGKILL after ${int(faults.acknowledgedBeforeKill)} acknowledged adds, restart on the AOF; ${faults.failedCalls} calls failed while the server was down; the same handle went on (first acknowledged add ${faults.recoverySeconds === null ? 'never' : `${faults.recoverySeconds.toFixed(2)} s`} after the kill): ${int(faults.acknowledged)} acknowledged in all, ${faults.missing} of them missing after; size() ${int(faults.size)} of ${int(faults.attempted)} attempted.`);
  const targets = [
    [concurrencyMet(standalone), `Concurrency, standalone: ${standalone.falseNegatives} false negatives, size ${int(standalone.size)} (exactly ${int(standalone.processes * standalone.perProcess)}), ${standalone.falsePositives} false positives within ${int(standalone.limits[0])} – ${int(standalone.limits[1])}`],
    [concurrencyMet(cluster), `Concurrency, 3-shard filter on a 3-master cluster: ${cluster.falseNegatives} false negatives, size ${int(cluster.size)}, ${cluster.falsePositives} false positives within ${int(cluster.limits[0])} – ${int(cluster.limits[1])}`],
    [interchange.outMismatches === 0 && interchange.inMismatches === 0, `Interchange: ${int(interchange.lookups)} lookups answered identically both ways (${interchange.outMismatches} and ${interchange.inMismatches} differences)`],
    [memory.filter.bytes <= allowed, `Memory: ${int(memory.filter.bytes)} bytes ≤ 1.05 × ${int(memory.inProcessByteLength)} + ${FIXED_BYTES} = ${int(allowed)} (${ratio(memory.filter.bytes / memory.inProcessByteLength)}); the SET is ${(memory.set.bytes / memory.filter.bytes).toFixed(1)}× larger`],
    [speed.hasMany / speed.smismember >= 0.5, `hasMany at least 0.5× SMISMEMBER: ${ratio(speed.hasMany / speed.smismember)}`],
    [speed.addMany / speed.sadd >= 0.3, `addMany at least 0.3× SADD: ${ratio(speed.addMany / speed.sadd)}`],
    [stashing.every(Number.isFinite), `The longest insert script (${longest.maxKicks} kicks) measured: median ${int(stashing[stashing.length >> 1])} µs, at most ${int(stashing[stashing.length - 1])} µs`],
    [faults.missing === 0 && faults.failedCalls > 0 && faults.acknowledged > faults.acknowledgedBeforeKill, `Faults: every acknowledged add found after SIGKILL and restart (${faults.missing} missing); the client recovered without re-creating anything`],
  ];
  lines.push('', 'Targets:', ...targets.map(([met, text]) => `- ${met ? 'MET' : 'NOT MET'}: ${text}`));
  return lines.join('\n');
}
