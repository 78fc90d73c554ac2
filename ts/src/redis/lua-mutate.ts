// The script that adds and deletes items in one shard of a filter, atomically,
// making the same choices as CuckooFilter (cpp/src/kernel.hpp): the lowest
// free slot of the first bucket, then of the second, then the eviction walk
// with SplitMix64 draws, and the one-entry stash for the last homeless
// fingerprint, so that a full filter refuses and loses nothing. The same
// operations on a filter of the same seed leave the same table as in-process.
//
// KEYS: the shard's chunk keys, chunk 0 (with the header) first.
// ARGV[1]: the fixed 52 header bytes as the caller opened the filter.
// ARGV[2]: 'add', 'addUnique' or 'delete'.
// ARGV[3]: the items, 8 bytes each: fingerprint and first bucket, big-endian
// 32-bit (the client hashes; the second bucket follows from these two).
// Reply: {'OK', n}, n = items added (add stops at the first refused), or
// 0 added / 1 already present / 2 full (addUnique), or items deleted; or
// {code, message}, having written nothing.

import { LUA_PRELUDE, LUA_SCRIPT_END } from './lua-prelude.js';
import { LUA_TABLE } from './lua-table.js';

const LUA_MUTATE_MAIN = String.raw`
-- The bucket relation of hashing.hpp, in exact double arithmetic.
local function mul32(a, b)
  local aLow, bLow = a % TWO16, b % TWO16
  local aHigh, bHigh = (a - aLow) / TWO16, (b - bLow) / TWO16
  return ((aHigh * bLow + aLow * bHigh) % TWO16 * TWO16 + aLow * bLow) % TWO32
end
local function mix32(x)
  x = bxor(x, rshift(x, 16)) % TWO32
  x = mul32(x, 0x7feb352d)
  x = bxor(x, rshift(x, 15)) % TWO32
  x = mul32(x, 0x846ca68b)
  return bxor(x, rshift(x, 16)) % TWO32
end
local alternate
if hashId == 1 then
  local mask = bucketCount - 1
  alternate = function(bucket, fingerprint) return bxor(bucket, band(mix32(fingerprint), mask)) % TWO32 end
else
  alternate = function(bucket, fingerprint)
    -- c = (mix32(fp) * m) >> 32, through 16-bit halves of mix32(fp).
    local x = mix32(fingerprint)
    local xLow = x % TWO16
    local high, low = (x - xLow) / TWO16 * bucketCount, xLow * bucketCount
    local highLow = high % TWO16
    local sum = highLow * TWO16 + low
    local c = (high - highLow) / TWO16 + (sum - sum % TWO32) / TWO32
    if c >= bucket then return c - bucket end
    return c - bucket + bucketCount
  end
end

-- SplitMix64 (prng.hpp) on two 32-bit halves; a draw's low half is all the walk uses.
local function mulFull32(a, b)
  local aLow, bLow = a % TWO16, b % TWO16
  local aHigh, bHigh = (a - aLow) / TWO16, (b - bLow) / TWO16
  local middle = aHigh * bLow + aLow * bHigh
  local middleLow = middle % TWO16
  local low = aLow * bLow + middleLow * TWO16
  local lowLow = low % TWO32
  return (aHigh * bHigh + (middle - middleLow) / TWO16 + (low - lowLow) / TWO32) % TWO32, lowLow
end
local function mul64(aHigh, aLow, bHigh, bLow)
  local high, low = mulFull32(aLow, bLow)
  return (high + mul32(aHigh, bLow) + mul32(aLow, bHigh)) % TWO32, low
end
local function xorShiftRight(high, low, k)
  local scale = pow2[k]
  local highLow = high % scale
  local shiftedHigh = (high - highLow) / scale
  local shiftedLow = highLow * pow2[32 - k] + (low - low % scale) / scale
  return bxor(high, shiftedHigh) % TWO32, bxor(low, shiftedLow) % TWO32
end
local stashFingerprint = bigEndian(header, 53, 4)
local stashBucket = bigEndian(header, 57, 4)
local itemCount = bigEndian(header, 61, 8)
local prngHigh, prngLow = bigEndian(header, 69, 4), bigEndian(header, 73, 4)
local function draw()
  prngLow = prngLow + 0x7f4a7c15
  prngHigh = (prngHigh + 0x9e3779b9 + (prngLow >= TWO32 and 1 or 0)) % TWO32
  prngLow = prngLow % TWO32
  local high, low = xorShiftRight(prngHigh, prngLow, 30)
  high, low = mul64(high, low, 0xbf58476d, 0x1ce4e5b9)
  high, low = xorShiftRight(high, low, 27)
  high, low = mul64(high, low, 0x94d049bb, 0x133111eb)
  high, low = xorShiftRight(high, low, 31)
  return low
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

local function insertIntoEmptySlot(bucket, fingerprint)
  ensure(bucket)
  local slot = find(bucket, 0)
  if slot == nil then return false end
  put(bucket, slot, fingerprint)
  markDirty(bucket)
  return true
end
local function exchange(bucket, slot, fingerprint)
  ensure(bucket)
  local previous = get(bucket, slot)
  put(bucket, slot, fingerprint)
  markDirty(bucket)
  return previous
end
local function removeOne(bucket, fingerprint)
  ensure(bucket)
  local slot = find(bucket, fingerprint)
  if slot == nil then return false end
  put(bucket, slot, 0)
  markDirty(bucket)
  return true
end
local function stashHolds(k)
  return stashFingerprint ~= 0 and stashFingerprint == fingerprints[k] and (stashBucket == firsts[k] or stashBucket == secondOf(k))
end

-- Kernel::place and Kernel::evictionWalk: the second bucket only when the first is full.
local function place(fingerprint, first, secondOrItem, isItem)
  if insertIntoEmptySlot(first, fingerprint) then return end
  local second = isItem and secondOf(secondOrItem) or secondOrItem
  if second ~= first and insertIntoEmptySlot(second, fingerprint) then return end
  local bucket = draw() % 2 == 1 and second or first
  for _ = 1, maxKicks do
    fingerprint = exchange(bucket, draw() % slots + 1, fingerprint)
    bucket = alternate(bucket, fingerprint)
    if insertIntoEmptySlot(bucket, fingerprint) then return end
  end
  stashFingerprint, stashBucket = fingerprint, bucket
end

local function insert(k)
  if stashFingerprint ~= 0 then return false end
  place(fingerprints[k], firsts[k], k, true)
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
    place(homeless, bucket, alternate(bucket, homeless), false)
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
  if stashFingerprint == 0 then preload('free') end
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
    redis.call('SETRANGE', KEYS[1], FIXED_BYTES, bigEndianBytes(stashFingerprint, 4) .. bigEndianBytes(stashBucket, 4)
      .. bigEndianBytes(itemCount, 8) .. bigEndianBytes(prngHigh, 4) .. bigEndianBytes(prngLow, 4))
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
