// Where the time of the speed rows goes, measured beside them: a bare
// BITFIELD_RO of the 2,000 GETs that 1,000 lookups make, and SMISMEMBER of
// 1,000 members, round trip through node-redis and the server's own time;
// BITFIELD GET and SET inside a Lua script (how a script reads and writes
// buckets), and SADD, in server time per operation (INFO commandstats).

import { median } from '../support/measurement.mjs';
import { itemsFrom } from './items.mjs';

const ROUNDS = 200;

async function serverMicros(client, command) {
  const stats = String(await client.sendCommand(['INFO', 'commandstats']));
  const found = new RegExp(`cmdstat_${command}:calls=(\\d+),usec=(\\d+)`).exec(stats);
  return found === null ? NaN : Number(found[2]) / Number(found[1]);
}

async function roundTrips(client, command, send) {
  for (let r = 0; r < 20; r++) await send();
  await client.sendCommand(['CONFIG', 'RESETSTAT']);
  const times = [];
  for (let r = 0; r < ROUNDS; r++) {
    const start = process.hrtime.bigint();
    await send();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return { roundTripMs: median(times), serverMs: (await serverMicros(client, command)) / 1000 };
}

/** Per-operation costs on `client`'s server (a standalone one), for the report. */
export async function measureCosts(client) {
  const table = 'costs-table';
  const set = 'costs-set';
  await client.sendCommand(['SETRANGE', table, String(1_710_000), 'x']);
  await client.sAdd(set, itemsFrom(0, 200_000));
  const gets = ['BITFIELD_RO', table];
  for (let k = 0; k < 2000; k++) gets.push('GET', 'u52', String(608 + 52 * ((k * 7919) % 260_000)));
  const members = itemsFrom(100_000, 1000);
  const bitfieldRead = await roundTrips(client, 'bitfield_ro', () => client.sendCommand(gets));
  const smismember = await roundTrips(client, 'smismember', () => client.smIsMember(set, members));
  // In a script: one BITFIELD_RO of 1,000 GETs, one BITFIELD of 1,000 SETs, as the mutating script sends them.
  const build = "local args = {} for k = 1, 1000 do args[#args + 1] = ARGV[1] args[#args + 1] = 'u52' args[#args + 1] = 608 + 52 * ((k * 7919) % 260000) if ARGV[1] == 'SET' then args[#args + 1] = k end end";
  const inScript = async (operation) => {
    const empty = await roundTrips(client, 'eval', () => client.sendCommand(['EVAL', `${build} return #args`, '1', table, operation]));
    const call = await roundTrips(client, 'eval', () => client.sendCommand(['EVAL', `${build} redis.call('${operation === 'GET' ? 'BITFIELD_RO' : 'BITFIELD'}', KEYS[1], unpack(args)) return #args`, '1', table, operation]));
    return ((call.serverMs - empty.serverMs) * 1000) / 1000;
  };
  const scriptGetMicros = await inScript('GET');
  const scriptSetMicros = await inScript('SET');
  let next = 300_000;
  const sadd = await roundTrips(client, 'sadd', () => client.sAdd(set, itemsFrom((next += 1000), 1000)));
  await client.del([table, set]);
  return { bitfieldRead, smismember, scriptGetMicros, scriptSetMicros, saddMicrosPerMember: sadd.serverMs };
}
