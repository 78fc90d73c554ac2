// The scripts that make, finish and remove a filter's keys. Each works on one
// hash slot: a shard's chunks, or the filter's root key (its name).

import { LUA_PRELUDE, LUA_SCRIPT_END } from './lua-prelude.js';

/**
 * Makes one shard: refuses (EXISTS) when any of its keys exists, else writes
 * every chunk at its exact length, so that Redis allocates no spare room.
 * KEYS: the chunk keys, then the change log's two (made by the first logged
 * write). ARGV[1]: the whole header (76 bytes); ARGV[2]: 'zero' (ARGV[3..]
 * are the chunk lengths) or 'contents' (ARGV[3..] are the chunks, chunk 0
 * without its header).
 */
export const CREATE_SHARD_SOURCE = `${LUA_PRELUDE}
local function main()
  for _, key in ipairs(KEYS) do
    if redis.call('EXISTS', key) == 1 then refuse('EXISTS', 'key ' .. key .. ' already exists') end
  end
  for index = 1, #ARGV - 2 do
    local key, value = KEYS[index], ARGV[2 + index]
    if ARGV[2] == 'zero' then
      redis.call('SETRANGE', key, tonumber(value) - 1, '\\0')
      if index == 1 then redis.call('SETRANGE', key, 0, ARGV[1]) end
    elseif index == 1 then
      redis.call('SET', key, ARGV[1] .. value)
    else
      redis.call('SET', key, value)
    end
  end
  return {'OK', #ARGV - 2}
end
${LUA_SCRIPT_END}`;

/**
 * Deletes one shard's keys (KEYS: its chunks, then its change log's) if chunk
 * 0 still belongs to the filter whose fixed header is ARGV[1] (its id); a
 * shard already gone counts as deleted.
 */
export const DROP_SHARD_SOURCE = `${LUA_PRELUDE}
local function main()
  local id = onString('GETRANGE', KEYS[1], 44, 49)
  if #id == 0 then return {'OK', 0} end
  if id ~= sub(ARGV[1], 45, 50) then refuse('NOT_FOUND', 'key ' .. KEYS[1] .. ' belongs to another filter') end
  return {'OK', redis.call('DEL', unpack(KEYS))}
end
${LUA_SCRIPT_END}`;

/**
 * A shard's chunks, read at one instant (an export). KEYS: the chunk keys;
 * ARGV[1]: the fixed header the caller opened. Reply {'OK', {chunk, ...}}.
 */
export const EXPORT_SHARD_SOURCE = `${LUA_PRELUDE}
local function main()
  checkedHeader()
  local chunks = {}
  for index, key in ipairs(KEYS) do chunks[index] = onString('GET', key) or '' end
  return {'OK', chunks}
end
${LUA_SCRIPT_END}`;

/**
 * The root key (the filter's name), changed only while it holds the filter
 * ARGV[2] describes: ARGV[1] 'replace' sets it to ARGV[3], 'delete' deletes it.
 */
export const ROOT_SOURCE = `${LUA_PRELUDE}
local function main()
  local root = onString('GET', KEYS[1])
  if not root then refuse('NOT_FOUND', 'filter ' .. KEYS[1] .. ' does not exist') end
  if root ~= ARGV[2] then refuse('NOT_FOUND', 'key ' .. KEYS[1] .. ' holds another filter') end
  if ARGV[1] == 'replace' then
    redis.call('SET', KEYS[1], ARGV[3])
  else
    redis.call('DEL', KEYS[1])
  end
  return {'OK', 1}
end
${LUA_SCRIPT_END}`;
