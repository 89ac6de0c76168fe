# Throwaway PostgreSQL cluster on 127.0.0.1 for tests and benchmarks.
# Source this file, then: pg_throwaway_start (exports TEST_DATABASE_URL) and pg_throwaway_stop.
# Uses the Debian package postgresql (15); pg_throwaway_install installs it when missing (root).

PG_BIN="${PG_BIN:-}"

pg_throwaway_find_bin() {
  if [ -n "$PG_BIN" ] && [ -x "$PG_BIN/postgres" ]; then return 0; fi
  for dir in /usr/lib/postgresql/*/bin; do
    if [ -x "$dir/postgres" ]; then PG_BIN="$dir"; fi
  done
  [ -n "$PG_BIN" ] && [ -x "$PG_BIN/postgres" ]
}

pg_throwaway_install() {
  pg_throwaway_find_bin && return 0
  if [ "$(id -u)" != 0 ]; then echo "PostgreSQL is not installed and we are not root" >&2; return 1; fi
  echo "installing the Debian package postgresql" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql >/dev/null
  pg_throwaway_find_bin
}

_pg_as_owner() {
  if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

pg_throwaway_start() {
  pg_throwaway_find_bin || { echo "no PostgreSQL binaries found" >&2; return 1; }
  PG_TMP=$(mktemp -d /tmp/tracker-pg.XXXXXX)
  [ "$(id -u)" = 0 ] && chown postgres:postgres "$PG_TMP"
  local port
  for port in $(shuf -i 20000-60000 -n 50); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then PG_PORT=$port; break; fi
  done
  _pg_as_owner "$PG_BIN/initdb" -D "$PG_TMP/data" -U postgres -A trust -E UTF8 --locale=C.UTF-8 --no-sync >"$PG_TMP/initdb.log" 2>&1 || {
    cat "$PG_TMP/initdb.log" >&2; return 1; }
  _pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -l "$PG_TMP/log" -w \
    -o "-p $PG_PORT -c listen_addresses=127.0.0.1 -k $PG_TMP -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=300" start >/dev/null || {
    cat "$PG_TMP/log" >&2; return 1; }
  export TEST_DATABASE_URL="postgres://postgres@127.0.0.1:$PG_PORT/postgres"
  export PG_TMP PG_PORT
  echo "throwaway PostgreSQL $("$PG_BIN/postgres" --version | awk '{print $3}') on 127.0.0.1:$PG_PORT" >&2
}

pg_throwaway_stop() {
  if [ -n "${PG_TMP:-}" ] && [ -d "$PG_TMP/data" ]; then
    _pg_as_owner "$PG_BIN/pg_ctl" -D "$PG_TMP/data" -m fast -w stop >/dev/null 2>&1 || true
    rm -rf "$PG_TMP"
  fi
}
