#!/usr/bin/env bash
# The netns lab: runs one command inside a fresh network namespace whose
# loopback reproduces, on real packets, what makes loopback connects slow on
# Windows. Linux refuses a closed port at once, but when the first RSTs are
# lost it resends the SYN (1 s apart while net.ipv4.tcp_syn_linear_timeouts
# lasts, Linux 6.7+; doubling from 1 s on older kernels), so dropping the
# first K RSTs turns a refusal into a K-retransmission stall that TCP_INFO
# counts. See docs/hacking.md#the-network-namespace-lab-testsnetns.
#
# usage: lab.sh [--drop-rst PORT:K]... [--drop-rst-conn PORT:K]...
#               [--drop-syn PORT]... [--hosts-v6-first | --gai-v4-first]
#               [--root DIR]... [--time-limit SECONDS] -- CMD [ARGS...]
#
# Exits with CMD's exit code (124 when it ran past --time-limit), 2 on a usage
# error, and 77 with a one-line reason when this machine cannot host the lab
# (not root, a tool missing, no netns or nf_tables support), so that CTest
# reports the test as skipped. The namespace is deleted on every exit path
# except SIGKILL; a later run removes namespaces left behind by dead runs.
set -euo pipefail

readonly prefix=lclab
self=$(readlink -f "${BASH_SOURCE[0]}")
readonly self

# --- Inside the mount namespace (lab.sh calls itself here): put the hosts
# file (and gai.conf) in place, here and in every --root, check that the
# resolver gives the order asked for, then become CMD. ----------------------
if [[ ${1-} == __with-files ]]; then
    hosts_file=$2 gai_file=$3 want=$4
    shift 4
    roots=()
    while [[ $1 != -- ]]; do
        roots+=("$1")
        shift
    done
    shift # --
    # Private propagation (unshare --propagation private) keeps these bind
    # mounts out of the host's and the network namespace's mount tables.
    for root in "" "${roots[@]}"; do
        if ! mount --bind "$hosts_file" "$root/etc/hosts"; then
            echo "lab.sh: skipped (this machine cannot host the lab): cannot bind-mount a hosts file over $root/etc/hosts" >&2
            exit 77
        fi
        if [[ $gai_file != - ]]; then
            # A bind mount needs a file to cover. An absent gai.conf means
            # glibc's built-in table, so an empty one changes nothing: made
            # in a chroot (the caller's own), never in this machine's /etc.
            if [[ ! -e $root/etc/gai.conf ]]; then
                if [[ -z $root ]]; then
                    echo "lab.sh: skipped: no /etc/gai.conf to bind-mount over (libc-bin installs one)" >&2
                    exit 77
                fi
                : >"$root/etc/gai.conf"
            fi
            if ! mount --bind "$gai_file" "$root/etc/gai.conf"; then
                echo "lab.sh: skipped (this machine cannot host the lab): cannot bind-mount a gai.conf over $root/etc/gai.conf" >&2
                exit 77
            fi
        fi
    done
    # glibc's getaddrinfo sorts by RFC 6724 (gai.conf): ::1 has precedence
    # 50 and 127.0.0.1 (as ::ffff:127.0.0.1) 35, so ::1 comes first as soon
    # as the hosts file lists it at all, whichever line is first; only a
    # gai.conf can put 127.0.0.1 first. Check what the resolver really
    # returns, in every root too (its own glibc), rather than trust the files.
    for root in "" "${roots[@]}"; do
        run=(getent)
        [[ -z $root ]] || run=(chroot "$root" getent)
        order=$(timeout 5 "${run[@]}" ahosts localhost | awk '$2 == "STREAM" { printf "%s ", $1 }')
        if [[ $order != "$want " ]]; then
            echo "lab.sh: skipped: getaddrinfo${root:+ in $root} gives localhost as '${order% }', not '$want'" >&2
            exit 77
        fi
    done
    exec "$@"
fi

usage() {
    cat <<'EOF'
usage: lab.sh [options] -- CMD [ARGS...]
Runs CMD as root in a new network namespace with only loopback, up.
  --drop-rst PORT:K    drop the first K RSTs sent from TCP port PORT (IPv4 and
                       IPv6 together): a refusal there takes K SYN retries
  --drop-rst-conn PORT:K  drop the first K RSTs of every connection from
                       TCP port PORT: every refusal there takes K SYN retries
  --drop-syn PORT      drop every SYN to TCP port PORT: connects time out
  --hosts-v6-first     CMD sees a hosts file with ::1 before 127.0.0.1 for
                       localhost (a private mount namespace), as on Windows
  --gai-v4-first       CMD sees localhost as 127.0.0.1, then ::1: the hosts
                       file lists both and a gai.conf ranks ::ffff:0:0/96
                       above ::1 (the hosts file alone cannot: glibc sorts)
  --root DIR           the same hosts file and gai.conf inside the chroot
                       DIR (for clients run with chroot DIR); repeatable
  --time-limit SECS    stop CMD after this long (default 120); exit 124
CMD sees LOOPCHECK_LAB_NS (the namespace's name). Exit 77: cannot run here.
EOF
}

skip() {
    echo "lab.sh: skipped: $*" >&2
    exit 77
}

# A limit of the machine (its sandbox, its kernel), not a fault of the lab:
# .ci/run accepts these skips and fails on the others (a tool its set-up
# should have installed, a resolver that does not give the order asked for).
skip_machine() {
    echo "lab.sh: skipped (this machine cannot host the lab): $*" >&2
    exit 77
}

bad_usage() {
    echo "lab.sh: $*" >&2
    usage >&2
    exit 2
}

valid_port() {
    [[ $1 =~ ^[0-9]{1,5}$ ]] && ((10#$1 >= 1 && 10#$1 <= 65535))
}

drop_rst=() # "PORT K" pairs
drop_rst_conn=() # "PORT K" pairs, one bucket per connection
drop_syn=()
hosts_v6_first=0
gai_v4_first=0
roots=()
time_limit=120
while (($#)); do
    case $1 in
    --drop-rst)
        (($# >= 2)) || bad_usage "--drop-rst needs PORT:K"
        port=${2%%:*} k=${2#*:}
        if ! valid_port "$port" || ! [[ $k =~ ^[0-9]{1,4}$ ]] || ((10#$k < 1)); then
            bad_usage "--drop-rst: '$2' is not PORT:K (K at least 1)"
        fi
        drop_rst+=("$((10#$port)) $((10#$k))")
        shift 2
        ;;
    --drop-rst-conn)
        (($# >= 2)) || bad_usage "--drop-rst-conn needs PORT:K"
        port=${2%%:*} k=${2#*:}
        if ! valid_port "$port" || ! [[ $k =~ ^[0-9]{1,4}$ ]] || ((10#$k < 1)); then
            bad_usage "--drop-rst-conn: '$2' is not PORT:K (K at least 1)"
        fi
        drop_rst_conn+=("$((10#$port)) $((10#$k))")
        shift 2
        ;;
    --drop-syn)
        if (($# < 2)) || ! valid_port "$2"; then
            bad_usage "--drop-syn needs a port"
        fi
        drop_syn+=("$((10#$2))")
        shift 2
        ;;
    --hosts-v6-first)
        hosts_v6_first=1
        shift
        ;;
    --gai-v4-first)
        gai_v4_first=1
        shift
        ;;
    --root)
        (($# >= 2)) || bad_usage "--root needs a directory"
        [[ -d $2/etc ]] || bad_usage "--root: '$2' is not a root directory (no etc/)"
        roots+=("$(readlink -f "$2")")
        shift 2
        ;;
    --time-limit)
        if (($# < 2)) || ! [[ $2 =~ ^[0-9]{1,6}$ ]] || ((10#$2 < 1)); then
            bad_usage "--time-limit needs whole seconds"
        fi
        time_limit=$((10#$2))
        shift 2
        ;;
    -h | --help)
        usage
        exit 0
        ;;
    --)
        shift
        break
        ;;
    *) bad_usage "unknown option '$1'" ;;
    esac
done
(($#)) || bad_usage "no command after --"
((hosts_v6_first + gai_v4_first < 2)) || bad_usage "--hosts-v6-first and --gai-v4-first exclude each other"
with_files=$((hosts_v6_first + gai_v4_first))

# --- What this machine must allow. ----------------------------------------
(($(id -u) == 0)) || skip_machine "needs root to create a network namespace (uid $(id -u))"
needed=(ip timeout)
((${#drop_rst[@]} + ${#drop_rst_conn[@]} + ${#drop_syn[@]} == 0)) || needed+=(nft)
((with_files == 0)) || needed+=(unshare mount getent awk)
((${#roots[@]} == 0)) || needed+=(chroot)
for tool in "${needed[@]}"; do
    command -v "$tool" >/dev/null || skip "'$tool' is not installed"
done

# Every set-up and clean-up command is bounded too: none should take more
# than a moment, and a hung one must not hold a test until CTest kills it.
bounded() { timeout 10 "$@"; }

ns="" # set once the namespace exists, for cleanup
tmpdir=""
child=""

# shellcheck disable=SC2317 # runs from the EXIT trap
cleanup() {
    local rc=$?
    trap - EXIT
    if [[ -n $child ]] && kill -0 "$child" 2>/dev/null; then
        kill -TERM "$child" 2>/dev/null || true
    fi
    if [[ -n $ns ]]; then
        # Whatever CMD left running in the namespace (a listener it started
        # in the background) would keep the namespace alive after delete.
        local pids attempt
        for attempt in 1 2 3 4 5 6 7 8 9 10; do
            pids=$(bounded ip netns pids "$ns" 2>/dev/null || true)
            [[ -n $pids ]] || break
            local sig=TERM
            ((attempt < 10)) || sig=KILL
            # shellcheck disable=SC2086 # one pid per word
            kill -"$sig" $pids 2>/dev/null || true
            sleep 0.2
        done
        bounded ip netns delete "$ns" 2>/dev/null || echo "lab.sh: warning: could not delete netns $ns" >&2
    fi
    [[ -z $tmpdir ]] || rm -rf "$tmpdir"
    exit "$rc"
}
trap cleanup EXIT
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM

# A run killed with SIGKILL (a CTest timeout) cannot clean up; remove the
# namespaces of lab runs whose process is gone. Names carry the owner's pid.
for stale in $(bounded ip netns list 2>/dev/null | awk '{print $1}' | grep "^$prefix-[0-9]*-" || true); do
    owner=${stale#"$prefix"-}
    owner=${owner%%-*}
    if ! kill -0 "$owner" 2>/dev/null && [[ -z $(bounded ip netns pids "$stale" 2>/dev/null) ]]; then
        bounded ip netns delete "$stale" 2>/dev/null || true
    fi
done

name="$prefix-$$-$RANDOM"
bounded ip netns add "$name" 2>/dev/null || skip_machine "cannot create a network namespace ('ip netns add' failed)"
ns=$name
bounded ip -n "$ns" link set lo up || skip_machine "cannot bring up lo in the new namespace"

if ((with_files)); then
    # The kernel adds ::1 to lo when lo comes up, unless IPv6 is off.
    [[ -n $(bounded ip -n "$ns" -6 addr show dev lo 2>/dev/null) ]] ||
        skip_machine "IPv6 is disabled: no ::1 on lo"
    # The hosts file and gai.conf are bind-mounted in a private mount
    # namespace; a sandbox may refuse to make one.
    bounded unshare --mount --propagation private true 2>/dev/null ||
        skip_machine "cannot make a mount namespace ('unshare --mount' failed)"
fi

if ((${#drop_rst[@]} + ${#drop_rst_conn[@]} + ${#drop_syn[@]})); then
    # The rules sit on the input hook: a packet dropped there is simply lost,
    # as on a wire. On the output hook the sender's ip_local_out() would get
    # EPERM back (a local error), which is not the situation being modelled.
    # A table of family inet covers IPv4 and IPv6 with one rule.
    rules=""
    for pair in "${drop_rst[@]}"; do
        read -r port k <<<"$pair"
        # 'limit' is a token bucket that starts full with 'burst' tokens: it
        # matches exactly the first K packets and then one more per hour, so
        # in any lab run under an hour the first K RSTs are dropped and every
        # later one passes (checked with a counter on this rule for K = 1, 2,
        # 3 with nftables 1.0.6 on Linux 6.18). The bucket belongs to the
        # rule, so ::1 and 127.0.0.1 on PORT share the K drops.
        rules+="    tcp sport $port tcp flags & rst == rst limit rate 1/hour burst $k packets drop"$'\n'
    done
    for pair in "${drop_rst_conn[@]}"; do
        read -r port k <<<"$pair"
        # The same token bucket, but one per connection: an element of a
        # dynamic set keyed by the RST's destination (the client's address
        # and port) and source port. Every connect to PORT, each retry of a
        # client included, is refused only at its K-th retransmission, as
        # every refused loopback connect is slow on Windows.
        rules+="    tcp sport $port tcp flags & rst == rst update @conn4 { ip daddr . tcp dport . tcp sport limit rate 1/hour burst $k packets } drop"$'\n'
        rules+="    tcp sport $port tcp flags & rst == rst update @conn6 { ip6 daddr . tcp dport . tcp sport limit rate 1/hour burst $k packets } drop"$'\n'
    done
    for port in "${drop_syn[@]}"; do
        # A SYN without ACK: connection attempts, not replies.
        rules+="    tcp dport $port tcp flags & (syn | ack) == syn drop"$'\n'
    done
    ruleset="table inet loopcheck_lab {
  set conn4 { type ipv4_addr . inet_service . inet_service; flags dynamic; timeout 1h; }
  set conn6 { type ipv6_addr . inet_service . inet_service; flags dynamic; timeout 1h; }
  chain input {
    type filter hook input priority filter; policy accept;
$rules  }
}"
    if ! errors=$(bounded ip netns exec "$ns" nft -f - <<<"$ruleset" 2>&1); then
        skip_machine "nftables rejected the lab rules: $(head -n 1 <<<"$errors")"
    fi
fi

inner=("$@")
if ((with_files)); then
    tmpdir=$(mktemp -d)
    gai=-
    if ((hosts_v6_first)); then
        # Windows orders localhost ::1 first (prefix policy); this file makes
        # glibc do the same (see the check in __with-files above).
        want="::1 127.0.0.1"
        printf '%s\n' "# loopcheck netns lab: localhost is ::1 first, as on Windows" \
            "::1 localhost ip6-localhost ip6-loopback" "127.0.0.1 localhost" >"$tmpdir/hosts"
    else
        want="127.0.0.1 ::1"
        printf '%s\n' "# loopcheck netns lab: localhost is 127.0.0.1 first (see gai.conf)" \
            "127.0.0.1 localhost" "::1 localhost ip6-localhost ip6-loopback" >"$tmpdir/hosts"
        # RFC 6724's default table with IPv4-mapped addresses (precedence 35
        # by default) raised above ::1 (50). A gai.conf with any precedence
        # line replaces glibc's whole table, so every default line is here.
        gai=$tmpdir/gai.conf
        printf '%s\n' "# loopcheck netns lab: IPv4 before ::1" \
            "precedence ::1/128       50" "precedence ::/0          40" \
            "precedence 2002::/16     30" "precedence ::/96         20" \
            "precedence ::ffff:0:0/96 100" >"$gai"
        chmod 644 "$gai"
    fi
    chmod 644 "$tmpdir/hosts"
    inner=(unshare --mount --propagation private -- "$self" __with-files "$tmpdir/hosts" "$gai" "$want"
        "${roots[@]}" -- "$@")
fi

# In the background so a signal to this script is handled at once; the
# saved stdin keeps CMD interactive (a background job's stdin would be
# /dev/null otherwise).
exec 3<&0
LOOPCHECK_LAB_NS=$ns timeout --kill-after=5 "$time_limit" \
    ip netns exec "$ns" "${inner[@]}" <&3 3<&- &
child=$!
rc=0
wait "$child" || rc=$?
child=""
((rc != 124)) || echo "lab.sh: '$1' ran past --time-limit ${time_limit}s" >&2
exit "$rc"
