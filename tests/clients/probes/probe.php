<?php
// PHP's file_get_contents on an http:// URL, timed in-process after a
// warm-up request:
//   php probe.php HOST WARMPORT PORT
// prints one JSON line for tests/clients/harness.py. The stream wrapper has
// no connect hook, so the whole call is timed: the harness's server answers
// at once, so the connect is nearly all of it.
const LIMIT_S = 60;

if ($argc !== 4) {
    fwrite(STDERR, "usage: php probe.php HOST WARMPORT PORT\n");
    exit(2);
}
[, $host, $warm, $port] = $argv;

function get(string $host, string $port): array {
    $ctx = stream_context_create(['http' => ['timeout' => LIMIT_S, 'ignore_errors' => true]]);
    $start = hrtime(true);
    $body = @file_get_contents("http://$host:$port/", false, $ctx);
    $ms = (hrtime(true) - $start) / 1e6;
    if ($body === false) {
        $e = error_get_last();
        return ['connected' => false, 'ms' => $ms, 'error' => $e ? $e['message'] : 'failed'];
    }
    return ['connected' => true, 'ms' => $ms];
}

get($host, $warm);
$r = get($host, $port);
$r['version'] = PHP_VERSION;
echo json_encode($r), "\n";
