#!/usr/bin/env bash
# A real Apache Kafka broker for tests, benchmarks and local runs, from Maven Central's
# jars (no tarball, no Docker): one KRaft node acting as broker and controller.
#
#   broker.sh start [--port N]    fetch the jars (first time), format a store, start the
#                                 broker, wait until it serves metadata; the last line of
#                                 output is the bootstrap address 127.0.0.1:N
#   broker.sh stop [--port N]     stop it (SIGTERM, then SIGKILL) and remove its data
#   broker.sh kill [--port N]     SIGKILL it and keep its data (an outage; start resumes)
#   broker.sh status [--port N]
#
# Security of the client listener (start; give them again to start after a kill):
#   --tls-keystore FILE --tls-keystore-password P --tls-ca FILE
#                                 TLS with a PKCS#12 keystore (the broker's key and certificate)
#                                 and the PEM CA it chains to (checked by the broker's own
#                                 connections to itself)
#   --tls-client-auth required    mutual TLS: clients must present a certificate --tls-ca signed
#                                 (ssl.client.auth=required; the broker presents its own keystore)
#   --scram-user NAME:PASSWORD    SASL SCRAM-SHA-512, with this user created when the store is
#                                 formatted (kafka-storage format --add-scram); the broker uses it too
# With both the listener is SASL_SSL, and plaintext clients are refused. The controller's
# listener (N+1) stays PLAINTEXT on 127.0.0.1.
#
# The controller listens on N+1. Needs Java 17+ and Maven (the jars are cached in
# scripts/kafka/.cache, gitignored). Messages go to stderr; only the address to stdout.
# KAFKA_REQUEST_LOG=<file>: the broker logs every request it completes there (a diagnostic:
# it costs the broker CPU; bench/broker-requests.js counts them by client and API).
# KAFKA_QUICK_JIT=1: the broker's JVM compiles with C1 only (-XX:TieredStopAtLevel=1): its
# start takes about half the CPU (4-5 s against 8), its steady work is slower. For the e2e
# suites' own short-lived brokers (libs/testing); never for a benchmark's.
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cmd=${1:-}
shift || true
port=${KAFKA_PORT:-9092}
keystore='' keystore_password='' tls_ca='' scram_user='' client_auth=none
while [[ $# -gt 0 ]]; do
  case $1 in
    --port) port=${2:-}; shift 2 ;;
    --port=*) port=${1#--port=}; shift ;;
    --tls-keystore) keystore=${2:-}; shift 2 ;;
    --tls-keystore-password) keystore_password=${2:-}; shift 2 ;;
    --tls-ca) tls_ca=${2:-}; shift 2 ;;
    --scram-user) scram_user=${2:-}; shift 2 ;;
    --tls-client-auth) client_auth=${2:-}; shift 2 ;;
    [0-9]*) port=$1; shift ;; # broker.sh start 19092 works too
    *) echo "broker.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

die() { echo "broker.sh: $*" >&2; exit 1; }
[[ $port =~ ^[0-9]+$ ]] && ((port > 0 && port < 65535)) || die "port must be a number below 65535, got '$port'"
controller_port=$((port + 1))

# The client listener's protocol, also its name: PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL.
protocol=PLAINTEXT
if [[ -n $keystore || -n $keystore_password || -n $tls_ca ]]; then
  [[ -f $keystore && -n $keystore_password && -f $tls_ca ]] || die "TLS needs --tls-keystore FILE, --tls-keystore-password P and --tls-ca FILE"
  protocol=SSL
fi
[[ $client_auth == none || $client_auth == required ]] || die "--tls-client-auth must be none or required, got '$client_auth'"
[[ $client_auth == none || $protocol == SSL ]] || die "--tls-client-auth needs the --tls-* options"
if [[ -n $scram_user ]]; then
  [[ $scram_user =~ ^[A-Za-z0-9_.-]+:[A-Za-z0-9_.~+/=-]+$ ]] || die "--scram-user must be NAME:PASSWORD (letters, digits and _.~+/=- only)"
  scram_name=${scram_user%%:*}
  scram_password=${scram_user#*:}
  protocol=SASL_$protocol
fi

version=$(sed -n 's:.*<kafka.version>\(.*\)</kafka.version>.*:\1:p' "$here/pom.xml")
libs=$here/.cache/kafka-$version/libs
state=${KAFKA_STATE_DIR:-/tmp/cinetrace-kafka-$port}
pidfile=$state/broker.pid
log=$state/broker.log

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

running_pid() {
  [[ -f $pidfile ]] || return 1
  local pid
  pid=$(<"$pidfile")
  [[ $pid =~ ^[0-9]+$ ]] && [[ -r /proc/$pid/cmdline ]] && tr '\0' ' ' <"/proc/$pid/cmdline" | grep -q 'kafka.Kafka' || return 1
  echo "$pid"
}

fetch_jars() {
  [[ -f $libs/.complete ]] && return
  command -v mvn >/dev/null || die "Maven (mvn) is not installed: it fetches the broker's jars from Maven Central"
  echo "broker.sh: fetching Apache Kafka $version from Maven Central into $libs" >&2
  rm -rf "$libs"
  mvn -B -q -f "$here/pom.xml" org.apache.maven.plugins:maven-dependency-plugin:3.8.1:copy-dependencies \
    -DincludeScope=runtime -DoutputDirectory="$libs" >&2 || die "Maven could not fetch the broker's jars"
  touch "$libs/.complete"
}

write_config() {
  cat >"$state/server.properties" <<EOF
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=127.0.0.1:$controller_port
listeners=$protocol://127.0.0.1:$port,CONTROLLER://127.0.0.1:$controller_port
advertised.listeners=$protocol://127.0.0.1:$port
inter.broker.listener.name=$protocol
controller.listener.names=CONTROLLER
listener.security.protocol.map=CONTROLLER:PLAINTEXT,$protocol:$protocol
log.dirs=$state/data
num.partitions=1
# The apps create their topics with the settings they need (README, "Kafka topics").
auto.create.topics.enable=false
offsets.topic.replication.factor=1
offsets.topic.num.partitions=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
# One node: nothing to wait for before a consumer group's first rebalance.
group.initial.rebalance.delay.ms=0
# Offset commits are written at once: the group coordinator's default 5 ms linger held every
# request's OffsetCommit, and with it the consumer's next fetch (docs/deploy.md).
group.coordinator.append.linger.ms=0
EOF
  if [[ -n $keystore ]]; then
    cat >>"$state/server.properties" <<EOF
ssl.keystore.type=PKCS12
ssl.keystore.location=$keystore
ssl.keystore.password=$keystore_password
ssl.key.password=$keystore_password
ssl.truststore.type=PEM
ssl.truststore.location=$tls_ca
ssl.client.auth=$client_auth
# A SASL_SSL listener ignores the broker-wide ssl.client.auth (KIP-684): it takes only this one.
listener.name.${protocol,,}.ssl.client.auth=$client_auth
EOF
  fi
  if [[ -n $scram_user ]]; then
    cat >>"$state/server.properties" <<EOF
sasl.enabled.mechanisms=SCRAM-SHA-512
sasl.mechanism.inter.broker.protocol=SCRAM-SHA-512
listener.name.${protocol,,}.scram-sha-512.sasl.jaas.config=org.apache.kafka.common.security.scram.ScramLoginModule required username="$scram_name" password="$scram_password";
EOF
  fi
  cat >"$state/log4j2.properties" <<'EOF'
rootLogger.level=WARN
rootLogger.appenderRef.out.ref=OUT
appender.out.type=Console
appender.out.name=OUT
appender.out.layout.type=PatternLayout
appender.out.layout.pattern=[%d] %p %m (%c)%n
logger.server.name=kafka.server.KafkaRaftServer
logger.server.level=INFO
EOF
  if [[ -n ${KAFKA_REQUEST_LOG:-} ]]; then
    cat >>"$state/log4j2.properties" <<EOF
appender.requests.type=File
appender.requests.name=REQUESTS
appender.requests.fileName=$KAFKA_REQUEST_LOG
appender.requests.layout.type=PatternLayout
appender.requests.layout.pattern=%d{ISO8601} %m%n
logger.requests.name=kafka.request.logger
logger.requests.level=DEBUG
logger.requests.additivity=false
logger.requests.appenderRef.requests.ref=REQUESTS
EOF
  fi
}

# A JVM on the broker's jars and logging: the caller's JVM options (those before the first
# argument not starting with '-'), then the main class and its arguments.
kafka_java() {
  local jvm=()
  while [[ $# -gt 0 && $1 == -* ]]; do
    jvm+=("$1")
    shift
  done
  java "${jvm[@]}" -Djava.awt.headless=true -Dlog4j2.configurationFile="$state/log4j2.properties" \
    -Dkafka.logs.dir="$state" -cp "$libs/*" "$@"
}

java_cmd() {
  kafka_java -Xms256m -Xmx512m -XX:+UseG1GC -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 \
    -XX:+ExplicitGCInvokesConcurrent ${KAFKA_QUICK_JIT:+-XX:TieredStopAtLevel=1} "$@"
}

# The storage tool runs for a second: the quick compiler and the serial collector spare it
# the C2 and G1 threads' start (~40% of its CPU).
tool_cmd() {
  kafka_java -Xmx256m -XX:+UseSerialGC -XX:TieredStopAtLevel=1 "$@"
}

# A KRaft cluster id, as `kafka-storage random-uuid` writes one (a random UUID in base64url,
# 22 characters, not starting with '-'), without starting a JVM for it.
random_cluster_id() {
  local id
  while :; do
    id=$(head -c 16 /dev/urandom | base64 | tr '+/' '-_' | cut -c 1-22)
    [[ $id != -* ]] && echo "$id" && return
  done
}

start() {
  command -v java >/dev/null || die "Java 17+ is not installed"
  local pid
  if pid=$(running_pid); then
    wait_until_ready "$pid"
    echo "127.0.0.1:$port"
    return
  fi
  port_open "$port" && die "port $port is already taken by another process"
  port_open "$controller_port" && die "port $controller_port (the controller's) is already taken by another process"
  fetch_jars
  mkdir -p "$state"
  write_config
  if [[ ! -f $state/data/meta.properties ]]; then
    local cluster_id
    cluster_id=$(random_cluster_id)
    local scram=()
    if [[ -n $scram_user ]]; then scram=(--add-scram "SCRAM-SHA-512=[name=$scram_name,password=$scram_password]"); fi
    tool_cmd kafka.tools.StorageTool format --standalone -t "$cluster_id" -c "$state/server.properties" "${scram[@]}" >>"$log" 2>&1 ||
      { tail -n 20 "$log" >&2; die "formatting the broker's store failed"; }
  fi
  # setsid: the broker outlives this script and is not hit by signals sent to the caller's group.
  setsid bash -c "$(declare -f kafka_java java_cmd); state='$state' libs='$libs' KAFKA_QUICK_JIT='${KAFKA_QUICK_JIT:-}' java_cmd kafka.Kafka '$state/server.properties'" \
    </dev/null >>"$log" 2>&1 &
  echo $! >"$pidfile"
  wait_until_ready $!
  echo "127.0.0.1:$port"
}

alive() { [[ -r /proc/$1/stat ]] && [[ $(cut -d' ' -f3 "/proc/$1/stat" 2>/dev/null) != Z ]]; }

# Ready once the broker logged its start and answers on its port.
wait_until_ready() {
  local pid=$1
  for _ in $(seq 1 600); do
    if grep -q 'Kafka Server started' "$log" 2>/dev/null && port_open "$port"; then return; fi
    alive "$pid" || { tail -n 30 "$log" >&2 || true; die "the broker exited before it was ready"; }
    sleep 0.1
  done
  die "the broker was not ready on $port after 60 s (log: $log)"
}

# The pid file names the session leader setsid started (bash, whose child is the JVM):
# signal its whole process group, and wait until none of it is left.
signal_and_wait() {
  local pid=$1 signal=$2
  kill "-$signal" -- "-$pid" 2>/dev/null || kill "-$signal" "$pid" 2>/dev/null || true
  for _ in $(seq 1 150); do pgrep -g "$pid" >/dev/null || return 0; sleep 0.1; done
  return 1
}

stop() {
  local pid
  if pid=$(running_pid); then
    signal_and_wait "$pid" TERM || signal_and_wait "$pid" KILL || die "broker $pid did not stop"
  fi
  rm -rf "$state"
  for _ in $(seq 1 100); do port_open "$port" || return 0; sleep 0.1; done
  die "port $port still open after stop (not our process?)"
}

kill_broker() {
  local pid
  if pid=$(running_pid); then signal_and_wait "$pid" KILL || die "broker $pid did not die"; fi
  # Clear the start marker so the next start waits for this run's own.
  [[ -f $log ]] && mv "$log" "$log.$(date +%s%N)"
  rm -f "$pidfile"
}

case $cmd in
  start) start ;;
  stop) stop ;;
  kill) kill_broker ;;
  status) if pid=$(running_pid); then echo "running pid $pid on 127.0.0.1:$port"; else echo "stopped"; exit 3; fi ;;
  *) die "usage: broker.sh start|stop|kill|status [--port N]" ;;
esac
