// The table of one shard as the mutating script sees it, in Lua: its shape
// from the header, its buckets read and written in BITFIELD order as words of
// at most 53 bits (CuckooFilter::bucketWords, cpp/src/parts.cpp: the same
// grouping), a semi-sorted bucket's rank, the two hash layouts' relation
// between buckets (hashing.hpp) and the SplitMix64 eviction PRNG (prng.hpp),
// all in exact double arithmetic. The reads are gathered into one BITFIELD_RO
// per chunk and the writes into one BITFIELD per chunk, because in a script
// each redis.call costs about as much as the work on a bucket.
//
// Expects LUA_PRELUDE and a checked `header` (lua-mutate.ts).

export const LUA_TABLE = String.raw`
local semiSort = band(byte(header, 6), 1) == 1
local hashId = byte(header, 7)
local f = byte(header, 8)
local slots = semiSort and 4 or byte(header, 9)
local chunkCount = bigEndian(header, 11, 2)
local maxKicks = bigEndian(header, 13, 4)
local bucketCount = bigEndian(header, 25, 8)
local chunkZeroBuckets = bigEndian(header, 33, 4)
local chunkBuckets = bigEndian(header, 37, 4)
if #KEYS ~= chunkCount then refuse('INCONSISTENT', 'the filter has ' .. chunkCount .. ' chunks, ' .. #KEYS .. ' keys were given') end

local pow2 = {[0] = 1}
for k = 1, 53 do pow2[k] = pow2[k - 1] * 2 end

-- A bucket's fields (slots, or rank and four low parts) and its words.
local fieldWidth = {}
if semiSort then
  fieldWidth = {12, f - 4, f - 4, f - 4, f - 4}
else
  for s = 1, slots do fieldWidth[s] = f end
end
local bucketBits = 0
local words = {}
for k, width in ipairs(fieldWidth) do
  local last = words[#words]
  if last and last.width + width <= 53 then
    last.width = last.width + width
    last.lastField = k
  else
    words[#words + 1] = {offset = bucketBits, width = width, firstField = k, lastField = k}
  end
  bucketBits = bucketBits + width
end
for _, word in ipairs(words) do word.type = 'u' .. word.width end

-- Where a bucket lives: its chunk (an index into KEYS) and its first bit there.
local function placeOf(bucket)
  if bucket < chunkZeroBuckets then return 1, 8 * HEADER_BYTES + bucket * bucketBits end
  local relative = bucket - chunkZeroBuckets
  local chunk = floor(relative / chunkBuckets)
  return chunk + 2, (relative - chunk * chunkBuckets) * bucketBits
end

local function chunkBytes(index)
  if index == 1 then return HEADER_BYTES + ceil(min(chunkZeroBuckets, bucketCount) * bucketBits / 8) end
  local first = chunkZeroBuckets + (index - 2) * chunkBuckets
  return ceil(min(chunkBuckets, bucketCount - first) * bucketBits / 8)
end

-- Every chunk is checked (type and length) before the script reads from it.
local checkedChunk = {}
local function checkChunk(index)
  if checkedChunk[index] then return end
  local length = onString('STRLEN', KEYS[index])
  local expected = chunkBytes(index)
  if length < expected then
    refuse('TRUNCATED', 'key ' .. KEYS[index] .. ' holds ' .. length .. ' bytes, the filter needs ' .. expected)
  elseif length > expected then
    refuse('INCONSISTENT', 'key ' .. KEYS[index] .. ' holds ' .. length .. ' bytes, the filter needs ' .. expected)
  end
  checkedChunk[index] = true
end

-- Semi-sorted buckets: the rank of four sorted nibbles (FORMAT.md).
local binomial = {}
for n = 0, 18 do
  binomial[n] = {[0] = 1}
  for k = 1, 4 do
    binomial[n][k] = k > n and 0 or binomial[n][k - 1] * (n - k + 1) / k
  end
end
local function rankOf(a, b, c, d)
  return binomial[a][1] + binomial[b + 1][2] + binomial[c + 2][3] + binomial[d + 3][4]
end
local function unrank(rank, bucket)
  if rank >= 3876 then refuse('INCONSISTENT', 'bucket ' .. bucket .. ' has rank ' .. rank .. ', which names no bucket') end
  local x3 = 18
  while binomial[x3][4] > rank do x3 = x3 - 1 end
  rank = rank - binomial[x3][4]
  local x2 = x3 - 1
  while binomial[x2][3] > rank do x2 = x2 - 1 end
  rank = rank - binomial[x2][3]
  local x1 = x2 - 1
  while binomial[x1][2] > rank do x1 = x1 - 1 end
  return rank - binomial[x1][2], x1 - 1, x2 - 2, x3 - 3
end
local function sortFour(e)
  for i = 2, 4 do
    local value, j = e[i], i - 1
    while j >= 1 and e[j] > value do
      e[j + 1] = e[j]
      j = j - 1
    end
    e[j + 1] = value
  end
end

-- The loaded buckets: entries[bucket] lists its slots (semi-sorted: ascending).
local entries, dirty, dirtyBuckets = {}, {}, {}
local lowScale = pow2[f - 4] or 1

local function decode(bucket, values, first)
  local fields = {}
  for w, word in ipairs(words) do
    local value = values[first + w - 1]
    for k = word.lastField, word.firstField, -1 do
      local scale = pow2[fieldWidth[k]]
      fields[k] = value % scale
      value = floor(value / scale)
    end
  end
  if not semiSort then
    entries[bucket] = fields
    return
  end
  local n0, n1, n2, n3 = unrank(fields[1], bucket)
  local e = {n0 * lowScale + fields[2], n1 * lowScale + fields[3], n2 * lowScale + fields[4], n3 * lowScale + fields[5]}
  if e[1] > e[2] or e[2] > e[3] or e[3] > e[4] then refuse('INCONSISTENT', 'bucket ' .. bucket .. ' is not in sorted order') end
  entries[bucket] = e
end

local function encode(bucket)
  local e = entries[bucket]
  local fields = e
  if semiSort then
    fields = {rankOf(floor(e[1] / lowScale), floor(e[2] / lowScale), floor(e[3] / lowScale), floor(e[4] / lowScale)),
      e[1] % lowScale, e[2] % lowScale, e[3] % lowScale, e[4] % lowScale}
  end
  local values = {}
  for w, word in ipairs(words) do
    local value = 0
    for k = word.firstField, word.lastField do value = value * pow2[fieldWidth[k]] + fields[k] end
    values[w] = value
  end
  return values
end

-- Redis's Lua takes at most 8000 values from unpack: commands go in parts.
local ARGUMENTS_PER_CALL = 6000
local function callInParts(command, key, arguments, perOperation, collect)
  local first = 1
  while first <= #arguments do
    local last = min(#arguments, first + ARGUMENTS_PER_CALL - ARGUMENTS_PER_CALL % perOperation - 1)
    local reply = redis.call(command, key, unpack(arguments, first, last))
    if collect then for _, value in ipairs(reply) do collect[#collect + 1] = value end end
    first = last + 1
  end
end

-- Loads the buckets listed (those not loaded yet), one BITFIELD_RO per chunk.
local function load(buckets)
  local byChunk, order = {}, {}
  for _, bucket in ipairs(buckets) do
    if entries[bucket] == nil then
      entries[bucket] = false
      local index, bit = placeOf(bucket)
      local group = byChunk[index]
      if group == nil then
        group = {arguments = {}, buckets = {}}
        byChunk[index] = group
        order[#order + 1] = index
      end
      group.buckets[#group.buckets + 1] = bucket
      for _, word in ipairs(words) do
        local arguments = group.arguments
        arguments[#arguments + 1] = 'GET'
        arguments[#arguments + 1] = word.type
        arguments[#arguments + 1] = bit + word.offset
      end
    end
  end
  for _, index in ipairs(order) do
    checkChunk(index)
    local group = byChunk[index]
    local values = {}
    callInParts('BITFIELD_RO', KEYS[index], group.arguments, 3, values)
    for n, bucket in ipairs(group.buckets) do decode(bucket, values, (n - 1) * #words + 1) end
  end
end
local function ensure(bucket)
  if not entries[bucket] then load({bucket}) end
end

local function markDirty(bucket)
  if not dirty[bucket] then
    dirty[bucket] = true
    dirtyBuckets[#dirtyBuckets + 1] = bucket
  end
end

-- Writes every changed bucket, one BITFIELD per chunk.
local function storeDirty()
  local byChunk, order = {}, {}
  for _, bucket in ipairs(dirtyBuckets) do
    local index, bit = placeOf(bucket)
    local arguments = byChunk[index]
    if arguments == nil then
      arguments = {}
      byChunk[index] = arguments
      order[#order + 1] = index
    end
    local values = encode(bucket)
    for w, word in ipairs(words) do
      arguments[#arguments + 1] = 'SET'
      arguments[#arguments + 1] = word.type
      arguments[#arguments + 1] = bit + word.offset
      arguments[#arguments + 1] = values[w]
    end
  end
  for _, index in ipairs(order) do callInParts('BITFIELD', KEYS[index], byChunk[index], 4) end
end
`;
