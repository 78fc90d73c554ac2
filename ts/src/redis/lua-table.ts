// The table of one shard as the mutating script sees it, in Lua: its shape
// from the header, its buckets read and written in BITFIELD order as words of
// at most 53 bits (grouped as buckets.ts groups them), and a semi-sorted
// bucket's rank (FORMAT.md), all in exact double
// arithmetic. The reads are gathered into one BITFIELD_RO per chunk and the
// writes into one BITFIELD per chunk, because in a script each redis.call
// costs about as much as the work on many buckets.
//
// Written for Redis's Lua, where a function call costs as much as several
// arithmetic operations and a new table more: the per-bucket paths use loops
// over local arrays and (v - v % d) / d rather than math.floor, and a plain
// bucket of one word is kept as that number.
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

-- A bucket's fields (slots, or rank and four low parts), grouped into words.
local fieldCount = semiSort and 5 or slots
local fieldScale = {}
for k = 1, fieldCount do fieldScale[k] = pow2[semiSort and (k == 1 and 12 or f - 4) or f] end
local wordCount, wordOffset, wordWidth, wordType, wordFirst, wordLast = 0, {}, {}, {}, {}, {}
local bucketBits = 0
for k = 1, fieldCount do
  local width = semiSort and (k == 1 and 12 or f - 4) or f
  if wordCount > 0 and wordWidth[wordCount] + width <= 53 then
    wordWidth[wordCount] = wordWidth[wordCount] + width
    wordLast[wordCount] = k
  else
    wordCount = wordCount + 1
    wordOffset[wordCount], wordWidth[wordCount], wordFirst[wordCount], wordLast[wordCount] = bucketBits, width, k, k
  end
  bucketBits = bucketBits + width
end
for w = 1, wordCount do wordType[w] = 'u' .. wordWidth[w] end

-- Where a bucket lives: its chunk (an index into KEYS) and its first bit there.
local headerBits = 8 * HEADER_BYTES
local function placeOf(bucket)
  if bucket < chunkZeroBuckets then return 1, headerBits + bucket * bucketBits end
  local relative = bucket - chunkZeroBuckets
  local chunk = (relative - relative % chunkBuckets) / chunkBuckets
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

-- Semi-sorted buckets: the rank of four sorted nibbles, C(a,1) + C(b+1,2) + C(c+2,3) + C(d+3,4).
-- (Only semi-sorted tables need it: a plain table's script does not build it.)
local binomial = {}
for n = 0, semiSort and 18 or -1 do
  binomial[n] = {[0] = 1}
  for k = 1, 4 do binomial[n][k] = k > n and 0 or binomial[n][k - 1] * (n - k + 1) / k end
end
local lowScale = pow2[f - 4] or 1
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

-- The loaded buckets. A plain bucket of one word (the default shapes) stays
-- that number, its slots read and changed by arithmetic; any other bucket is
-- a list of its slots (semi-sorted: ascending). find, get and put work on both.
local loaded, dirty, dirtyBuckets, dirtyCount = {}, {}, {}, 0
local oneWord = not semiSort and wordCount == 1
local slotScale = pow2[f]
local slotBelow = {}
for s = 1, slots do slotBelow[s] = pow2[(slots - s) * f] end
local scratch = {}
local find, get, put
if oneWord then
  -- scratch holds the slots of one bucket's word, kept while the word is unchanged.
  local scratchBucket, scratchWord = nil, nil
  local function unpackWord(bucket)
    local value = loaded[bucket]
    if bucket == scratchBucket and value == scratchWord then return end
    scratchBucket, scratchWord = bucket, value
    for s = slots, 1, -1 do
      local slot = value % slotScale
      scratch[s] = slot
      value = (value - slot) / slotScale
    end
  end
  find = function(bucket, value)
    unpackWord(bucket)
    for s = 1, slots do if scratch[s] == value then return s end end
    return nil
  end
  get = function(bucket, s)
    unpackWord(bucket)
    return scratch[s]
  end
  put = function(bucket, s, value)
    unpackWord(bucket)
    local word = loaded[bucket] + (value - scratch[s]) * slotBelow[s]
    loaded[bucket] = word
    scratch[s] = value
    scratchWord = word
  end
else
  find = function(bucket, value)
    local e = loaded[bucket]
    for s = 1, slots do if e[s] == value then return s end end
    return nil
  end
  get = function(bucket, s) return loaded[bucket][s] end
  put = function(bucket, s, value)
    local e = loaded[bucket]
    e[s] = value
    if semiSort then sortFour(e) end
  end
end

local function decode(bucket, values, first)
  if oneWord then
    loaded[bucket] = values[first]
    return
  end
  local e = {}
  for w = 1, wordCount do
    local value = values[first + w - 1]
    for k = wordLast[w], wordFirst[w], -1 do
      local scale = fieldScale[k]
      local field = value % scale
      e[k] = field
      value = (value - field) / scale
    end
  end
  if semiSort then
    local n0, n1, n2, n3 = unrank(e[1], bucket)
    e[1], e[2], e[3], e[4], e[5] = n0 * lowScale + e[2], n1 * lowScale + e[3], n2 * lowScale + e[4], n3 * lowScale + e[5], nil
    if e[1] > e[2] or e[2] > e[3] or e[3] > e[4] then refuse('INCONSISTENT', 'bucket ' .. bucket .. ' is not in sorted order') end
  end
  loaded[bucket] = e
end

-- The bucket's word values, into values[at], values[at + 1], ...
local function encode(bucket, values, at)
  if oneWord then
    values[at] = loaded[bucket]
    return
  end
  local fields = loaded[bucket]
  if semiSort then
    local e = fields
    local l1, l2, l3, l4 = e[1] % lowScale, e[2] % lowScale, e[3] % lowScale, e[4] % lowScale
    local n1, n2, n3, n4 = (e[1] - l1) / lowScale, (e[2] - l2) / lowScale, (e[3] - l3) / lowScale, (e[4] - l4) / lowScale
    fields = {binomial[n1][1] + binomial[n2 + 1][2] + binomial[n3 + 2][3] + binomial[n4 + 3][4], l1, l2, l3, l4}
  end
  for w = 1, wordCount do
    local value = 0
    for k = wordFirst[w], wordLast[w] do value = value * fieldScale[k] + fields[k] end
    values[at + w - 1] = value
  end
end

-- Redis's Lua takes at most 8000 values from unpack: commands go in parts.
local ARGUMENTS_PER_CALL = 6000
local function callInParts(command, key, arguments, length, perOperation, collect)
  local first = 1
  while first <= length do
    local last = min(length, first + ARGUMENTS_PER_CALL - ARGUMENTS_PER_CALL % perOperation - 1)
    local reply = redis.call(command, key, unpack(arguments, first, last))
    if collect then
      local n = #collect
      for i = 1, #reply do collect[n + i] = reply[i] end
    end
    first = last + 1
  end
end

-- Loads the buckets of list[1..count] not loaded yet: one BITFIELD_RO per chunk.
local function load(list, count)
  local groups, order = {}, {}
  for i = 1, count do
    local bucket = list[i]
    if loaded[bucket] == nil then
      loaded[bucket] = false
      local index, bit = placeOf(bucket)
      local group = groups[index]
      if group == nil then
        group = {arguments = {}, length = 0, buckets = {}}
        groups[index] = group
        order[#order + 1] = index
      end
      group.buckets[#group.buckets + 1] = bucket
      local arguments, n = group.arguments, group.length
      for w = 1, wordCount do
        arguments[n + 1], arguments[n + 2], arguments[n + 3] = 'GET', wordType[w], bit + wordOffset[w]
        n = n + 3
      end
      group.length = n
    end
  end
  for _, index in ipairs(order) do
    checkChunk(index)
    local group = groups[index]
    local values = {}
    callInParts('BITFIELD_RO', KEYS[index], group.arguments, group.length, 3, values)
    local buckets = group.buckets
    for n = 1, #buckets do decode(buckets[n], values, (n - 1) * wordCount + 1) end
  end
end
local function ensure(bucket)
  if not loaded[bucket] then load({bucket}, 1) end
end

local function markDirty(bucket)
  if not dirty[bucket] then
    dirty[bucket] = true
    dirtyCount = dirtyCount + 1
    dirtyBuckets[dirtyCount] = bucket
  end
end

-- Writes every changed bucket: one BITFIELD per chunk.
local function storeDirty()
  local groups, order = {}, {}
  local values = {}
  for i = 1, dirtyCount do
    local bucket = dirtyBuckets[i]
    local index, bit = placeOf(bucket)
    local group = groups[index]
    if group == nil then
      group = {arguments = {}, length = 0}
      groups[index] = group
      order[#order + 1] = index
    end
    encode(bucket, values, 1)
    local arguments, n = group.arguments, group.length
    for w = 1, wordCount do
      arguments[n + 1], arguments[n + 2], arguments[n + 3], arguments[n + 4] = 'SET', wordType[w], bit + wordOffset[w], values[w]
      n = n + 4
    end
    group.length = n
  end
  for _, index in ipairs(order) do
    local group = groups[index]
    callInParts('BITFIELD', KEYS[index], group.arguments, group.length, 4)
  end
end
`;
