#!/usr/bin/env bash
# A Kafka-protocol broker for tests and CI: librdkafka's mock cluster (inside kcat),
# pinned to a known port by pin-port.so so it can be killed (an outage) and started
# again at the same address. Usage: broker.sh start|stop|restart|status [port]
# start prints the bootstrap address (127.0.0.1:<port>) on stdout; messages go to stderr.
set -euo pipefail

cmd=${1:-}
port=${2:-19092}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
shim=$here/pin-port.so
state=${KAFKA_MOCK_STATE_DIR:-/tmp/cinetrace-kafka-$port}
pidfile=$state/kcat.pid
log=$state/broker.log

die() { echo "broker.sh: $*" >&2; exit 1; }
[[ $port =~ ^[0-9]+$ ]] || die "port must be a number, got '$port'"

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; }

# The pid file names our kcat only while that process lives and is still kcat.
running_pid() {
  [[ -f $pidfile ]] || return 1
  local pid
  pid=$(<"$pidfile")
  [[ $pid =~ ^[0-9]+$ ]] && [[ -r /proc/$pid/cmdline ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q kcat || return 1
  echo "$pid"
}

build_shim() {
  if [[ ! -f $shim || $here/pin-port.c -nt $shim ]]; then
    gcc -shared -fPIC -O2 -o "$shim.tmp" "$here/pin-port.c" -ldl && mv "$shim.tmp" "$shim"
  fi
}

start() {
  command -v kcat >/dev/null || die "kcat is not installed (apt-get install -y kcat)"
  local pid
  if pid=$(running_pid); then
    wait_until_open "$pid"
    echo "127.0.0.1:$port"
    return
  fi
  port_open && die "port $port is already taken by another process"
  build_shim
  mkdir -p "$state"
  # -d mock would log every request (an unbounded log); KAFKA_MOCK_DEBUG=1 turns it on.
  local debug=()
  [[ ${KAFKA_MOCK_DEBUG:-} == 1 ]] && debug=(-d mock)
  # setsid: the broker outlives this script and is not hit by signals sent to the
  # caller's process group; stdin from /dev/null so it never waits on a terminal.
  KAFKA_MOCK_PORT=$port LD_PRELOAD=$shim setsid kcat -b unused:9092 -X test.mock.num.brokers=1 \
    "${debug[@]}" -C -t keepalive </dev/null >>"$log" 2>&1 &
  echo $! >"$pidfile"
  wait_until_open $!
  echo "127.0.0.1:$port"
}

# Alive, not a zombie. Not "is kcat": right after the fork the child may not have exec'd
# kcat yet (on a loaded machine it may not even have been scheduled), which read as an exit.
alive() { [[ -r /proc/$1/stat ]] && [[ $(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) != Z ]]; }

wait_until_open() {
  local pid=$1
  for _ in $(seq 1 150); do
    port_open && return
    alive "$pid" || { tail -n 20 "$log" >&2 || true; die "kcat exited before listening on $port"; }
    sleep 0.1
  done
  die "broker not listening on $port after 15 s (log: $log)"
}

stop() {
  local pid
  if pid=$(running_pid); then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do [[ -d /proc/$pid ]] || break; sleep 0.1; done
    [[ -d /proc/$pid ]] && kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
  for _ in $(seq 1 100); do port_open || return 0; sleep 0.1; done
  die "port $port still open after stop (not our process?)"
}

case $cmd in
  start) start ;;
  stop) stop ;;
  restart) stop && start ;;
  status) if pid=$(running_pid); then echo "running pid $pid on 127.0.0.1:$port"; else echo "stopped"; exit 3; fi ;;
  *) die "usage: broker.sh start|stop|restart|status [port]" ;;
esac
