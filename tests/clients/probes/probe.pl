# Perl's HTTP::Tiny and LWP::UserAgent, timed in-process after a warm-up
# request:
#   perl probe.pl http-tiny|lwp HOST WARMPORT PORT
# prints one JSON line for tests/clients/harness.py. Neither has a connect
# hook, so the whole GET is timed: the harness's server answers at once
# (well under a millisecond on loopback), so the connect is nearly all of it.
use strict;
use warnings;
use HTTP::Tiny;
use JSON::PP;
use Time::HiRes qw(clock_gettime CLOCK_MONOTONIC);

my $LIMIT_S = 60;
my ($mode, $host, $warm, $port) = @ARGV;
if (@ARGV != 4 || ($mode ne 'http-tiny' && $mode ne 'lwp')) {
    print STDERR "usage: perl probe.pl http-tiny|lwp HOST WARMPORT PORT\n";
    exit 2;
}

sub get {
    my ($p) = @_;
    my $url = "http://$host:$p/";
    my $start = clock_gettime(CLOCK_MONOTONIC);
    my ($ok, $error);
    if ($mode eq 'http-tiny') {
        my $r = HTTP::Tiny->new(timeout => $LIMIT_S)->get($url);
        # 599: HTTP::Tiny's own failure (the connect), content says why.
        $ok = $r->{status} != 599;
        $error = $ok ? undef : $r->{content};
    } else {
        require LWP::UserAgent;
        my $r = LWP::UserAgent->new(timeout => $LIMIT_S)->get($url);
        # A failed connect is a 500 made by LWP itself (Client-Warning: Internal response).
        my $internal = ($r->header('Client-Warning') // '') eq 'Internal response';
        $ok = !($internal && $r->code == 500);
        $error = $ok ? undef : $r->status_line;
    }
    my $ms = (clock_gettime(CLOCK_MONOTONIC) - $start) * 1000;
    chomp $error if defined $error;
    return { connected => $ok ? JSON::PP::true : JSON::PP::false, ms => $ms, error => $error };
}

get($warm);
my $r = get($port);
$r->{version} = sprintf('%vd', $^V);
if ($mode eq 'http-tiny') {
    $r->{library} = "HTTP::Tiny $HTTP::Tiny::VERSION";
} else {
    $r->{library} = "LWP::UserAgent $LWP::UserAgent::VERSION";
}
print encode_json($r), "\n";
