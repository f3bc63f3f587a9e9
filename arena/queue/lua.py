"""The Lua scripts that make `RedisQueue`'s state changes atomic on the server.

Each script checks before it writes, in one step no other client can interleave with:
a log append only under the match's current lease token and at the expected position
(fencing), a takeover only when no heartbeat key exists, an acknowledgement only by the
lease holder. Keys are passed in `KEYS`; the key layout is documented in `redis_queue`.
"""

from __future__ import annotations

SUBMIT = """
-- KEYS: game hash, tournament set, jobs stream
-- ARGV: game id, fingerprint, job json, max attempts
local state = redis.call('HGET', KEYS[1], 'state')
if state then
  if redis.call('HGET', KEYS[1], 'fingerprint') ~= ARGV[2] then return 'conflict' end
  if state ~= 'failed' then return 'existing' end
  local id = redis.call('XADD', KEYS[3], '*', 'game_id', ARGV[1])
  redis.call('HSET', KEYS[1], 'state', 'queued', 'attempts', 0, 'error', '', 'message', id)
  return 'requeued'
end
local id = redis.call('XADD', KEYS[3], '*', 'game_id', ARGV[1])
redis.call('HSET', KEYS[1], 'state', 'queued', 'fingerprint', ARGV[2], 'job', ARGV[3],
  'attempts', 0, 'max_attempts', ARGV[4], 'error', '', 'message', id)
redis.call('SADD', KEYS[2], ARGV[1])
return 'queued'
"""

START = """
-- KEYS: game hash, lease counter, heartbeat, live index, jobs stream, dead stream
-- ARGV: game id, consumer, heartbeat ms, message id, group, '1' if a takeover
local function drop()
  redis.call('XACK', KEYS[5], ARGV[5], ARGV[4])
  redis.call('XDEL', KEYS[5], ARGV[4])
end
local state = redis.call('HGET', KEYS[1], 'state')
if (state ~= 'queued' and state ~= 'running')
    or redis.call('HGET', KEYS[1], 'message') ~= ARGV[4] then
  drop()
  return {'stale'}
end
if redis.call('EXISTS', KEYS[3]) == 1 then return {'busy'} end
if ARGV[6] == '1' then
  redis.call('XCLAIM', KEYS[5], ARGV[5], ARGV[2], 0, ARGV[4], 'JUSTID')
end
local job = redis.call('HGET', KEYS[1], 'job')
local limit = tonumber(redis.call('HGET', KEYS[1], 'max_attempts'))
local attempts = redis.call('HINCRBY', KEYS[1], 'attempts', 1)
if attempts > limit then
  local err = redis.call('HGET', KEYS[1], 'error')
  if not err or err == '' then err = 'worker lost ' .. (attempts - 1) .. ' times' end
  redis.call('HSET', KEYS[1], 'state', 'failed', 'error', err, 'attempts', limit)
  redis.call('XADD', KEYS[6], '*', 'game_id', ARGV[1], 'error', err, 'attempts', limit,
    'job', job)
  redis.call('ZREM', KEYS[4], ARGV[1])
  drop()
  return {'dead'}
end
local now = redis.call('TIME')
if redis.call('EXISTS', KEYS[2]) == 0 then
  -- no counter (a new game, or a server that lost its data): start from the clock, so a
  -- token can never repeat one handed out before the loss
  redis.call('SET', KEYS[2], now[1] .. string.format('%06d', now[2]))
end
local token = redis.call('INCR', KEYS[2])
redis.call('SET', KEYS[3], token, 'PX', ARGV[3])
redis.call('HSET', KEYS[1], 'state', 'running', 'consumer', ARGV[2])
redis.call('ZADD', KEYS[4], 'NX', now[1] .. '.' .. string.format('%06d', now[2]), ARGV[1])
return {'ok', token, attempts, job}
"""

HEARTBEAT = """
-- KEYS: lease counter, heartbeat, jobs stream
-- ARGV: token, heartbeat ms, group, consumer, message id
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('SET', KEYS[2], ARGV[1], 'PX', ARGV[2])
redis.call('XCLAIM', KEYS[3], ARGV[3], ARGV[4], 0, ARGV[5], 'JUSTID')
return 1
"""

APPEND = """
-- KEYS: lease counter, log list, live stream
-- ARGV: token, start position, lines...
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return -1 end
local n = redis.call('LLEN', KEYS[2])
if n ~= tonumber(ARGV[2]) then return -2 end
for i = 3, #ARGV do
  redis.call('RPUSH', KEYS[2], ARGV[i])
  redis.call('XADD', KEYS[3], '*', 'seq', n + i - 3, 'line', ARGV[i], 'lease', ARGV[1])
end
return n + #ARGV - 2
"""

COMPLETE = """
-- KEYS: game hash, lease counter, heartbeat, log list, live stream, live index,
--       jobs stream, tournament spend hash, replay string
-- ARGV: token, game id, group, message id, final state, result json, final line,
--       ('' for a game never started), live stream ttl s, packed replay ('' for none),
--       then (agent, tokens, usd, games, voided) quintuples
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return 0 end
if ARGV[7] ~= '' then
  local n = redis.call('LLEN', KEYS[4])
  redis.call('XADD', KEYS[5], '*', 'seq', n, 'line', ARGV[7], 'lease', ARGV[1])
  redis.call('EXPIRE', KEYS[5], ARGV[8])
end
redis.call('HSET', KEYS[1], 'state', ARGV[5], 'result', ARGV[6], 'error', '')
redis.call('INCR', KEYS[2])
redis.call('DEL', KEYS[3], KEYS[4])
redis.call('ZREM', KEYS[6], ARGV[2])
redis.call('XACK', KEYS[7], ARGV[3], ARGV[4])
redis.call('XDEL', KEYS[7], ARGV[4])
if ARGV[9] ~= '' then redis.call('SET', KEYS[9], ARGV[9]) end
for i = 10, #ARGV, 5 do
  redis.call('HINCRBY', KEYS[8], ARGV[i] .. ':tokens', ARGV[i + 1])
  redis.call('HINCRBYFLOAT', KEYS[8], ARGV[i] .. ':usd', ARGV[i + 2])
  redis.call('HINCRBY', KEYS[8], ARGV[i] .. ':games', ARGV[i + 3])
  redis.call('HINCRBY', KEYS[8], ARGV[i] .. ':voided', ARGV[i + 4])
end
return 1
"""

FAIL = """
-- KEYS: game hash, lease counter, heartbeat, jobs stream, dead stream, live index
-- ARGV: token, game id, group, message id, error
if redis.call('GET', KEYS[2]) ~= ARGV[1] then return -1 end
redis.call('INCR', KEYS[2])
redis.call('DEL', KEYS[3])
redis.call('ZREM', KEYS[6], ARGV[2])
redis.call('XACK', KEYS[4], ARGV[3], ARGV[4])
redis.call('XDEL', KEYS[4], ARGV[4])
local attempts = tonumber(redis.call('HGET', KEYS[1], 'attempts'))
if attempts >= tonumber(redis.call('HGET', KEYS[1], 'max_attempts')) then
  redis.call('HSET', KEYS[1], 'state', 'failed', 'error', ARGV[5])
  redis.call('XADD', KEYS[5], '*', 'game_id', ARGV[2], 'error', ARGV[5],
    'attempts', attempts, 'job', redis.call('HGET', KEYS[1], 'job'))
  return 1
end
local id = redis.call('XADD', KEYS[4], '*', 'game_id', ARGV[2])
redis.call('HSET', KEYS[1], 'state', 'queued', 'error', ARGV[5], 'message', id)
return 0
"""

ABANDON = """
-- KEYS: lease counter, heartbeat, jobs stream
-- ARGV: token, group, consumer, message id, idle ms to set
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[2])
redis.call('XCLAIM', KEYS[3], ARGV[2], ARGV[3], 0, ARGV[4], 'IDLE', ARGV[5], 'JUSTID')
return 1
"""

FORGET = """
-- KEYS: game hash, lease counter, heartbeat, log list, live stream, replay string,
--       tournament set, live index, tournament spend hash
-- ARGV: game id
-- Only a finished game ('done' or 'skipped') is forgotten, or one the server no longer
-- knows (its hash lost with the server's data: what is left of it, such as the replay a
-- worker gave back after the loss, goes too; the caller holds its finished replay). A
-- queued or running game stays. The tournament's spend goes with its last game.
-- Returns 1 if anything of the game was there to delete.
local state = redis.call('HGET', KEYS[1], 'state')
if state and state ~= 'done' and state ~= 'skipped' then return 0 end
local gone = redis.call('DEL', KEYS[1], KEYS[2], KEYS[3], KEYS[4], KEYS[5], KEYS[6])
gone = gone + redis.call('SREM', KEYS[7], ARGV[1]) + redis.call('ZREM', KEYS[8], ARGV[1])
if redis.call('SCARD', KEYS[7]) == 0 then redis.call('DEL', KEYS[9]) end
if gone > 0 then return 1 end
return 0
"""

TRY_SLOT = """
-- KEYS: endpoint slots sorted set (member: holder, score: expiry ms)
-- ARGV: limit, holder, ttl ms
local t = redis.call('TIME')
local now = t[1] * 1000 + math.floor(t[2] / 1000)
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
if redis.call('ZSCORE', KEYS[1], ARGV[2]) or redis.call('ZCARD', KEYS[1]) < tonumber(ARGV[1]) then
  redis.call('ZADD', KEYS[1], now + tonumber(ARGV[3]), ARGV[2])
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
  return 1
end
return 0
"""
