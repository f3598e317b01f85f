#!/usr/bin/env bash
# The main job: installs what is missing, builds, starts the referee on an
# embedded SQLite database (cassino.db), runs a short tournament among the
# reference bots (C++ random/greedy/builder, the Python and Node examples),
# verifies every record, and writes the statistics report (report.html),
# printing the standings and how to open the web viewer on the games.
#
# Environment: CASSINO_DB (default cassino.db), GAMES (games per pairing,
# default 4), BUILD_DIR (default ./build). Extra arguments go to
# `cassino tournament`.
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
install_deps
install_node_deps
build --target cassino cassino-referee cassino-bot
cd "$ROOT"
DB="${CASSINO_DB:-cassino.db}"
BOT="$BUILD_DIR/tools/bots/cassino-bot"
bots=(
  --bot "random=$BOT --strategy random -q"
  --bot "greedy=$BOT --strategy greedy -q"
  --bot "builder=$BOT --strategy builder -q"
  --bot "python=/usr/bin/python3 $ROOT/tools/bots/python/cassino_bot.py"
)
if [[ -d "$ROOT/tools/bots/node/node_modules" ]]; then
  bots+=(--bot "node=node $ROOT/tools/bots/node/cassino_bot.js")
fi
label="demo-$(date -u +%Y%m%dT%H%M%S)"
echo "==> tournament $label on $DB"
"$BUILD_DIR/tools/cassino" tournament --db "$DB" "${bots[@]}" \
  --games "${GAMES:-4}" --duplicate --concurrency 4 --label "$label" \
  --seed "$(printf '%064x' "$(date +%s)")" "$@"
echo
echo "==> verifying every record in $DB"
"$BUILD_DIR/tools/cassino" verify "$DB"
echo
echo "==> statistics of this tournament (report.html has the charts)"
"$BUILD_DIR/tools/cassino" stats "$DB" --tournament "$label" --format html --out report.html
"$BUILD_DIR/tools/cassino" stats "$DB" --tournament "$label"
echo
echo "==> watch the games in a browser (replays, live games, standings):"
echo "      $BUILD_DIR/tools/cassino serve $(realpath "$DB")"
echo "    then open http://127.0.0.1:8080/tournament/$label"
echo "    With the viewer running, run this script again in another terminal"
echo "    and open http://127.0.0.1:8080/live to watch its games live."
echo "    One game as a single HTML file:"
echo "      $BUILD_DIR/tools/cassino replay $(realpath "$DB") GAME --format html --out game.html"
