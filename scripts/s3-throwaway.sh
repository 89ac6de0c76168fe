# Throwaway S3 server on 127.0.0.1 for tests and benchmarks: a single-node Ceph cluster (one
# monitor, one memstore OSD, radosgw) from Debian's packages, everything in one temporary folder.
# Source this file, then: s3_throwaway_start (exports AWS_ENDPOINT_URL, AWS_ACCESS_KEY_ID,
# AWS_SECRET_ACCESS_KEY, AWS_REGION, TEST_S3_URL=s3://<bucket>/<prefix>) and s3_throwaway_stop.
# s3_throwaway_install installs the packages when missing (root). Facts behind the settings:
# Ceph 16 (Pacific) has no standalone RGW backend, so a minimal cluster is needed; memstore keeps
# the data in RAM (starts in ~2.5 s); `ms mon client mode = crc secure` is required with auth none.

CEPH_PACKAGES="radosgw ceph-mon ceph-osd ceph-common"

s3_throwaway_installed() {
  command -v ceph-mon >/dev/null 2>&1 && command -v ceph-osd >/dev/null 2>&1 &&
    command -v radosgw >/dev/null 2>&1 && command -v radosgw-admin >/dev/null 2>&1 &&
    command -v monmaptool >/dev/null 2>&1
}

s3_throwaway_install() {
  s3_throwaway_installed && return 0
  if [ "$(id -u)" != 0 ]; then echo "Ceph is not installed and we are not root: apt-get install $CEPH_PACKAGES" >&2; return 1; fi
  echo "installing the Debian packages $CEPH_PACKAGES" >&2
  DEBIAN_FRONTEND=noninteractive apt-get update -qq &&
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $CEPH_PACKAGES >/dev/null
  s3_throwaway_installed
}

_s3_free_port() {
  local port
  for port in $(shuf -i 20000-60000 -n 50); do
    if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then echo "$port"; return 0; fi
  done
  return 1
}

# Runs "$@" until it succeeds, at most $1 tenths of a second.
_s3_wait() {
  local tenths=$1 i
  shift
  for ((i = 0; i < tenths; i++)); do
    "$@" >/dev/null 2>&1 && return 0
    sleep 0.1
  done
  return 1
}

_s3_fail() {
  echo "throwaway S3: $1; logs in $S3_TMP:" >&2
  tail -n 20 "$S3_TMP"/log/*.log >&2 2>/dev/null || true
  s3_throwaway_stop
  return 1
}

# A signed S3 request (curl's SigV4; radosgw wants the payload hash header).
_s3_curl() {
  curl -sS --fail --max-time 60 --aws-sigv4 "aws:amz:$AWS_REGION:s3" --user "$AWS_ACCESS_KEY_ID:$AWS_SECRET_ACCESS_KEY" \
    -H "x-amz-content-sha256: UNSIGNED-PAYLOAD" "$@"
}

_s3_osd_up() { timeout 5 ceph -c "$S3_TMP/ceph.conf" osd dump 2>/dev/null | grep -q '^osd\.0 up'; }
_s3_rgw_up() { (exec 3<>"/dev/tcp/127.0.0.1/$S3_PORT") 2>/dev/null; }

s3_throwaway_start() {
  s3_throwaway_installed || { echo "Ceph (radosgw, ceph-mon, ceph-osd) is not installed" >&2; return 1; }
  S3_TMP=$(mktemp -d /tmp/tracker-s3.XXXXXX)
  export S3_TMP
  local mon_port fsid osd_uuid conf=$S3_TMP/ceph.conf
  mon_port=$(_s3_free_port) && S3_PORT=$(_s3_free_port) || { echo "no free port" >&2; return 1; }
  while [ "$S3_PORT" = "$mon_port" ]; do S3_PORT=$(_s3_free_port); done
  export S3_PORT
  fsid=$(cat /proc/sys/kernel/random/uuid)
  osd_uuid=$(cat /proc/sys/kernel/random/uuid)
  mkdir -p "$S3_TMP/mon/a" "$S3_TMP/osd/0" "$S3_TMP/rgw" "$S3_TMP/run" "$S3_TMP/log" "$S3_TMP/crash"
  cat >"$conf" <<EOF
[global]
fsid = $fsid
mon host = [v2:127.0.0.1:$mon_port]
mon initial members = a
public addr = 127.0.0.1
cluster addr = 127.0.0.1
ms bind msgr1 = false
ms mon client mode = crc secure
auth cluster required = none
auth service required = none
auth client required = none
run dir = $S3_TMP/run
admin socket = $S3_TMP/run/\$name.asok
pid file = $S3_TMP/run/\$name.pid
log file = $S3_TMP/log/\$name.log
crash dir = $S3_TMP/crash
log to stderr = false
err to stderr = false
osd pool default size = 1
osd pool default min size = 1
osd pool default pg num = 8
osd pool default pgp num = 8
osd pool default pg autoscale mode = off
osd crush chooseleaf type = 0
mon allow pool size one = true
mon warn on pool no redundancy = false
mon max pg per osd = 1000
mon data avail warn = 2
mon data avail crit = 1
paxos propose interval = 0.1
[mon]
mon data = $S3_TMP/mon/\$id
[osd]
osd data = $S3_TMP/osd/\$id
osd objectstore = memstore
memstore device bytes = ${S3_MEMSTORE_BYTES:-8589934592}
[client.rgw.a]
rgw frontends = beast endpoint=127.0.0.1:$S3_PORT
rgw data = $S3_TMP/rgw
rgw gc obj min wait = 5
rgw gc processor period = 10
EOF
  monmaptool --create --fsid "$fsid" --addv a "[v2:127.0.0.1:$mon_port]" "$S3_TMP/monmap" >/dev/null 2>&1 ||
    { _s3_fail "monmaptool failed"; return 1; }
  ceph-mon -c "$conf" --mkfs -i a --monmap "$S3_TMP/monmap" >"$S3_TMP/log/mkfs-mon.out" 2>&1 ||
    { _s3_fail "ceph-mon --mkfs failed"; return 1; }
  ceph-mon -c "$conf" -i a >"$S3_TMP/log/mon.out" 2>&1 || { _s3_fail "ceph-mon did not start"; return 1; }
  timeout 30 ceph -c "$conf" osd new "$osd_uuid" >"$S3_TMP/log/osd-new.out" 2>&1 ||
    { _s3_fail "ceph osd new failed"; return 1; }
  ceph-osd -c "$conf" -i 0 --mkfs --osd-uuid "$osd_uuid" >"$S3_TMP/log/mkfs-osd.out" 2>&1 ||
    { _s3_fail "ceph-osd --mkfs failed"; return 1; }
  ceph-osd -c "$conf" -i 0 >"$S3_TMP/log/osd.out" 2>&1 || { _s3_fail "ceph-osd did not start"; return 1; }
  _s3_wait 600 _s3_osd_up || { _s3_fail "osd.0 did not come up"; return 1; }
  radosgw -c "$conf" -n client.rgw.a >"$S3_TMP/log/rgw.out" 2>&1 || { _s3_fail "radosgw did not start"; return 1; }
  _s3_wait 600 _s3_rgw_up || { _s3_fail "radosgw does not answer on 127.0.0.1:$S3_PORT"; return 1; }
  local key secret
  key=tracker$(od -An -N6 -tx1 /dev/urandom | tr -d ' \n')
  secret=$(od -An -N20 -tx1 /dev/urandom | tr -d ' \n')
  timeout 60 radosgw-admin -c "$conf" user create --uid=tracker --display-name=tracker \
    --access-key="$key" --secret-key="$secret" >"$S3_TMP/log/user.out" 2>&1 ||
    { _s3_fail "radosgw-admin user create failed"; return 1; }
  export AWS_ENDPOINT_URL="http://127.0.0.1:$S3_PORT" AWS_ACCESS_KEY_ID=$key AWS_SECRET_ACCESS_KEY=$secret
  export AWS_REGION=us-east-1 S3_BUCKET=tracker-test
  # The first bucket creates radosgw's pools (~2 s): done here, with one object round trip, so
  # the first test does not pay for it.
  { _s3_curl -X PUT "$AWS_ENDPOINT_URL/$S3_BUCKET" && _s3_curl -X PUT --data-binary warm "$AWS_ENDPOINT_URL/$S3_BUCKET/warm-up" &&
    _s3_curl "$AWS_ENDPOINT_URL/$S3_BUCKET/warm-up" && _s3_curl -X DELETE "$AWS_ENDPOINT_URL/$S3_BUCKET/warm-up"; } \
    >"$S3_TMP/log/bucket.out" 2>&1 || { cat "$S3_TMP/log/bucket.out" >&2; _s3_fail "could not create the bucket $S3_BUCKET"; return 1; }
  export TEST_S3_URL="s3://$S3_BUCKET/tests"
  echo "throwaway S3 (Ceph $(ceph --version | awk '{print $3}') radosgw) on $AWS_ENDPOINT_URL, $TEST_S3_URL" >&2
}

# Stops radosgw, then the OSD, then the monitor (together, radosgw hangs), by their pid files only.
s3_throwaway_stop() {
  [ -n "${S3_TMP:-}" ] && [ -d "$S3_TMP" ] || return 0
  local name pid i
  for name in client.rgw.a osd.0 mon.a; do
    pid=$(cat "$S3_TMP/run/$name.pid" 2>/dev/null) || continue
    [ -n "$pid" ] || continue
    kill "$pid" 2>/dev/null || continue
    for ((i = 0; i < 100; i++)); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$pid" 2>/dev/null || true
  done
  rm -rf "$S3_TMP"
  unset S3_TMP
}
