#!/usr/bin/env bash
# A user's session through curl against a running tracker server (revision C):
# create an experiment, start a run, log params and metrics over 100 steps, log a batch, set
# tags, finish the run, search with a filter and order_by, read the metric history, upload an
# artifact through the server (as from a training machine), list it and download it back.
# Usage: scripts/curl-session.sh http://127.0.0.1:5000     (needs curl and node for JSON)
set -euo pipefail
BASE="${1:-http://127.0.0.1:5000}"
API="$BASE/api/2.0/tracker"
json() { node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const v=JSON.parse(s);console.log(eval("v"+process.argv[1]))})' "$1"; }
post() { curl -sf -X POST "$API/$1" -H 'Content-Type: application/json' -d "$2"; }
get() { curl -sf -G "$API/$1" "${@:2}"; }

NAME="curl-session-$$-$RANDOM"
EXP=$(post experiments/create "{\"name\": \"$NAME\"}" | json .experiment_id)
RUN_JSON=$(post runs/create "{\"experiment_id\": \"$EXP\", \"run_name\": \"baseline\", \"tags\": [{\"key\": \"team\", \"value\": \"vision\"}]}")
RUN=$(echo "$RUN_JSON" | json .run.info.run_id)
ART=$(echo "$RUN_JSON" | json .run.info.artifact_uri)
post runs/log-parameter "{\"run_id\": \"$RUN\", \"key\": \"lr\", \"value\": \"0.01\"}" >/dev/null
post runs/log-parameter "{\"run_id\": \"$RUN\", \"key\": \"optimizer\", \"value\": \"adam\"}" >/dev/null
for step in $(seq 0 99); do
  post runs/log-metric "{\"run_id\": \"$RUN\", \"key\": \"loss\", \"value\": $(node -e "console.log(1/($step+1))"), \"timestamp\": $((1700000000000 + step)), \"step\": $step}" >/dev/null
done
post runs/log-batch "{\"run_id\": \"$RUN\", \"metrics\": [{\"key\": \"acc\", \"value\": 0.93, \"timestamp\": 1700000001000, \"step\": 100}], \"params\": [{\"key\": \"epochs\", \"value\": \"100\"}], \"tags\": [{\"key\": \"stage\", \"value\": \"trained\"}]}" >/dev/null
post runs/set-tag "{\"run_id\": \"$RUN\", \"key\": \"reviewed\", \"value\": \"yes\"}" >/dev/null
post runs/update "{\"run_id\": \"$RUN\", \"status\": \"FINISHED\", \"end_time\": 1700000002000}" >/dev/null
FOUND=$(post runs/search "{\"experiment_ids\": [\"$EXP\"], \"filter\": \"metrics.acc > 0.9 and params.optimizer = 'adam' and tags.stage = 'trained'\", \"order_by\": [\"metrics.acc DESC\"]}" | json '.runs.map(r=>r.info.run_id).join(",")')
[ "$FOUND" = "$RUN" ] || { echo "search found '$FOUND', expected $RUN" >&2; exit 1; }
POINTS=$(get metrics/get-history --data-urlencode "run_id=$RUN" --data-urlencode "metric_key=loss" | json .metrics.length)
[ "$POINTS" = "100" ] || { echo "history has $POINTS points, expected 100" >&2; exit 1; }
STATUS=$(get runs/get --data-urlencode "run_id=$RUN" | json .run.info.status)
[ "$STATUS" = "FINISHED" ] || { echo "status $STATUS" >&2; exit 1; }
# The run's artifacts are served by the server (artifact_uri mlflow-artifacts:/<exp>/<run>/artifacts).
case "$ART" in mlflow-artifacts:/*) ;; *) echo "artifact_uri $ART is not proxied" >&2; exit 1 ;; esac
TMP=$(mktemp) && trap 'rm -f "$TMP"' EXIT && echo "weights" > "$TMP"
curl -sf -T "$TMP" "$BASE/api/2.0/mlflow-artifacts/artifacts/${ART#mlflow-artifacts:/}/model/weights.bin" >/dev/null
FILES=$(get artifacts/list --data-urlencode "run_id=$RUN" --data-urlencode "path=model" | json '.files.map(f=>f.path+":"+f.file_size).join(",")')
[ "$FILES" = "model/weights.bin:8" ] || { echo "artifacts: $FILES" >&2; exit 1; }
BACK=$(curl -sf -G "$BASE/get-artifact" --data-urlencode "run_uuid=$RUN" --data-urlencode "path=model/weights.bin")
[ "$BACK" = "weights" ] || { echo "downloaded '$BACK'" >&2; exit 1; }
echo "session ok: experiment $EXP, run $RUN, 100 steps, search, history, artifacts"
