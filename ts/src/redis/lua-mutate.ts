// The script that adds and deletes items in one shard of a filter, atomically,
// making the same choices as CuckooFilter (cpp/src/kernel.hpp): the lowest
// free slot of the first bucket, then of the second, then the eviction walk
// with SplitMix64 draws, the one-entry stash for the last homeless
// fingerprint, and a walk undone (the add refused, nothing lost) when it runs
// out while the stash is occupied. The same operations on a filter of the
// same seed leave the same table as in-process.
//
// KEYS: the shard's chunk keys, chunk 0 (with the header) first.
// ARGV[1]: the fixed 52 header bytes as the caller opened the filter.
// ARGV[2]: 'add', 'addUnique' or 'delete'.
// ARGV[3]: the items, 8 bytes each: fingerprint and first bucket, big-endian
// 32-bit (the client hashes; the second bucket follows from these two).
// Reply: {'OK', n}, n = items added (add stops at the first refused: one
// that could not be placed), or 0 added / 1 already present / 2 full
// (addUnique: could not be placed), or items deleted; or
// {code, message}, having written nothing.

import { LUA_PRELUDE, LUA_SCRIPT_END } from './lua-prelude.js';
import { LUA_TABLE } from './lua-table.js';

const LUA_MUTATE_MAIN = String.raw`
-- The bucket relation of hashing.hpp, in exact double arithmetic: mix32's
-- products modulo 2^32 as x * low16 + (x * high16 mod 2^16) * 2^16 of the
-- constant's halves, each part under 2^48. Written out in each branch: a call
-- costs more than the arithmetic it would share.
local alternate
-- Hash ids 1 and 4 relate buckets by XOR, 2 and 5 by reflection (hashing.hpp).
if hashId == 1 or hashId == 4 then
  local mask = bucketCount - 1
  alternate = function(bucket, fingerprint)
    local x = bxor(fingerprint, rshift(fingerprint, 16)) % TWO32
    x = (x * 0x352d + x * 0x7feb % TWO16 * TWO16) % TWO32
    x = bxor(x, rshift(x, 15)) % TWO32
    x = (x * 0xa68b + x * 0x846c % TWO16 * TWO16) % TWO32
    return bxor(bucket, band(bxor(x, rshift(x, 16)), mask)) % TWO32
  end
else
  alternate = function(bucket, fingerprint)
    local x = bxor(fingerprint, rshift(fingerprint, 16)) % TWO32
    x = (x * 0x352d + x * 0x7feb % TWO16 * TWO16) % TWO32
    x = bxor(x, rshift(x, 15)) % TWO32
    x = (x * 0xa68b + x * 0x846c % TWO16 * TWO16) % TWO32
    x = bxor(x, rshift(x, 16)) % TWO32
    -- c = (x * m) >> 32, through 16-bit halves of x.
    local xLow = x % TWO16
    local high, low = (x - xLow) / TWO16 * bucketCount, xLow * bucketCount
    local highLow = high % TWO16
    local sum = highLow * TWO16 + low
    local c = (high - highLow) / TWO16 + (sum - sum % TWO32) / TWO32
    if c >= bucket then return c - bucket end
    return c - bucket + bucketCount
  end
end

local stashFingerprint = bigEndian(header, 53, 4)
local stashBucket = bigEndian(header, 57, 4)
local itemCount = bigEndian(header, 61, 8)
local prngHigh, prngLow = bigEndian(header, 69, 4), bigEndian(header, 73, 4)

-- SplitMix64 (prng.hpp) on two 32-bit halves H, L; a draw's low half is all
-- the walk uses. z ^= z >> k is L ^ (L >> k | H << (32 - k)), H ^ (H >> k).
-- z *= C (C = CH 2^32 + CL, CL = c1 2^16 + c0) keeps the low 64 bits:
-- L CL = L c1 2^16 + L c0 (parts under 2^48) split at 2^32, plus
-- (H CL + L CH) mod 2^32 in the high half, each product modulo 2^32 as in mix32.
local TWO27, TWO30, TWO31 = 134217728, 1073741824, 2147483648
local function draw()
  local low, high = prngLow + 0x7f4a7c15, prngHigh + 0x9e3779b9
  if low >= TWO32 then low, high = low - TWO32, high + 1 end
  if high >= TWO32 then high = high - TWO32 end
  prngHigh, prngLow = high, low
  local part = high % TWO30
  low = bxor(low, (low - low % TWO30) / TWO30 + part * 4) % TWO32
  high = bxor(high, (high - part) / TWO30) % TWO32
  -- z *= 0xbf58476d1ce4e5b9
  local a, b = low * 0xe5b9, low * 0x1ce4
  local bLow = b % TWO16
  local t = bLow * TWO16 + a
  local product = t % TWO32
  high = ((b - bLow) / TWO16 + (t - product) / TWO32 + high * 0xe5b9 + high * 0x1ce4 % TWO16 * TWO16
    + low * 0x476d + low * 0xbf58 % TWO16 * TWO16) % TWO32
  low = product
  part = high % TWO27
  low = bxor(low, (low - low % TWO27) / TWO27 + part * 32) % TWO32
  high = bxor(high, (high - part) / TWO27) % TWO32
  -- z *= 0x94d049bb133111eb
  a, b = low * 0x11eb, low * 0x1331
  bLow = b % TWO16
  t = bLow * TWO16 + a
  product = t % TWO32
  high = ((b - bLow) / TWO16 + (t - product) / TWO32 + high * 0x11eb + high * 0x1331 % TWO16 * TWO16
    + low * 0x49bb + low * 0x94d0 % TWO16 * TWO16) % TWO32
  return bxor(product, (product - product % TWO31) / TWO31 + high % TWO31 * 2) % TWO32
end

local largestFingerprint = pow2[f] - 1
if stashFingerprint > largestFingerprint or stashBucket >= bucketCount or (stashFingerprint == 0 and stashBucket ~= 0) then
  refuse('INCONSISTENT', 'the stash in ' .. KEYS[1] .. ' is damaged')
end
if itemCount > pow2[53] then refuse('INCONSISTENT', 'the item count in ' .. KEYS[1] .. ' is damaged') end
checkChunk(1)

-- The items (8 bytes each: fingerprint, first bucket), all checked before anything else.
local operation, packed = ARGV[2], ARGV[3]
if operation ~= 'add' and operation ~= 'addUnique' and operation ~= 'delete' then refuse('INCONSISTENT', 'unknown operation') end
if #packed % 8 ~= 0 then refuse('INCONSISTENT', 'the items are not 8 bytes each') end
local itemTotal = #packed / 8
local fingerprints, firsts, seconds = {}, {}, {}
for k = 1, itemTotal do
  local a, b, c, d, e, g, h, i = byte(packed, 8 * k - 7, 8 * k)
  local fingerprint, first = ((a * 256 + b) * 256 + c) * 256 + d, ((e * 256 + g) * 256 + h) * 256 + i
  if fingerprint < 1 or fingerprint > largestFingerprint or first >= bucketCount then
    refuse('INCONSISTENT', 'item ' .. k .. ' is not a fingerprint and a bucket of this filter')
  end
  fingerprints[k], firsts[k] = fingerprint, first
end
local function secondOf(k)
  local second = seconds[k]
  if second == nil then
    second = alternate(firsts[k], fingerprints[k])
    seconds[k] = second
  end
  return second
end

local function stashHolds(k)
  return stashFingerprint ~= 0 and stashFingerprint == fingerprints[k] and (stashBucket == firsts[k] or stashBucket == secondOf(k))
end

-- Kernel::place and Kernel::evict: the second bucket only when the first is
-- full. False when the kicks run out while the stash is occupied: then each
-- kick is undone, last first (what Kernel's views do: a plain bucket takes
-- back the displaced fingerprint in the kick's slot; a semi-sorted one, kept
-- sorted, gives up the incoming value), and the PRNG restored.
local kickBuckets, kickRecords = {}, {}
local function placeBeyondFirst(fingerprint, first, second)
  if second ~= first and insertIntoEmptySlot(second, fingerprint) then return true end
  local undoable = stashFingerprint ~= 0
  local drawnHigh, drawnLow = prngHigh, prngLow
  local bucket = draw() % 2 == 1 and second or first
  for kick = 1, maxKicks do
    local slot, incoming = draw() % slots + 1, fingerprint
    fingerprint = exchange(bucket, slot, incoming)
    if undoable then kickBuckets[kick], kickRecords[kick] = bucket, semiSort and incoming or slot end
    bucket = alternate(bucket, fingerprint)
    if insertIntoEmptySlot(bucket, fingerprint) then return true end
  end
  if not undoable then
    stashFingerprint, stashBucket = fingerprint, bucket
    return true
  end
  for kick = maxKicks, 1, -1 do
    local kicked, record = kickBuckets[kick], kickRecords[kick]
    if semiSort then
      removeOne(kicked, record)
      insertIntoEmptySlot(kicked, fingerprint)
      fingerprint = record
    else
      fingerprint = exchange(kicked, record, fingerprint)
    end
  end
  prngHigh, prngLow = drawnHigh, drawnLow
  return false
end

local function insert(k)
  local fingerprint, first = fingerprints[k], firsts[k]
  if not insertIntoEmptySlot(first, fingerprint) and not placeBeyondFirst(fingerprint, first, secondOf(k)) then
    return false
  end
  itemCount = itemCount + 1
  return true
end

local function erase(k)
  local fingerprint = fingerprints[k]
  if stashHolds(k) then
    stashFingerprint, stashBucket = 0, 0
    itemCount = itemCount - 1
    return true
  end
  if not removeOne(firsts[k], fingerprint) and not removeOne(secondOf(k), fingerprint) then return false end
  itemCount = itemCount - 1
  -- A slot was freed: the stashed fingerprint gets a fresh walk (Kernel::reinsertStash).
  if stashFingerprint ~= 0 then
    local homeless, bucket = stashFingerprint, stashBucket
    stashFingerprint, stashBucket = 0, 0
    if not insertIntoEmptySlot(bucket, homeless) then placeBeyondFirst(homeless, bucket, alternate(bucket, homeless)) end
  end
  return true
end

-- The first buckets of all items in one read; the second buckets in another,
-- for the items that will need them: need 'free' (the first bucket, as read,
-- has no free slot), 'fingerprint' (it does not hold the item's fingerprint)
-- or 'all'.
local function preload(need)
  load(firsts, itemTotal)
  local list, count = {}, 0
  for k = 1, itemTotal do
    if need == 'all' or find(firsts[k], need == 'free' and 0 or fingerprints[k]) == nil then
      count = count + 1
      list[count] = secondOf(k)
    end
  end
  load(list, count)
end

local result = 0
local startState = {stashFingerprint, stashBucket, itemCount, prngHigh, prngLow}
if operation == 'add' then
  preload('free')
  for k = 1, itemTotal do
    if not insert(k) then break end
    result = result + 1
  end
elseif operation == 'addUnique' then
  preload('all')
  if find(firsts[1], fingerprints[1]) or find(secondOf(1), fingerprints[1]) or stashHolds(1) then
    result = 1
  elseif not insert(1) then
    result = 2
  end
else
  preload('fingerprint')
  for k = 1, itemTotal do
    if erase(k) then result = result + 1 end
  end
end

-- Every check is behind: now the writes.
storeDirty()
local state = {stashFingerprint, stashBucket, itemCount, prngHigh, prngLow}
for i = 1, 5 do
  if state[i] ~= startState[i] then
    local out = {}
    local at = appendBigEndian(out, 0, stashFingerprint, 4)
    at = appendBigEndian(out, at, stashBucket, 4)
    at = appendBigEndian(out, at, itemCount, 8)
    at = appendBigEndian(out, at, prngHigh, 4)
    appendBigEndian(out, at, prngLow, 4)
    redis.call('SETRANGE', KEYS[1], FIXED_TEXT, char(unpack(out, 1, 24)))
    break
  end
end
return {'OK', result}
`;

/** The mutating script's source. */
export const MUTATE_SOURCE = `${LUA_PRELUDE}
local function main()
local header = checkedHeader()
${LUA_TABLE}
${LUA_MUTATE_MAIN}
end
${LUA_SCRIPT_END}`;
