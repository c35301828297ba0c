#!/usr/bin/env bash
# The table's service under its unit's real sandbox: a Debian Bookworm root (amd64, debootstrap)
# with the table installed by deploy/install.sh, booted with systemd as its PID 1 in a container
# (systemd-nspawn -b), so that systemd itself applies deploy/zebra-table.service and the network
# drop-in the installer writes from the config: PrivateNetwork=, RestrictAddressFamilies=
# (seccomp), IPAddressAllow=/IPAddressDeny= (BPF on the unit's cgroup). The table runs the
# simulated hardware (reader.port = "sim"); a Mosquitto broker in the container listens on every
# address of its private network (127.0.0.1, and 10.99.0.1 and 10.99.0.2 added to its loopback).
# For each config, the installer rewrites the drop-in and restarts the service (systemd runs:
# the real activation), then:
#   - [web] and [venue] off: the service's own processes cannot open an IPv4/IPv6 socket at all
#     (a probe run as ExecStartPost=, inside the unit's sandbox), no pages, no broker client;
#   - [web] on 127.0.0.1 and [venue] at 10.99.0.1: the pages answer on 127.0.0.1:8080, the broker
#     sees the table connect from 10.99.0.1, and the probe reaches 10.99.0.1 and loopback but not
#     10.99.0.2 (IPAddressDeny=any);
#   - [web] on 0.0.0.0 and [venue] by name (broker.test, in /etc/hosts): any address (the
#     drop-in says why), the pages answer on 10.99.0.1:8080, the probe reaches 10.99.0.2;
#   - [remote] alone at 10.99.0.1: the probe reaches it, not 10.99.0.2 nor loopback (its link
#     connects only during a game with another table: not played here).
# The owner's token is in no log line of the service.
# Stand-ins: a container instead of a Raspberry Pi (its systemd 252 is Bookworm's, as on the Pi);
# the container's network is its loopback with two addresses added, not Wi-Fi; nspawn's own seccomp filter is off
# (SYSTEMD_SECCOMP=0) and the container keeps every capability, so that its systemd may load BPF
# programs as PID 1 on a Pi does. If systemd cannot enforce IPAddressDeny= here (no BPF), that part
# is reported as NOT PROVEN and the script fails.
# As root, with the network to Debian's archive and PyPI:
#   sudo deploy/ci/sandbox.sh [WORKDIR]    (a WORKDIR given keeps WORKDIR/base-amd64 for next time)
# in_root is one command (chroot): its status is that command's, checked where it is called
# shellcheck disable=SC2310
set -euo pipefail
# shellcheck disable=SC2034  # read by roots.sh
readonly ROOTS_NAME=sandbox ROOTS_WORK=${1:-}
# shellcheck source=deploy/ci/roots.sh disable=SC1091  # beside this script
. "$(dirname "${BASH_SOURCE[0]}")/roots.sh"
readonly TOKEN=owner-token-5e3c7a91b2d4f680

if ! command -v systemd-nspawn >/dev/null; then
    say "installing systemd-container (systemd-nspawn)"
    { apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends \
        systemd-container; } >/dev/null || fail "could not install systemd-container with apt-get"
fi

R=$WORK/table
new_root amd64 table
say "the root's packages (mosquitto: the broker) and deploy/install.sh (minutes)"
in_root "$R" apt-get update -q >/dev/null || fail "apt-get update in the root failed (network?)"
in_root "$R" apt-get install -y -q --no-install-recommends mosquitto >"$WORK/apt.log" 2>&1 \
    || { tail -n 20 "$WORK/apt.log" >&2; fail "apt-get install mosquitto in the root failed"; }
copy_source "$R"
in_root "$R" bash /root/src/deploy/install.sh >"$WORK/install.log" 2>&1 \
    || { tail -n 30 "$WORK/install.log" >&2; fail "deploy/install.sh failed"; }
for ((i = ${#MOUNTS[@]} - 1; i >= 0; i--)); do umount -l "${MOUNTS[$i]}"; done  # nspawn mounts its own
MOUNTS=()
rm -f "$R/usr/sbin/policy-rc.d"

# The broker: every address, anonymous, logging its clients.
printf 'listener 1883 0.0.0.0\nallow_anonymous true\nlog_type all\n' >"$R/etc/mosquitto/conf.d/everywhere.conf"
echo "10.99.0.1 broker.test" >>"$R/etc/hosts"
# The probe: runs inside the unit's sandbox (ExecStartPost= shares its cgroup, namespaces and
# seccomp filter) and says which addresses its process can reach.
mkdir -p "$R/usr/local/lib/zebra-table-probe"
cat >"$R/usr/local/lib/zebra-table-probe/probe.py" <<'PROBE'
import json, socket
result = {}
for host in ("127.0.0.1", "10.99.0.1", "10.99.0.2"):
    try:
        socket.create_connection((host, 1883), timeout=3).close()
        result[host] = "open"
    except OSError as exc:
        result[host] = type(exc).__name__ + ": " + (exc.strerror or str(exc))
with open("/var/lib/zebra-table/probe.json", "w") as f:
    json.dump(result, f)
PROBE
mkdir -p "$R/etc/systemd/system/zebra-table.service.d"
printf '# deploy/ci/sandbox.sh: a probe inside the unit'"'"'s sandbox\n[Service]\nExecStartPost=/opt/zebra-table/venv/bin/python /usr/local/lib/zebra-table-probe/probe.py\n' \
    >"$R/etc/systemd/system/zebra-table.service.d/zz-probe.conf"

# ---- the container -------------------------------------------------------------------------
say "booting $R with systemd (systemd-nspawn -b)"
# nspawn keeps its state under /run/systemd/nspawn, which must be a tmpfs: one of its own, in a
# mount namespace of its own (the mount point made first: a host where nspawn never ran has none);
# no machined here (--register=no), no scope (--keep-unit)
# shellcheck disable=SC2016  # $1 is the inner shell's
SYSTEMD_SECCOMP=0 SYSTEMD_NSPAWN_UNIFIED_HIERARCHY=1 setsid unshare --mount --propagation private sh -c \
    'mkdir -p /run/systemd/nspawn && mount -t tmpfs tmpfs /run/systemd/nspawn && exec systemd-nspawn -q -D "$1" --register=no --keep-unit --console=pipe --private-network --capability=all -b' \
    sh "$R" >"$WORK/nspawn.log" 2>&1 </dev/null &
NSPAWN=$!
stop_container() {
    if [ -n "${INIT:-}" ] && kill -0 "$INIT" 2>/dev/null; then
        nsenter -t "$INIT" -a systemctl poweroff >/dev/null 2>&1 || kill -TERM "$INIT" 2>/dev/null || true
    fi
    for _ in 1 2 3 4 5 6 7 8 9 10; do kill -0 "$NSPAWN" 2>/dev/null || break; sleep 1; done
    kill -KILL "$NSPAWN" 2>/dev/null || true
    cleanup
}
trap stop_container EXIT
INIT=""
state=""
for _ in $(seq 90); do
    # setsid, unshare and sh exec each other: the job is systemd-nspawn, its child the container's PID 1
    if [ "$(cat "/proc/$NSPAWN/comm" 2>/dev/null)" = systemd-nspawn ]; then INIT=$(pgrep -P "$NSPAWN" | head -n 1 || true); fi
    if [ -n "$INIT" ]; then state=$(nsenter -t "$INIT" -a systemctl is-system-running 2>/dev/null || true); fi
    case "$state" in running | degraded) break ;; *) sleep 1 ;; esac
done
case "$state" in
    running | degraded) ;;  # degraded: the service started at boot with the example config failed (no GPIO)
    *) cat "$WORK/nspawn.log" >&2; fail "the container did not boot (systemd: '${state:-no PID 1}')" ;;
esac
inside() { nsenter -t "$INIT" -a env -i PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$@"; }
# its network (private: --private-network): loopback, with two more addresses standing for the
# table's network (the host's `ip`, in the container's network namespace)
nsenter -t "$INIT" -n ip link set lo up
nsenter -t "$INIT" -n ip addr add 10.99.0.1/32 dev lo
nsenter -t "$INIT" -n ip addr add 10.99.0.2/32 dev lo
inside systemctl restart mosquitto.service || fail "the broker did not start"
passed "container booted (systemd $(inside systemctl --version | sed -n '1s/^systemd \([0-9]*\).*/\1/p') as PID 1), broker on 127.0.0.1, 10.99.0.1, 10.99.0.2"

# Can systemd enforce IPAddressDeny= here? Two units of its own try the broker, one denied.
for deny in reach-open: reach-denied:IPAddressDeny=any; do
    printf '[Service]\nType=oneshot\n%s\nExecStart=/opt/zebra-table/venv/bin/python -c "import socket; socket.create_connection((\x2710.99.0.2\x27, 1883), timeout=3)"\n' \
        "${deny#*:}" >"$R/etc/systemd/system/${deny%%:*}.service"
done
inside systemctl daemon-reload
inside systemctl start reach-open.service || fail "a unit without IPAddressDeny= cannot reach the broker at 10.99.0.2"
if inside systemctl start reach-denied.service 2>/dev/null; then
    fail "NOT PROVEN: systemd here does not enforce IPAddressDeny= (no BPF for its cgroups): the address limits cannot be shown"
fi
passed "systemd here enforces IPAddressDeny= (a unit with IPAddressDeny=any cannot reach the broker)"

# ---- the configs -----------------------------------------------------------------------------
SIM=$(inside /opt/zebra-table/venv/bin/python -c \
    'import firmware_host, pathlib; print(pathlib.Path(firmware_host.__file__).parent / "data/sim_table.toml")')
configure() {  # WEB-HOST|off VENUE-HOST|off [REMOTE-HOST]: the config, then the installer (drop-in, restart)
    local web=$1 venue=$2 remote=${3:-off} text
    text=$(inside cat "$SIM")
    if [ "$web" != off ]; then
        text=$(printf '%s\n' "$text" | sed -e "s/^enabled = false .*# \`zebra-table run\` serves them.*/enabled = true/" \
            -e "s/^host = \"127.0.0.1\" .*/host = \"$web\"/" -e "s/^token = \"\" .*/token = \"$TOKEN\"/")
        grep -qx "enabled = true" <<<"$text" || fail "the simulated table's [web] has changed: this script needs updating"
    fi
    text+=$'\n[paths]\ndata_dir = "/var/lib/zebra-table"\n'
    if [ "$venue" != off ]; then text+=$'\n[venue]\ntable = "t1"\nhost = "'"$venue"$'"\nport = 1883\n'; fi
    if [ "$remote" != off ]; then text+=$'\n[remote]\nhost = "'"$remote"$'"\nport = 1883\n'; fi
    printf '%s\n' "$text" >"$R/etc/zebra-table/table.toml"
    inside rm -f /var/lib/zebra-table/probe.json
    inside bash /root/src/deploy/install.sh >"$WORK/configure.log" 2>&1 \
        || { cat "$WORK/configure.log" >&2; fail "install.sh with web $web, venue $venue failed"; }
    if ! grep -q "service zebra-table (re)started" "$WORK/configure.log"; then
        # the drop-in did not change (a new config alone restarts nothing): restarted by hand
        grep -q "ok       unit drop-in /etc/systemd/system/zebra-table.service.d/network.conf" "$WORK/configure.log" \
            || { cat "$WORK/configure.log" >&2; fail "install.sh changed the drop-in but did not restart the service"; }
        inside systemctl restart zebra-table.service || true
    fi
    [ "$(inside systemctl is-active zebra-table.service)" = active ] || { inside journalctl -u zebra-table.service -n 30 --no-pager >&2; fail "the service is not active (web $web, venue $venue)"; }
    for _ in $(seq 20); do [ -s "$R/var/lib/zebra-table/probe.json" ] && break; sleep 0.5; done
    PROBE=$(cat "$R/var/lib/zebra-table/probe.json" 2>/dev/null) || fail "the probe inside the sandbox wrote nothing"
    say "web $web, venue $venue, remote $remote: $(grep -v '^#' "$R/etc/systemd/system/zebra-table.service.d/network.conf" | tr '\n' ' ')"
    say "  the probe inside the unit's sandbox: $PROBE"
}
probe_is() {  # HOST WANT(open|blocked|nofamily) WHAT
    local got
    got=$(inside /opt/zebra-table/venv/bin/python -c 'import json, sys; print(json.loads(sys.argv[1])[sys.argv[2]])' "$PROBE" "$1")
    case "$2:$got" in
        open:open | nofamily:*"Address family not supported"* | blocked:*"Operation not permitted"* | blocked:*"timed out"*) ;;
        *) fail "$3: the service's sandbox reached $1 as '$got', not $2" ;;
    esac
}
page() {  # URL: the HTTP status the pages answer with (an error if nothing answers)
    inside /opt/zebra-table/venv/bin/python -c 'import sys, urllib.request, urllib.error
try:
    print(urllib.request.urlopen(sys.argv[1], timeout=5).status)
except urllib.error.HTTPError as exc:
    print(exc.code)' "$1"
}
# the broker's log file (Debian's mosquitto.conf): one line per client connected
broker_clients() { grep -c "New client connected from $1:" "$R/var/log/mosquitto/mosquitto.log" || true; }

configure off off
for host in 127.0.0.1 10.99.0.1 10.99.0.2; do probe_is "$host" nofamily "web off, venue off"; done
! page http://127.0.0.1:8080/ >/dev/null 2>&1 || fail "web off: something answers on 127.0.0.1:8080"
passed "web and venue off: no IPv4/IPv6 socket inside the sandbox, no pages"

before=$(broker_clients 10.99.0.1)
configure 127.0.0.1 10.99.0.1
status=$(page http://127.0.0.1:8080/watch) || fail "web on 127.0.0.1: the pages do not answer"
[ "$status" = 200 ] || fail "web on 127.0.0.1: the spectators' page /watch answers $status"
for _ in $(seq 60); do [ "$(broker_clients 10.99.0.1)" -gt "$before" ] && break; sleep 0.5; done
[ "$(broker_clients 10.99.0.1)" -gt "$before" ] || fail "venue at 10.99.0.1: the broker saw no client from 10.99.0.1"
probe_is 10.99.0.1 open "web 127.0.0.1, venue 10.99.0.1"
probe_is 127.0.0.1 open "web 127.0.0.1, venue 10.99.0.1"
probe_is 10.99.0.2 blocked "web 127.0.0.1, venue 10.99.0.1"
passed "web on 127.0.0.1, venue at 10.99.0.1: the spectators' page answers (HTTP $status), the table connected to the broker, 10.99.0.2 is out of the sandbox's reach"

before=$(broker_clients 10.99.0.1)
configure 0.0.0.0 broker.test
status=$(page http://10.99.0.1:8080/watch) || fail "web on 0.0.0.0: the pages do not answer on 10.99.0.1"
[ "$status" = 200 ] || fail "web on 0.0.0.0: the spectators' page /watch answers $status"
for _ in $(seq 60); do [ "$(broker_clients 10.99.0.1)" -gt "$before" ] && break; sleep 0.5; done
[ "$(broker_clients 10.99.0.1)" -gt "$before" ] || fail "venue broker.test: the broker saw no client"
probe_is 10.99.0.2 open "web 0.0.0.0, venue broker.test"
grep -q "^# no IPAddressAllow=" "$R/etc/systemd/system/zebra-table.service.d/network.conf" \
    || fail "web 0.0.0.0: the drop-in does not say why any address is allowed"
passed "web on 0.0.0.0, venue by name: the spectators' page answers on 10.99.0.1 (HTTP $status), the table connected, any address (as the drop-in says)"

# remote play's broker: its link connects only for a game played with another table, so here
# only the sandbox is shown: that address and no other
configure off off 10.99.0.1
probe_is 10.99.0.1 open "remote play at 10.99.0.1"
probe_is 10.99.0.2 blocked "remote play at 10.99.0.1"
probe_is 127.0.0.1 blocked "remote play at 10.99.0.1"
passed "remote play's broker at 10.99.0.1 alone: the sandbox reaches it, and neither 10.99.0.2 nor loopback"

configure off off
probe_is 10.99.0.1 nofamily "web and venue off again"
passed "web and venue switched off again: no network for the service"

inside journalctl -u zebra-table.service --no-pager -o cat >"$WORK/service.log"
grep -q "web pages at" "$WORK/service.log" || fail "the service never logged where its pages are"
! grep -q "$TOKEN" "$WORK/service.log" || fail "the owner's token is in the service's log"
passed "the service's log says where the pages are, never the token"
echo "sandbox: $PASSED passed, 0 failed"
