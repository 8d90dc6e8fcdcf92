-- wrk script for bench/redirect.sh: GET /d/{code} with a phone's user
-- agent, each request a code drawn at random from the short codes in
-- $BENCH_CODES (or, with BENCH_PREFIX=/, from the paths there: GS1 Digital
-- Links); prints the figures the script parses. At random, as printed codes
-- are scanned: taken in turn, a batch of scans fell on neighbouring codes,
-- whose index entries share pages, and the recorder wrote far fewer pages
-- than real scans make it write (BENCHMARKS.md, Redirects).
local codes = {}
for line in io.lines(os.getenv("BENCH_CODES")) do
  codes[#codes + 1] = line
end

local ua = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 " ..
  "(KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1"
local prefix = os.getenv("BENCH_PREFIX") or "/d/"
-- BENCH_FORWARDED: each scan from an address of 1.1.1.0/24 (through the
-- trusted proxy's X-Forwarded-For), which the bench's city database places,
-- so a rule on a region or city looks the place up as for a real phone.
local forwarded = os.getenv("BENCH_FORWARDED")
local i = 0

function init(args)
  -- Each thread draws its own sequence.
  math.randomseed(os.time() + math.floor(os.clock() * 1e6))
end

function request()
  i = math.random(#codes)
  local headers = { ["User-Agent"] = ua }
  if forwarded then
    headers["X-Forwarded-For"] = "1.1.1." .. (i % 254 + 1)
  end
  return wrk.format("GET", prefix .. codes[i], headers)
end

function done(summary, latency, requests)
  local e = summary.errors
  io.write(string.format("bench: requests=%d\n", summary.requests))
  io.write(string.format("bench: rate=%.0f\n", summary.requests / (summary.duration / 1e6)))
  io.write(string.format("bench: p99_us=%d\n", latency:percentile(99)))
  io.write(string.format("bench: p50_us=%d\n", latency:percentile(50)))
  io.write(string.format("bench: bad_status=%d\n", e.status))
  io.write(string.format("bench: socket_errors=%d\n", e.connect + e.read + e.write + e.timeout))
end
