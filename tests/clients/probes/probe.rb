# Ruby's Net::HTTP, timed in-process after a warm-up connect:
#   ruby probe.rb HOST WARMPORT PORT
# prints one JSON line for tests/clients/harness.py. The time runs from
# Net::HTTP#start (which opens the TCP connection, TCPSocket.open) to its
# return or its error; no request is sent.
require 'json'
require 'net/http'

LIMIT_S = 60

def clock
  Process.clock_gettime(Process::CLOCK_MONOTONIC)
end

def connect(host, port)
  http = Net::HTTP.new(host, port)
  http.open_timeout = LIMIT_S
  start = clock
  begin
    http.start
    ms = (clock - start) * 1000
    peer = http.instance_variable_get(:@socket)&.io&.remote_address&.ip_address
    http.finish
    { connected: true, ms: ms, peer: peer }
  rescue StandardError => e
    { connected: false, ms: (clock - start) * 1000, error: "#{e.class}: #{e.message}" }
  end
end

if ARGV.size != 3
  warn 'usage: ruby probe.rb HOST WARMPORT PORT'
  exit 2
end
host, warm, port = ARGV[0], ARGV[1].to_i, ARGV[2].to_i
connect(host, warm)
r = connect(host, port)
r[:version] = RUBY_VERSION
puts JSON.generate(r)
