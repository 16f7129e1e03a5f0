# shellcheck shell=bash
# netns lab: installs what tests/netns needs and probes once whether this machine can host the lab.
#
# Sourced by .ci/run. Sets lab_unavailable: empty when the lab runs here,
# else lab.sh's reason; then the netns and clients tests skip with it, and
# clients_start (clients.sh) makes no client roots.

# What the lab's tests need (tests/netns,
# docs/hacking.md#the-network-namespace-lab-testsnetns), installed before the
# README's test command runs them inside CTest. Without these (or without
# root) those tests skip with the reason instead. ccache (the driver's
# launcher) comes with them.
lab_install_and_probe() {
    local lab_probe
    # cmark-gfm: the e2e tests render hostile names through every command's
    # Markdown with it (they say so and skip that check where it is missing).
    $S apt-get update && $S apt-get install -y nftables iproute2 util-linux mount python3 ccache cmark-gfm
    # Can this machine host the lab at all? A sandbox without network or mount
    # namespaces, IPv6 or nf_tables makes lab.sh skip with "(this machine cannot
    # host the lab)": then the netns and clients tests skip with that reason, and
    # the client roots are not made. Any other skip fails the run
    # (clients_wait).
    lab_unavailable=
    lab_probe=$(tests/netns/lab.sh --hosts-v6-first --drop-rst-conn 9:1 --drop-syn 10 -- true 2>&1) ||
        lab_unavailable=$(grep -m 1 'skipped (this machine' <<<"$lab_probe" | sed 's/.*cannot host the lab): //') ||
        { echo "$lab_probe"; echo "the netns lab failed its probe (above)" >&2; exit 1; }
    echo "netns lab: ${lab_unavailable:+this machine cannot host it: }${lab_unavailable:-this machine can host it}"
}
