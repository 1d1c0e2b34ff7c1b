#!/usr/bin/env bash
# What `npm test` needs besides Node.js, on a laptop or in CI (.ci/run calls it):
#   PostgreSQL on 127.0.0.1:5432 (user postgres, a database named test), Redis on 127.0.0.1:6379,
#   Java 17+ and Maven (the Kafka broker and S3Mock, run from Maven Central's jars), Chromium
#   (the console's browser tests), ffmpeg and ffprobe (the media features), promtool (the
#   metrics checks).
# Installs what is missing (Debian/Ubuntu: apt-get, through sudo unless root; macOS: Homebrew),
# then starts PostgreSQL and Redis where they do not answer.
#
#   bash scripts/dev-services.sh           # install, then start (npm run dev:services)
#   bash scripts/dev-services.sh install   # install only
#   bash scripts/dev-services.sh start     # start only
set -euo pipefail

say() { echo "dev-services: $*"; }
die() { echo "dev-services: $*" >&2; exit 1; }

if [[ $(uname -s) == Darwin ]]; then
  platform=macos
  command -v brew >/dev/null || die "Homebrew is not installed (https://brew.sh)"
elif command -v apt-get >/dev/null; then
  platform=debian
else
  die "only Debian/Ubuntu (apt-get) and macOS (Homebrew) are scripted; install by hand what this script lists"
fi
sudo=()
[[ $platform == debian && $(id -u) != 0 ]] && sudo=(sudo)

java_major() { java -version 2>&1 | sed -nE '1s/.*version "([0-9]+).*/\1/p'; }
chromium_present() {
  if [[ -n ${CHROMIUM_PATH:-} ]]; then [[ -x $CHROMIUM_PATH ]]; else [[ -x /usr/bin/chromium ]]; fi
}
postgres_present() {
  command -v pg_ctl >/dev/null || compgen -G '/usr/lib/postgresql/*/bin/pg_ctl' >/dev/null
}

install_missing() {
  local missing=()
  if [[ $platform == debian ]]; then
    postgres_present || missing+=(postgresql)
    command -v redis-server >/dev/null || missing+=(redis-server)
    [[ $(java_major) -ge 17 ]] 2>/dev/null || missing+=(openjdk-17-jre-headless)
    command -v mvn >/dev/null || missing+=(maven)
    chromium_present || missing+=(chromium)
    command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null || missing+=(ffmpeg)
    command -v promtool >/dev/null || missing+=(prometheus)
    ((${#missing[@]} == 0)) && { say "nothing to install"; return 0; }
    say "installing ${missing[*]}"
    "${sudo[@]}" apt-get update
    "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}"
  else
    postgres_present || missing+=(postgresql@16)
    command -v redis-server >/dev/null || missing+=(redis)
    [[ $(java_major) -ge 17 ]] 2>/dev/null || missing+=(openjdk@17)
    command -v mvn >/dev/null || missing+=(maven)
    command -v ffmpeg >/dev/null && command -v ffprobe >/dev/null || missing+=(ffmpeg)
    command -v promtool >/dev/null || missing+=(prometheus)
    ((${#missing[@]} == 0)) || { say "installing ${missing[*]}"; brew install "${missing[@]}"; }
    [[ -n ${CHROMIUM_PATH:-} || -d /Applications/Chromium.app ]] || brew install --cask chromium
    say "the console's browser tests need: export CHROMIUM_PATH=${CHROMIUM_PATH:-/Applications/Chromium.app/Contents/MacOS/Chromium}"
  fi
}

wait_for() { # what, then the command that must succeed
  local what=$1
  shift
  for _ in $(seq 1 30); do "$@" >/dev/null 2>&1 && return 0; sleep 1; done
  die "$what does not answer"
}

as_postgres() { # a command as the postgres OS user (Debian's peer authentication)
  if [[ $(id -u) == 0 ]]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi
}

start_postgres() {
  if ! pg_isready -h 127.0.0.1 -q; then
    say "starting PostgreSQL"
    if [[ $platform == debian ]]; then
      local version
      version=$(ls /etc/postgresql | sort -V | tail -n 1)
      "${sudo[@]}" pg_ctlcluster --skip-systemctl-redirect "$version" main start
    else
      brew services start "$(brew list --formula | grep -E '^postgresql(@[0-9]+)?$' | head -n 1)"
    fi
  fi
  wait_for PostgreSQL pg_isready -h 127.0.0.1 -q
  # The tests connect as postgres to the database test (E2E_PG_ADMIN_URL names another).
  local url=${E2E_PG_ADMIN_URL:-postgres://postgres@127.0.0.1:5432/test}
  local admin=${url%/*}/postgres
  if ! psql "$admin" -tAc 'select 1' >/dev/null 2>&1; then
    if [[ $platform == macos ]]; then
      say "creating the postgres role"
      createuser -h 127.0.0.1 -s postgres
    else
      # Debian asks a password over TCP: give the role one, and say how the tests name it.
      say "PostgreSQL refuses postgres without a password on 127.0.0.1: setting it to 'postgres'"
      as_postgres psql -qc "alter role postgres password 'postgres'"
      url=postgres://postgres:postgres@127.0.0.1:5432/test
      admin=${url%/*}/postgres
      say "export E2E_PG_ADMIN_URL=$url   # before npm test"
    fi
  fi
  if [[ $(psql "$admin" -tAc "select 1 from pg_database where datname = '${url##*/}'") != 1 ]]; then
    say "creating the database ${url##*/}"
    psql "$admin" -qc "create database \"${url##*/}\""
  fi
}

start_redis() {
  if ! redis-cli -h 127.0.0.1 ping >/dev/null 2>&1; then
    say "starting Redis"
    if [[ $platform == debian ]]; then
      # No persistence: the tests' keys are theirs, and each stack deletes its own.
      local dir=${REDIS_DIR:-${TMPDIR:-/tmp}}
      redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no \
        --dir "$dir" --logfile "${REDIS_LOG:-$dir/cinetrace-redis.log}"
    else
      brew services start redis
    fi
  fi
  wait_for Redis redis-cli -h 127.0.0.1 ping
}

case ${1:-all} in
  install) install_missing ;;
  start) start_postgres && start_redis ;;
  all) install_missing && start_postgres && start_redis ;;
  *) die "usage: $0 [install|start]" ;;
esac
