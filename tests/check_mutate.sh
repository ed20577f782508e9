#!/usr/bin/env bash
# scripts/mutate, on a toy of its own: which mutants it makes, each verdict (killed, survived,
# not built, over its time), the score, the file put back byte for byte after a run and after a
# stop, and its refusals.
#
#   tests/check_mutate.sh SCRIPTS/mutate
set -u
mutate=$(realpath "$1")
work=$(mktemp -d)
# Ends any test the script left running (by the ids they wrote), then removes the folder.
trap 'for p in $(cat "$work/notes/slow.pids" 2>/dev/null); do kill -KILL "$p" 2>/dev/null; done
      rm -rf "$work"' EXIT
fail() {
  echo "check_mutate: $*" >&2
  exit 1
}
cd "$work" || exit 1
# As root, the tests run as nobody (--user), who must reach the toy and write its notes.
as_user=()
if [ "$(id -u)" -eq 0 ]; then
  as_user=(--user nobody)
  chmod 755 "$work"
fi
mkdir -m 1777 notes
cat >score.cpp <<'TOY'
// A game's points, and a check that never asks for a negative count.
#include <cstdio>
#include <cstdlib>

int score(int wins, int ties) {
  static_assert(sizeof(int) == 4, "an int of 4 bytes");
  if (wins < 0) return 0;
  const int points = 4 * wins + 2 * ties;  // "2 * ties" in a comment is no mutant
  if (points >= 10) return points;
  return 0;
}

int main(int argc, char** argv) {
  if (argc != 3) return 2;
  std::printf("%d\n", score(std::atoi(argv[1]), std::atoi(argv[2])));
}
TOY
cp score.cpp score.original
cat >check <<'TOY'
#!/bin/sh
[ "$(./score 2 1)" = 10 ] && [ "$(./score 1 1)" = 0 ] && [ "$(./score 3 0)" = 12 ]
TOY
chmod +x check
build="c++ -o score score.cpp"

status=0
"$mutate" "${as_user[@]}" --build "$build" score.cpp:score -- ./check >out 2>err || status=$?
[ "$status" -eq 1 ] || fail "a run with survivors: status $status, not 1: $(cat err)"
cat >expected <<'OUT'
not built score.cpp:6:29: '==' -> '!='
not built score.cpp:6:32: 4 -> 5
SURVIVED  score.cpp:7:12: '<' -> '<='
SURVIVED  score.cpp:7:14: 0 -> 1
SURVIVED  score.cpp:7:24: 0 -> 1
killed    score.cpp:8:22: 4 -> 5
killed    score.cpp:8:31: '+' -> '-'
killed    score.cpp:8:33: 2 -> 3
killed    score.cpp:9:14: '>=' -> '>'
killed    score.cpp:9:17: 10 -> 11
killed    score.cpp:10:10: 0 -> 1
mutate: score.cpp:score
  6 killed of 9 built (67%), 3 survived, 2 not built
OUT
diff expected out >&2 || fail "the run's report differs (above)"
cmp -s score.cpp score.original || fail "score.cpp was not put back"
[ ! -e score.cpp.mutate-original ] || fail "the backup was left"

# --list runs nothing; the whole file has main's mutants too.
"$mutate" --list score.cpp:score -- false | tail -1 | grep -qx "11 mutants" || fail "--list"
[ "$("$mutate" --list score.cpp -- false | tail -1)" = "17 mutants" ] ||
  fail "--list of the file: $("$mutate" --list score.cpp -- false | tail -1)"
# --max takes an even sample; --quiet prints the survivors and the score.
"$mutate" "${as_user[@]}" --quiet --max 4 --build "$build" score.cpp:score -- ./check >out 2>&1
[ "$(cat out)" = "SURVIVED  score.cpp:7:12: '<' -> '<='
mutate: score.cpp:score
  2 killed of 3 built (67%), 1 survived, 1 not built" ] ||
  fail "--quiet --max 4: $(cat out)"

# A test that never ends on a mutant is stopped at --timeout, and the mutant counted killed.
cat >slow <<'TOY'
#!/bin/sh
cmp -s score.cpp score.original || { echo $$ >>notes/slow.pids; exec sleep 600; }
TOY
chmod +x slow
# (--max 2: the first mutant, which is not built, and the sixth.)
"$mutate" "${as_user[@]}" --quiet --max 2 --timeout 1 --build "$build" score.cpp:score -- ./slow \
  >out 2>&1 ||
  fail "a mutant over its time: $(cat out)"
grep -qx "  1 killed of 1 built (100%), 0 survived, 1 not built" out ||
  fail "a mutant over its time: $(cat out)"
ended() {  # every test that slept has ended, within 300 s of its SIGKILL
  local pid
  for pid in $(cat notes/slow.pids 2>/dev/null); do
    # (Killed, it may stay a zombie of a parent that does not reap: that is ended.)
    for _ in $(seq 1 3000); do
      grep -qs '^State:[[:space:]]*[^Z]' "/proc/$pid/status" || break
      sleep 0.1
    done
    grep -qs '^State:[[:space:]]*[^Z]' "/proc/$pid/status" && return 1
  done
  rm -f notes/slow.pids
}
ended || fail "the test over its time was left running"

# Stopped while a mutant is in place: the file is put back, and the status is the signal's.
"$mutate" "${as_user[@]}" --build "$build" score.cpp:score -- ./slow >out 2>&1 &
pid=$!
for _ in $(seq 1 3000); do
  [ -s notes/slow.pids ] && break
  sleep 0.1
done
[ -s notes/slow.pids ] || fail "no mutant's test ever ran"
cmp -s score.cpp score.original && fail "the mutant's test runs, and no mutant is in place"
# A mutant's test is running: stop the run.
kill -TERM "$pid"
status=0
wait "$pid" || status=$?
[ "$status" -eq 143 ] || fail "stopped: status $status, not 143: $(cat out)"
cmp -s score.cpp score.original || fail "stopped: score.cpp was not put back"
[ ! -e score.cpp.mutate-original ] || fail "stopped: the backup was left"
ended || fail "stopped: the test it was running was left running"

# Each run of the test has a folder of its own as TMPDIR, HOME and XDG_DATA_HOME, removed after
# it with what the test left there; as root, the test runs as nobody.
cat >home <<'TOY'
#!/bin/sh
echo "$TMPDIR $HOME $XDG_DATA_HOME $(id -u)" >>notes/homes
touch "$TMPDIR/left"
./check
TOY
chmod +x home
"$mutate" "${as_user[@]}" --quiet --max 3 --build "$build" score.cpp:score -- ./home >out 2>&1
[ "$(wc -l <notes/homes)" -eq 3 ] || fail "not 3 runs of the test (unmutated, and 2 mutants built)"
[ "$(cut -d" " -f1 notes/homes | sort -u | wc -l)" -eq 3 ] || fail "a folder used twice"
while read -r tmp home data uid; do
  [ "$tmp" = "$home" ] && [ "$tmp" = "$data" ] || fail "TMPDIR, HOME, XDG_DATA_HOME: $tmp $home $data"
  [ ! -e "$tmp" ] || fail "the test's folder $tmp was left"
  if [ "$(id -u)" -eq 0 ]; then
    [ "$uid" = "$(id -u nobody)" ] || fail "the test ran as $uid, not as nobody"
  fi
done <notes/homes
if [ "$(id -u)" -eq 0 ]; then
  "$mutate" --max 1 --build "$build" score.cpp:score -- ./check >out 2>err
  grep -q "^mutate: warning: mutants run as root" err || fail "no warning as root: $(cat err)"
fi

# Its refusals, status 2, one line each.
refused() {
  local what=$1 says=$2 status=0
  shift 2
  "$mutate" "${as_user[@]}" "$@" >out 2>err || status=$?
  [ "$status" -eq 2 ] || fail "$what: status $status, not 2"
  [ "$(wc -l <err)" -eq 1 ] || grep -q "^usage:" err || fail "$what: $(cat err)"
  grep -q "$says" err || fail "$what: said $(cat err)"
}
refused "no test command" "no test command" score.cpp:score
refused "no such function" "no definition of 'scores'" score.cpp:scores -- ./check
refused "no such file" "cannot read 'none.cpp'" none.cpp -- ./check
refused "a failing test" "fails before any mutation" --build "$build" score.cpp -- false
refused "a bad --max" "takes a number above 0" --max 0 score.cpp -- ./check
cp score.cpp score.cpp.mutate-original
refused "a killed run's backup" "a run was killed" score.cpp -- ./check
cmp -s score.cpp score.original || fail "a refusal changed score.cpp"
echo "check_mutate: every check passed"
