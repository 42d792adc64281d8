-- wrk's side of bench/load-wrk.ts: sends the prepared requests of one file (NUL-separated raw HTTP/1.1
-- requests), in order, one per call. Past the last it starts again and counts the wrap, so the bench
-- knows whether any request went twice. init and request run in the thread's state, setup and done in
-- the main one, which reads the thread's globals through thread:get.
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

local requests, next_index = {}, 0
prepared, wrapped = 0, 0

function init(args)
  local file = assert(io.open(args[1], "rb"))
  local data = file:read("*a")
  file:close()
  local from = 1
  while true do
    local nul = string.find(data, "\0", from, true)
    if not nul then break end
    prepared = prepared + 1
    requests[prepared] = string.sub(data, from, nul - 1)
    from = nul + 1
  end
end

function request()
  next_index = next_index + 1
  if next_index > prepared then
    next_index = 1
    wrapped = wrapped + 1
  end
  return requests[next_index]
end

function done(summary, latency)
  local e = summary.errors
  local wraps = 0
  for _, thread in ipairs(threads) do wraps = wraps + thread:get("wrapped") end
  io.write(string.format(
    'WRK_RESULT {"requests":%d,"duration_us":%d,"status_errors":%d,"socket_errors":%d,"p50_us":%d,"p99_us":%d,"wrapped":%d}\n',
    summary.requests, summary.duration, e.status, e.connect + e.read + e.write + e.timeout,
    latency:percentile(50), latency:percentile(99), wraps))
end
