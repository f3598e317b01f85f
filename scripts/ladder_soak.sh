#!/usr/bin/env bash
# A ladder run for a long time on one referee (docs/ladder.md, *A long
# run*): reference bots of known strength (random < greedy < builder), a
# bot that crashes and is restarted, one that stalls, one that publishes a
# new version now and then, one that leaves and comes back; the referee is
# killed (kill -9) and restarted now and then. At the end the ladder is
# paused, its running games played out, and the referee's leaderboard is
# compared with `cassino stats --ladder` over the records (they must be
# equal), and every record is verified.
#
#   bash scripts/ladder_soak.sh [--minutes M] [--kill-every S]
#                               [--max-pair-games N] [--max-bot-games N]
#                               [--think-ms MS] [--dir DIR] [--resume]
#
# Defaults: 60 minutes, a kill -9 every 900 s, pairs capped at 30 games an
# hour, a bot account at 240 games an hour (the ladder's default), a fresh
# directory under /tmp. With --resume, DIR holds an earlier run: the same
# referee database, ladder and bot accounts go on (the ladder, paused at
# the end of that run, is resumed; `ver` publishes the version after its
# last), so that runs add up to one long run of one ladder. By default
# the bots move at once, so they reach those caps within minutes and the
# ladder then waits for new versions or the window to move on; large caps
# keep it busy, so that every kill hits running games. --think-ms MS makes
# every bot wait MS before each move (cassino-bot --think-ms), so that a
# long run paces like a season instead. Each kill is logged with the ladder's games running at that
# moment. The report (summary.txt) and logs stay in the directory. Needs
# the build's cassino-referee, cassino and cassino-bot (BUILD, default
# build/).
# Every process it starts is stopped by its own id at the end.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
BUILD="${BUILD:-$ROOT/build}"
MINUTES=60
KILL_EVERY=900
MAX_PAIR_GAMES=30
MAX_BOT_GAMES=240
THINK_MS=0
DIR=""
RESUME=0
while (($#)); do
  case "$1" in
    --minutes) MINUTES="$2"; shift 2 ;;
    --kill-every) KILL_EVERY="$2"; shift 2 ;;
    --max-pair-games) MAX_PAIR_GAMES="$2"; shift 2 ;;
    --max-bot-games) MAX_BOT_GAMES="$2"; shift 2 ;;
    --think-ms) THINK_MS="$2"; shift 2 ;;
    --dir) DIR="$2"; shift 2 ;;
    --resume) RESUME=1; shift ;;
    *) echo "usage: $0 [--minutes M] [--kill-every S] [--max-pair-games N] [--max-bot-games N] [--think-ms MS] [--dir DIR] [--resume]" >&2; exit 2 ;;
  esac
done
DIR="${DIR:-$(mktemp -d /tmp/ladder-soak.XXXXXX)}"
mkdir -p "$DIR"
cd "$DIR"
REFEREE="$BUILD/referee/cassino-referee"
CLI="$BUILD/tools/cassino"
BOT="$BUILD/tools/bots/cassino-bot"
LADDER=soak
echo "soak-admin-token" > admin
export CASSINO_ADMIN_TOKEN=soak-admin-token

log() { echo "$(date -u +%FT%TZ) $*" | tee -a events.log; }

PORT=""
REF_PID=""
start_referee() {
  rm -f port
  "$REFEREE" --listen "127.0.0.1:${PORT:-0}" --port-file port --db soak.db \
    --admin-token-file admin >> referee.log 2>&1 &
  REF_PID=$!
  for _ in $(seq 200); do [[ -s port ]] && break; sleep 0.1; done
  PORT=$(cat port)
  export CASSINO_ADDRESS="127.0.0.1:$PORT"
  log "referee started (pid $REF_PID, port $PORT)"
}

# Games running, plus those ended and not yet rated (0: settled).
games_running() {
  "$CLI" ladder show "$LADDER" --format json |
    python3 -c "import json,sys; l = json.load(sys.stdin)['ladder']; print(l['games_running'] + l['games_unrated'])"
}

declare -A BOT_PID
start_bot() {  # NAME STRATEGY VERSION [extra flags...]
  local name=$1 strategy=$2 version=$3
  shift 3
  "$BOT" --lobby --key "$(cat "$name.key")" --capacity 2 --ladder "$LADDER" \
    --version "$version" --strategy "$strategy" --seed $RANDOM \
    --max-retries 100000 --think-ms "$THINK_MS" "$@" >> "$name.out" 2>> "$name.err" &
  BOT_PID[$name]=$!
  log "bot $name ($strategy, version $version) started (pid ${BOT_PID[$name]})"
}
stop_bot() {
  local name=$1
  if [[ -n "${BOT_PID[$name]:-}" ]]; then
    kill "${BOT_PID[$name]}" 2> /dev/null || true
    wait "${BOT_PID[$name]}" 2> /dev/null || true
    BOT_PID[$name]=""
  fi
}
alive() { [[ -n "${BOT_PID[$1]:-}" ]] && kill -0 "${BOT_PID[$1]}" 2> /dev/null; }

cleanup() {
  for name in "${!BOT_PID[@]}"; do stop_bot "$name"; done
  if [[ -n "$REF_PID" ]]; then kill "$REF_PID" 2> /dev/null || true; wait "$REF_PID" 2> /dev/null || true; fi
}
trap cleanup EXIT

if ((RESUME)); then
  [[ -f soak.db ]] || { echo "--resume: no soak.db in $DIR" >&2; exit 2; }
  [[ -f summary.txt ]] && mv summary.txt "summary-$(date -u +%H%M%S).txt"
  start_referee
  "$CLI" ladder resume "$LADDER" > /dev/null
  log "ladder $LADDER resumed"
else
  start_referee
  BOTS=(rnd grd bld crash stall ver flaky)
  for name in "${BOTS[@]}"; do
    "$CLI" bot register "$name" --format json |
      python3 -c "import json,sys; print(json.load(sys.stdin)['key'])" > "$name.key"
  done
  "$CLI" ladder create "$LADDER" --per-move-ms 2000 --bank-ms 10000 \
    --max-pair-games "$MAX_PAIR_GAMES" --max-bot-games "$MAX_BOT_GAMES" \
    --probation-faults 3 --probation-ms 120000 > /dev/null
  log "ladder $LADDER created"
fi

start_bot rnd random v1
start_bot grd greedy v1
start_bot bld builder v1
start_bot crash builder v1 --fault crash --fault-after 20
start_bot stall greedy v1 --fault stall --fault-after 80
VERSION=1
if ((RESUME)); then  # the version after the last one `ver` published
  last=$(grep -o 'bot ver ([a-z]*, version v[0-9]*)' events.log | tail -1 |
    grep -o '[0-9]*)$' | tr -d ')')
  VERSION=$((${last:-0} + 1))
fi
start_bot ver "$([[ $((VERSION % 2)) == 0 ]] && echo builder || echo greedy)" "v$VERSION"
start_bot flaky greedy v1

END=$((SECONDS + MINUTES * 60))
NEXT_KILL=$((SECONDS + KILL_EVERY))
NEXT_VERSION=$((SECONDS + 600))
NEXT_FLAKE=$((SECONDS + 300))
KILLS=0
while ((SECONDS < END)); do
  sleep 10
  if ((SECONDS >= NEXT_KILL)); then
    running=$(games_running || echo "?")
    kill -9 "$REF_PID"; wait "$REF_PID" 2> /dev/null || true
    KILLS=$((KILLS + 1))
    log "referee killed (kill -9), #$KILLS, $running ladder game(s) running"
    sleep 2
    start_referee
    NEXT_KILL=$((SECONDS + KILL_EVERY))
  fi
  # The crashing bot is restarted by its "supervisor" a minute after it dies.
  if ! alive crash; then
    if [[ -z "${CRASHED_AT:-}" ]]; then CRASHED_AT=$SECONDS; log "bot crash has crashed"; fi
    if ((SECONDS - CRASHED_AT >= 60)); then
      CRASHED_AT=""
      start_bot crash builder v1 --fault crash --fault-after 20
    fi
  fi
  if ((SECONDS >= NEXT_VERSION)); then
    stop_bot ver
    VERSION=$((VERSION + 1))
    strategy=$([[ $((VERSION % 2)) == 0 ]] && echo builder || echo greedy)
    start_bot ver "$strategy" "v$VERSION"
    NEXT_VERSION=$((SECONDS + 600))
  fi
  if ((SECONDS >= NEXT_FLAKE)); then
    if alive flaky; then stop_bot flaky; log "bot flaky left"; else start_bot flaky greedy v1; fi
    NEXT_FLAKE=$((SECONDS + 300))
  fi
  if ((SECONDS % 300 < 10)); then
    "$CLI" ladder leaderboard "$LADDER" --all-versions >> leaderboards.log 2>&1 || true
  fi
done

log "pausing the ladder; playing out its running games"
"$CLI" ladder pause "$LADDER" --reason "end of the soak" > /dev/null
for _ in $(seq 600); do
  running=$(games_running)
  [[ "$running" == 0 ]] && break
  sleep 1
done
"$CLI" ladder leaderboard "$LADDER" --all-versions --format json > referee_board.json
"$CLI" stats soak.db --ladder "$LADDER" --all-versions --format json > stats_board.json
"$CLI" ladder show "$LADDER" > ladder.txt
python3 - << 'EOF' > compare.txt
import json
ref = json.load(open("referee_board.json"))["entries"]
st = json.load(open("stats_board.json"))["leaderboard"]
ok = len(ref) == len(st)
for r, s in zip(ref, st):
    for a, b in (("rank", "rank"), ("bot", "bot"), ("mu", "mu"), ("sigma", "sigma"),
                 ("games", "games"), ("wins", "wins"), ("losses", "losses"),
                 ("draws", "draws")):
        if r.get(a, 0) != s.get(b, 0):
            ok = False
            print("differs:", r.get("bot"), a, r.get(a), s.get(b))
print("referee leaderboard == cassino stats --ladder:", "yes" if ok else "NO",
      f"({len(ref)} rows)")
EOF
"$CLI" verify soak.db > verify.txt 2>&1 || true
{
  echo "ladder soak: $MINUTES minutes$( ((RESUME)) && echo " more, resumed from the run before" || true), $KILLS kill -9 of the referee, pairs capped at $MAX_PAIR_GAMES an hour, bots at $MAX_BOT_GAMES"
  grep "referee killed" events.log | sed 's/^/  /'
  cat ladder.txt
  echo
  "$CLI" ladder leaderboard "$LADDER" --all-versions
  echo
  cat compare.txt
  tail -3 verify.txt
  echo
  echo "probations and releases (referee log):"
  grep -E "probation" referee.log | sed 's/^/  /' | tail -20
  echo "crashes: $(grep -c 'crashing on purpose' crash.err || true)"
} > summary.txt
cat summary.txt
