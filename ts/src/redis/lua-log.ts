// The change log in Lua (CHANGE-LOG.md beside this file says what every
// writer appends): the record of a write, appended by the mutating script in
// the same script as the write; the snapshot a replica starts from; and the
// upgrade that gives a filter of layout version 1 its log.

import { LUA_PRELUDE, LUA_SCRIPT_END } from './lua-prelude.js';

/**
 * appendChange(stateText): appends the record of the buckets the script
 * changed (dirtyBuckets) and the header's 24 state bytes after the write to
 * the shard's log, when the shard is logged (layout version 2), and
 * publishes it with its entry ID on the log's channel. Expects the
 * checked `header` and LUA_TABLE (lua-mutate.ts); KEYS end with the log's two
 * keys. Bytes are made with `struct`, which every Redis (and Valkey) script
 * has: a bucket of one word (at most 53 bits) is its value shifted to the top
 * of 8 bytes, of which the record takes the first B.
 */
export const LUA_LOG = String.raw`
local logged = byte(header, 5) == 2
local logKey, seqKey = KEYS[chunkCount + 1], KEYS[chunkCount + 2]
local logLengthText = format('%d', bigEndian(header, 51, 2))
local recordBucketBytes = ceil(bucketBits / 8)
local toTop = 2 ^ (64 - bucketBits)
local pack = struct.pack
-- Readers told of each record as it is made: in the shard's slot where the
-- server has shard channels (7.0 on), else to every subscriber.
local publish = (redis.REDIS_VERSION_NUM or 0) >= 0x070000 and 'SPUBLISH' or 'PUBLISH'

-- A bucket of several words or a semi-sorted one: its fields, most
-- significant bit first, through a carry of at most 7 bits (every field has
-- at most 32 bits, so the carry and a field stay exact).
local function fieldBytes(bucket)
  local fields, bytes, count = fieldsOf(bucket), {}, 0
  local carry, carryBits = 0, 0
  for k = 1, fieldCount do
    carry, carryBits = carry * fieldScale[k] + fields[k], carryBits + fieldWidth[k]
    while carryBits >= 8 do
      carryBits = carryBits - 8
      local scale = pow2[carryBits]
      local top = (carry - carry % scale) / scale
      count = count + 1
      bytes[count] = top
      carry = carry - top * scale
    end
  end
  if carryBits > 0 then
    count = count + 1
    bytes[count] = carry * pow2[8 - carryBits]
  end
  return char(unpack(bytes, 1, count))
end

local function appendChange(stateText)
  local seq = redis.call('INCR', seqKey)
  local parts, count, listed = {}, 1, {}
  for i = 1, dirtyCount do
    local bucket = dirtyBuckets[i]
    if not listed[bucket] then
      listed[bucket] = true
      count = count + 1
      if oneWord then
        parts[count] = sub(pack('>I4I8', bucket, loaded[bucket] * toTop), 1, 4 + recordBucketBytes)
      else
        parts[count] = pack('>I4', bucket) .. fieldBytes(bucket)
      end
    end
  end
  parts[1] = 'CKFC\1\0' .. sub(header, 45, 50) .. sub(header, 41, 42) .. '\0\0' .. pack('>I8', seq) .. stateText .. pack('>I4', count - 1)
  local record = table.concat(parts)
  local id = redis.call('XADD', logKey, 'MAXLEN', '~', logLengthText, '*', 'c', record)
  redis.call(publish, logKey, id .. ' ' .. record)
end
`;

/**
 * A shard's snapshot for a replica: its chunks, the log's count of records and
 * the ID of its last entry, read at one instant, and how to subscribe to the
 * records' channel there. KEYS: the chunk keys, then the log's two; ARGV[1]:
 * the fixed header the caller opened. Reply {'OK', {chunk, ..., seq, lastId,
 * 'SSUBSCRIBE' | 'SUBSCRIBE'}}; refused when the shard has no log.
 */
export const SNAPSHOT_SHARD_SOURCE = `${LUA_PRELUDE}
local function main()
  local header = checkedHeader()
  local chunks = #KEYS - 2
  if byte(header, 5) ~= 2 then
    refuse('UNSUPPORTED_VERSION', 'key ' .. KEYS[1] .. ' has no change log (layout version 1): RedisCuckooFilter.addChangeLog gives it one')
  end
  local parts = {}
  for index = 1, chunks do parts[index] = onString('GET', KEYS[index]) or '' end
  local seq = onString('GET', KEYS[chunks + 2]) or '0'
  local last = redis.pcall('XREVRANGE', KEYS[chunks + 1], '+', '-', 'COUNT', '1')
  if last.err then refuse('INCONSISTENT', 'key ' .. KEYS[chunks + 1] .. ' is not a change log: ' .. last.err) end
  parts[chunks + 1] = seq
  parts[chunks + 2] = last[1] and last[1][1] or '0-0'
  parts[chunks + 3] = (redis.REDIS_VERSION_NUM or 0) >= 0x070000 and 'SSUBSCRIBE' or 'SUBSCRIBE'
  return {'OK', parts}
end
${LUA_SCRIPT_END}`;

/**
 * Gives one shard a change log (CHANGE-LOG.md, "The upgrade from version 1"):
 * KEYS: the chunk keys, then the log's two; ARGV[1]: the fixed header the
 * caller opened; ARGV[2]: the log length, 2 bytes. Reply {'OK', 1}, or
 * {'OK', 0} for a shard that had one.
 */
export const ADD_LOG_SOURCE = `${LUA_PRELUDE}
local function main()
  local header = checkedHeader()
  if byte(header, 5) == 2 then return {'OK', 0} end
  redis.call('DEL', KEYS[#KEYS - 1], KEYS[#KEYS])
  redis.call('SETRANGE', KEYS[1], 4, '\\2')
  redis.call('SETRANGE', KEYS[1], 50, ARGV[2])
  return {'OK', 1}
end
${LUA_SCRIPT_END}`;
