// The start of every script cuckoo-wasm/redis runs in Redis: its refusals,
// big-endian fields, and reading a shard's header. Redis (6.2 on) runs Lua
// 5.1: numbers are doubles, exact for integers up to 2^53, and the `bit`
// library works on 32-bit values, returned signed (hence the `% TWO32`).
//
// A script refuses with refuse(code, message) before its first write; the
// wrapper at its end (SCRIPT_END) turns that into the reply {code, message}.

/** The header of a shard (chunk 0's first bytes); layout.ts describes it. */
export const LUA_PRELUDE = String.raw`
local ceil, min = math.ceil, math.min
local byte, char, sub = string.byte, string.char, string.sub
local bxor, band, rshift = bit.bxor, bit.band, bit.rshift
local TWO16, TWO32 = 65536, 4294967296
local HEADER_BYTES, FIXED_BYTES = 76, 52
-- The same as command arguments: Redis turns a number argument into text with snprintf, slowly.
local LAST_HEADER_TEXT, FIXED_TEXT = '75', '52'

local Refusal = {}
local function refuse(code, message)
  error(setmetatable({code = code, message = message}, Refusal), 0)
end

local function bigEndian(s, first, count)
  local value = 0
  for k = first, first + count - 1 do value = value * 256 + byte(s, k) end
  return value
end

-- Writes value as count big-endian bytes into out[at + 1 .. at + count]; returns at + count.
local function appendBigEndian(out, at, value, count)
  for k = at + count, at + 1, -1 do
    local low = value % 256
    out[k] = low
    value = (value - low) / 256
  end
  return at + count
end

-- A command on a key that must hold a string: a key of another type is refused.
local function onString(command, key, ...)
  local reply = redis.pcall(command, key, ...)
  if type(reply) == 'table' and reply.err then
    if string.find(reply.err, 'WRONGTYPE', 1, true) then
      refuse('BAD_MAGIC', 'key ' .. key .. ' holds a ' .. redis.call('TYPE', key).ok .. ', not a cuckoo-wasm filter')
    end
    error(reply, 0)
  end
  return reply
end

-- The header of the shard whose chunk 0 is KEYS[1], checked against the
-- fixed part the caller opened (ARGV[1]): the same filter, undamaged. Its
-- layout version is 1, or 2 with a change log (CHANGE-LOG.md), which a filter
-- gains while callers hold it open: the version and the log length (bytes
-- 5 and 51-52 here) are the fixed bytes not compared.
local function checkedHeader()
  local header = onString('GETRANGE', KEYS[1], '0', LAST_HEADER_TEXT)
  local opened = ARGV[1]
  if #header == 0 then refuse('NOT_FOUND', 'key ' .. KEYS[1] .. ' is gone: the filter was dropped') end
  if sub(header, 1, 4) ~= 'CKFR' then refuse('BAD_MAGIC', 'key ' .. KEYS[1] .. ' is not a cuckoo-wasm filter shard') end
  local version = byte(header, 5)
  if version ~= 1 and version ~= 2 then refuse('UNSUPPORTED_VERSION', 'key ' .. KEYS[1] .. ' has format version ' .. version) end
  if #header < HEADER_BYTES then refuse('TRUNCATED', 'key ' .. KEYS[1] .. ' is shorter than its header') end
  if sub(header, 45, 50) ~= sub(opened, 45, 50) then
    refuse('NOT_FOUND', 'key ' .. KEYS[1] .. ' belongs to another filter: this one was dropped and the name used again')
  end
  if sub(header, 6, 50) ~= sub(opened, 6, 50) then
    refuse('BAD_PARAMETERS', 'the header in ' .. KEYS[1] .. ' differs from the parameters the filter was opened with')
  end
  return header
end
`;

/** Runs the script's `main` and turns a refusal into the reply {code, message}. */
export const LUA_SCRIPT_END = String.raw`
local ok, result = pcall(main)
if ok then return result end
if getmetatable(result) == Refusal then return {result.code, result.message} end
if type(result) == 'table' and result.err then return result end
return redis.error_reply(tostring(result))
`;
