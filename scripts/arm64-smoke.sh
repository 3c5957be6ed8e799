#!/bin/sh
# The smoke test scripts/arm64-check.sh runs inside the arm64 root (it runs on any machine too):
# starts `$HEARTH serve` on a fresh data dir and checks remember/recall with the default `auto`
# encoder (printing which runtime loaded), an MQTT reading through to an hourly rollup, the admin
# page's HTML and `hearth doctor`. Env: HEARTH (the CLI), PORT, MQTT_PORT, NODE_PATH (for mqtt.js).
set -eu
HEARTH=${HEARTH:-hearth}
PORT=${PORT:-18900}
export MQTT_PORT=${MQTT_PORT:-11883}
DATA=$(mktemp -d /tmp/hearth-smoke.XXXXXX)
LOG=$DATA.log
URL=http://127.0.0.1:$PORT
export HEARTH_DATA_DIR=$DATA HEARTH_HTTP_HOST=127.0.0.1 HEARTH_HTTP_PORT=$PORT HEARTH_MQTT_PORT=$MQTT_PORT

now() { date +%s; }
fail() { echo "FAIL: $*"; echo "--- hub log (last 40 lines)"; tail -n 40 "$LOG"; exit 1; }
post() { curl -sS -X POST -H 'content-type: application/json' "$URL$1" -d "$2"; }
# waits up to $1 s for the shell condition $2
wait_for() { n=0; until eval "$2"; do n=$((n + 1)); [ "$n" -lt "$1" ] || return 1; sleep 1; done; }

echo "node $(node -v) on $(uname -m); hearth $($HEARTH --version 2>/dev/null || echo '?')"
t=$(now)
$HEARTH serve > "$LOG" 2>&1 &
HUB=$!
trap 'kill $HUB 2>/dev/null || true' EXIT
wait_for 600 "kill -0 $HUB 2>/dev/null && curl -sf $URL/health >/dev/null 2>&1" || fail "the hub did not answer /health within 600 s"
echo "serve: /health answered after $(( $(now) - t )) s"
grep -m1 -i 'serving' "$LOG" || true

echo "-- remember / recall (default encoder: auto)"
t=$(now)
post /remember '{"entity_name":"Brian","fact":"Brian keeps the bedroom at 19 degrees at night","category":"preference"}'; echo
# the embedding is computed after the write is acknowledged: wait until none is pending
wait_for 600 "curl -sf $URL/health | grep -q '\"pending\":0'" || fail "the memory was not embedded within 600 s"
echo "remember + embed: $(( $(now) - t )) s"
HEALTH=$(curl -sf "$URL/health")
node -e 'const h = JSON.parse(process.argv[1]).embedder; console.log(`embedder: ${h.provider}/${h.model} dim ${h.dim} answers=${h.answers} vectors=${h.vectors}${h.note ? `\nnote: ${h.note}` : ""}`)' "$HEALTH"
grep -i -m3 'onnx\|webassembly\|encoder\|embedder' "$LOG" || true
t=$(now)
R=$(post /recall '{"query":"how warm does Brian like the bedroom at night","top_k":3,"mode":"vector"}')
echo "recall (vector): $(( $(now) - t )) s"
echo "$R" | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const r=JSON.parse(s);console.log(r.result ?? s);if(!r.results?.some(x=>/19 degrees/.test(x.fact)))process.exit(1)})' ||
  fail "recall did not return the remembered fact"

echo "-- MQTT reading → hourly rollup"
node -e '
const mqtt = require("mqtt");
const c = mqtt.connect(`mqtt://127.0.0.1:${process.env.MQTT_PORT}`);
c.on("error", (e) => { console.error(e.message); process.exit(1); });
c.on("connect", () => c.publish("hearth/record/bedroom/temperature", "21.5", { qos: 1 }, (e) => { if (e) { console.error(e.message); process.exit(1); } console.log("published hearth/record/bedroom/temperature 21.5 (qos 1, acknowledged)"); c.end(); }));
' || fail "could not publish over MQTT"
wait_for 120 "post /query_stream '{\"entity_name\":\"bedroom\",\"metric\":\"temperature\",\"granularity\":\"hour\"}' | grep -q '21.5'" ||
  fail "no hourly rollup for bedroom/temperature within 120 s"
post /query_stream '{"entity_name":"bedroom","metric":"temperature","granularity":"hour"}'; echo

echo "-- admin page"
curl -sfL "$URL/admin/" -o "$DATA/admin.html" || fail "GET /admin failed"
grep -q '<html' "$DATA/admin.html" || fail "/admin is not HTML"
echo "GET /admin/: $(wc -c < "$DATA/admin.html") bytes of HTML, title: $(grep -o '<title>[^<]*</title>' "$DATA/admin.html" | head -n 1)"

echo "-- hearth doctor"
$HEARTH doctor || fail "hearth doctor reported a problem"

kill $HUB; wait $HUB 2>/dev/null || true
trap - EXIT
echo "SMOKE OK"
