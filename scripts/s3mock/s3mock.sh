#!/usr/bin/env bash
# A real S3-protocol server for tests and local runs, without Docker: Adobe's S3Mock, its
# executable jar from Maven Central (com.adobe.testing:s3mock, classifier exec; Java 17+).
#
#   s3mock.sh fetch                 fetch the jar into scripts/s3mock/.cache (first time only)
#   s3mock.sh start [--port N] [--bucket NAME]...
#                                   start it on 127.0.0.1:N (plain HTTP, path-style) with these
#                                   buckets, wait until it answers; the last line of output is
#                                   the endpoint http://127.0.0.1:N
#   s3mock.sh stop [--port N]       stop it and remove its data
#   s3mock.sh status [--port N]
#
# Any access key and secret are accepted. Objects live under the state directory
# (/tmp/cinetrace-s3mock-N), removed by stop. Messages go to stderr; only the endpoint to stdout.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
version=5.2.0
jar=$here/.cache/s3mock-$version-exec.jar
cmd=${1:-}
shift || true
port=${S3MOCK_PORT:-9090}
buckets=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --port) port=${2:-}; shift 2 ;;
    --port=*) port=${1#--port=}; shift ;;
    --bucket) buckets+=("${2:-}"); shift 2 ;;
    *) echo "s3mock.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

die() { echo "s3mock.sh: $*" >&2; exit 1; }
[[ $port =~ ^[0-9]+$ ]] && ((port > 0 && port < 65536)) || die "port must be a number below 65536, got '$port'"
for bucket in "${buckets[@]}"; do [[ $bucket =~ ^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$ ]] || die "'$bucket' is not a bucket name"; done

state=${S3MOCK_STATE_DIR:-/tmp/cinetrace-s3mock-$port}
pidfile=$state/s3mock.pid
log=$state/s3mock.log

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

running_pid() {
  [[ -f $pidfile ]] || return 1
  local pid
  pid=$(<"$pidfile")
  [[ $pid =~ ^[0-9]+$ ]] && [[ -r /proc/$pid/cmdline ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q 's3mock' || return 1
  echo "$pid"
}

fetch() {
  [[ -f $jar ]] && return
  command -v mvn >/dev/null || die "Maven (mvn) is not installed: it fetches S3Mock's jar from Maven Central"
  echo "s3mock.sh: fetching S3Mock $version from Maven Central into $here/.cache" >&2
  mkdir -p "$here/.cache"
  mvn -B -q org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy \
    -Dartifact="com.adobe.testing:s3mock:$version:jar:exec" -DoutputDirectory="$here/.cache" >&2 ||
    die "Maven could not fetch com.adobe.testing:s3mock:$version (exec jar)"
  [[ -f $jar ]] || die "Maven did not leave $jar"
}

start() {
  command -v java >/dev/null || die "Java 17+ is not installed"
  local pid
  if pid=$(running_pid); then
    wait_until_ready "$pid"
    echo "http://127.0.0.1:$port"
    return
  fi
  port_open "$port" && die "port $port is already taken by another process"
  fetch
  mkdir -p "$state/objects"
  local initial
  initial=$(IFS=,; echo "${buckets[*]}")
  # The main connector is plain HTTP on loopback (server.ssl off); S3Mock insists on a second
  # HTTP connector (http.port), which 0 puts on a free port nobody uses. Parts up to 64 MB.
  setsid java -Xms64m -Xmx384m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 -jar "$jar" \
    --server.port="$port" --server.address=127.0.0.1 --server.ssl.enabled=false --http.port=0 \
    --com.adobe.testing.s3mock.store.root="$state/objects" \
    --com.adobe.testing.s3mock.store.initial-buckets="$initial" \
    --com.adobe.testing.s3mock.max-payload-size=64MB \
    --logging.level.root=WARN --logging.level.com.adobe.testing.s3mock.S3MockApplication=INFO \
    --spring.main.banner-mode=off \
    </dev/null >>"$log" 2>&1 &
  echo $! >"$pidfile"
  wait_until_ready $!
  echo "http://127.0.0.1:$port"
}

alive() { [[ -r /proc/$1/stat ]] && [[ $(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) != Z ]]; }

wait_until_ready() {
  local pid=$1
  for _ in $(seq 1 600); do
    if grep -q 'Started S3MockApplication' "$log" 2>/dev/null && port_open "$port"; then return; fi
    alive "$pid" || { tail -n 30 "$log" >&2 || true; die "S3Mock exited before it was ready"; }
    sleep 0.1
  done
  die "S3Mock was not ready on $port after 60 s (log: $log)"
}

stop() {
  local pid
  if pid=$(running_pid); then
    kill -TERM -- "-$pid" 2>/dev/null || kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 100); do alive "$pid" || break; sleep 0.1; done
    if alive "$pid"; then kill -KILL -- "-$pid" 2>/dev/null || kill -KILL "$pid" 2>/dev/null || true; fi
  fi
  rm -rf "$state"
  for _ in $(seq 1 100); do port_open "$port" || return 0; sleep 0.1; done
  die "port $port still open after stop (not our process?)"
}

case $cmd in
  fetch) fetch ;;
  start) start ;;
  stop) stop ;;
  status) if pid=$(running_pid); then echo "running pid $pid on 127.0.0.1:$port"; else echo "stopped"; exit 3; fi ;;
  *) die "usage: s3mock.sh fetch|start|stop|status [--port N] [--bucket NAME]..." ;;
esac
