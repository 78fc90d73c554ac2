// The table of one shard as the mutating script sees it, in Lua: its shape
// from the header, its buckets read and written in BITFIELD order as words of
// at most 53 bits (grouped as buckets.ts groups them), and a semi-sorted
// bucket's rank (FORMAT.md), all in exact double arithmetic. The reads are
// gathered into one BITFIELD_RO per chunk and the writes into one BITFIELD per
// chunk, because in a script each redis.call costs about as much as the work
// on many buckets.
//
// Written for Redis's Lua, where a function call costs as much as several
// arithmetic operations and a new table more: the per-bucket paths use loops
// over local arrays and (v - v % d) / d rather than math.floor, and a plain
// bucket of one word (the default shapes) is kept as that number.
//
// Every number a command takes goes to Redis as text made here with
// string.format('%d'): Redis turns a Lua number argument into text with
// snprintf("%.17g"), which measured 0.5 to 1 us per argument on Redis 7.0,
// more than the GET or SET it is for. A bucket's offset is made once, for its
// read and its write.
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
if #KEYS ~= chunkCount + 2 then refuse('INCONSISTENT', 'the filter has ' .. chunkCount .. ' chunks and a log of 2 keys, ' .. #KEYS .. ' keys were given') end

local format = string.format
local pow2 = {[0] = 1}
for k = 1, 53 do pow2[k] = pow2[k - 1] * 2 end

-- A bucket's fields (slots, or rank and four low parts), grouped into words.
local fieldCount = semiSort and 5 or slots
local fieldWidth, fieldScale = {}, {}
for k = 1, fieldCount do
  fieldWidth[k] = semiSort and (k == 1 and 12 or f - 4) or f
  fieldScale[k] = pow2[fieldWidth[k]]
end
local wordCount, wordOffset, wordWidth, wordType, wordFirst, wordLast = 0, {}, {}, {}, {}, {}
local bucketBits = 0
for k = 1, fieldCount do
  local width = fieldWidth[k]
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
-- that number, its slots read and changed by arithmetic, and bitText keeps the
-- text of its offset, for its read and its write (and tells a bucket already
-- asked for); any other bucket is a list of its slots (semi-sorted:
-- ascending). The buckets changed are listed in dirtyBuckets, a bucket once
-- per change: writing one twice writes its final value twice, which costs
-- less than keeping the list free of repeats.
local loaded, dirtyBuckets, dirtyCount = {}, {}, 0
local oneWord = not semiSort and wordCount == 1
local oneWordType = wordType[1]
local bitText = {}
local slotScale = pow2[f]
local slotBelow = {}
for s = 1, slots do slotBelow[s] = pow2[(slots - s) * f] end

-- A bucket of several words or a semi-sorted one, from its words values[first], values[first + 1], ...
local function decode(bucket, values, first)
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

-- Such a bucket's fields as stored: its slots, or its rank and four low parts.
local function fieldsOf(bucket)
  local e = loaded[bucket]
  if not semiSort then return e end
  local l1, l2, l3, l4 = e[1] % lowScale, e[2] % lowScale, e[3] % lowScale, e[4] % lowScale
  local n1, n2, n3, n4 = (e[1] - l1) / lowScale, (e[2] - l2) / lowScale, (e[3] - l3) / lowScale, (e[4] - l4) / lowScale
  return {binomial[n1][1] + binomial[n2 + 1][2] + binomial[n3 + 2][3] + binomial[n4 + 3][4], l1, l2, l3, l4}
end

-- Such a bucket's word values, into values[1], values[2], ...
local function encode(bucket, values)
  local fields = fieldsOf(bucket)
  for w = 1, wordCount do
    local value = 0
    for k = wordFirst[w], wordLast[w] do value = value * fieldScale[k] + fields[k] end
    values[w] = value
  end
end

-- Redis's Lua takes at most 8000 values from unpack: a long command goes in
-- parts, whose replies are joined.
local ARGUMENTS_PER_CALL = 6000
local function callInParts(command, key, arguments, length, perOperation)
  if length <= ARGUMENTS_PER_CALL then return redis.call(command, key, unpack(arguments, 1, length)) end
  local replies, count, first = {}, 0, 1
  while first <= length do
    local last = min(length, first + ARGUMENTS_PER_CALL - ARGUMENTS_PER_CALL % perOperation - 1)
    local reply = redis.call(command, key, unpack(arguments, first, last))
    for i = 1, #reply do replies[count + i] = reply[i] end
    count = count + #reply
    first = last + 1
  end
  return replies
end

-- Loads the buckets of list[1..count] not loaded yet: one BITFIELD_RO per
-- chunk, its arguments built per chunk index (in the order first met).
local function load(list, count)
  local argumentsOf, lengthOf, bucketsOf, countOf, order, groups = {}, {}, {}, {}, {}, 0
  for i = 1, count do
    local bucket = list[i]
    local new
    if oneWord then new = bitText[bucket] == nil else new = loaded[bucket] == nil end
    if new then
      local index, bit = placeOf(bucket)
      local arguments, buckets = argumentsOf[index], bucketsOf[index]
      if arguments == nil then
        arguments, buckets = {}, {}
        argumentsOf[index], lengthOf[index], bucketsOf[index], countOf[index] = arguments, 0, buckets, 0
        groups = groups + 1
        order[groups] = index
      end
      local n, c = lengthOf[index], countOf[index] + 1
      buckets[c] = bucket
      countOf[index] = c
      if oneWord then
        local text = format('%d', bit)
        bitText[bucket] = text
        arguments[n + 1], arguments[n + 2], arguments[n + 3] = 'GET', oneWordType, text
        n = n + 3
      else
        loaded[bucket] = false
        for w = 1, wordCount do
          arguments[n + 1], arguments[n + 2], arguments[n + 3] = 'GET', wordType[w], format('%d', bit + wordOffset[w])
          n = n + 3
        end
      end
      lengthOf[index] = n
    end
  end
  for g = 1, groups do
    local index = order[g]
    checkChunk(index)
    local values = callInParts('BITFIELD_RO', KEYS[index], argumentsOf[index], lengthOf[index], 3)
    local buckets = bucketsOf[index]
    if oneWord then
      for n = 1, countOf[index] do loaded[buckets[n]] = values[n] end
    else
      for n = 1, countOf[index] do decode(buckets[n], values, (n - 1) * wordCount + 1) end
    end
  end
end

-- One bucket (an eviction's next): its own BITFIELD_RO. Returns the loaded bucket.
local function loadOne(bucket)
  local index, bit = placeOf(bucket)
  if not checkedChunk[index] then checkChunk(index) end
  if oneWord then
    local text = format('%d', bit)
    bitText[bucket] = text
    local word = redis.call('BITFIELD_RO', KEYS[index], 'GET', oneWordType, text)[1]
    loaded[bucket] = word
    return word
  end
  local arguments, n = {}, 0
  for w = 1, wordCount do
    arguments[n + 1], arguments[n + 2], arguments[n + 3] = 'GET', wordType[w], format('%d', bit + wordOffset[w])
    n = n + 3
  end
  decode(bucket, redis.call('BITFIELD_RO', KEYS[index], unpack(arguments, 1, n)), 1)
  return loaded[bucket]
end

-- The bucket operations the core's kernel makes, each loading its bucket when
-- needed: find (the lowest slot holding a value, or nil), the lowest free
-- slot taking a fingerprint, a slot's fingerprint exchanged, one copy removed;
-- the two layouts differ only in find, slotValue and put.
local find, slotValue, put
if oneWord then
  -- Slot s of a word is (word >> (slots - s) f) mod 2^f.
  local function slotOf(word, s)
    local below = slotBelow[s]
    return (word - word % below) / below % slotScale
  end
  find = function(bucket, value)
    local word = loaded[bucket] or loadOne(bucket)
    for s = 1, slots do
      if slotOf(word, s) == value then return s end
    end
    return nil
  end
  slotValue = function(bucket, s) return slotOf(loaded[bucket] or loadOne(bucket), s) end
  -- Slot s of a loaded bucket takes value; the bucket is listed as changed.
  put = function(bucket, s, value)
    local word = loaded[bucket]
    loaded[bucket] = word + (value - slotOf(word, s)) * slotBelow[s]
    dirtyCount = dirtyCount + 1
    dirtyBuckets[dirtyCount] = bucket
  end
else
  find = function(bucket, value)
    local e = loaded[bucket] or loadOne(bucket)
    for s = 1, slots do if e[s] == value then return s end end
    return nil
  end
  slotValue = function(bucket, s) return (loaded[bucket] or loadOne(bucket))[s] end
  put = function(bucket, s, value)
    local e = loaded[bucket]
    e[s] = value
    if semiSort then sortFour(e) end
    dirtyCount = dirtyCount + 1
    dirtyBuckets[dirtyCount] = bucket
  end
end
local function insertIntoEmptySlot(bucket, fingerprint)
  local s = find(bucket, 0)
  if s == nil then return false end
  put(bucket, s, fingerprint)
  return true
end
local function exchange(bucket, s, fingerprint)
  local previous = slotValue(bucket, s)
  put(bucket, s, fingerprint)
  return previous
end
local function removeOne(bucket, fingerprint)
  local s = find(bucket, fingerprint)
  if s == nil then return false end
  put(bucket, s, 0)
  return true
end

-- Writes every changed bucket: one BITFIELD per chunk.
local function storeDirty()
  local argumentsOf, lengthOf, order, groups = {}, {}, {}, 0
  local values = {}
  for i = 1, dirtyCount do
    local bucket = dirtyBuckets[i]
    local index, bit = placeOf(bucket)
    local arguments = argumentsOf[index]
    if arguments == nil then
      arguments = {}
      argumentsOf[index], lengthOf[index] = arguments, 0
      groups = groups + 1
      order[groups] = index
    end
    local n = lengthOf[index]
    if oneWord then
      arguments[n + 1], arguments[n + 2], arguments[n + 3], arguments[n + 4] = 'SET', oneWordType, bitText[bucket], format('%d', loaded[bucket])
      n = n + 4
    else
      encode(bucket, values)
      for w = 1, wordCount do
        arguments[n + 1], arguments[n + 2], arguments[n + 3], arguments[n + 4] = 'SET', wordType[w], format('%d', bit + wordOffset[w]), format('%d', values[w])
        n = n + 4
      end
    end
    lengthOf[index] = n
  end
  for g = 1, groups do
    local index = order[g]
    callInParts('BITFIELD', KEYS[index], argumentsOf[index], lengthOf[index], 4)
  end
end
`;
