#!/usr/bin/env bash
# `ioiwari package` as judges use it, as CTest runs it:
#
#   check_package.sh IOIWARI HARNESS PITS STARTS STRATEGIES
#
# writes the package of the ring of PITS pits (capacity 5) with --starts STARTS and --strategy
# STRATEGIES in both formats, runs every example submission of each through judge_harness,
# which judges as DOMjudge, problemtools and CMS were found to judge (its comment names each
# rule's source), and checks the interactor's own refusals: a test file or an answer file that
# is wrong is a judge error (status 1), never a verdict.
set -euo pipefail
ioiwari=$1 harness=$2 pits=$3 starts=$4 strategies=$5
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The harness runs a system's programs as users of their own when it is root: they enter here.
chmod 755 "$work"
fail() {
  echo "check_package: $*" >&2
  exit 1
}

for format in icpc cms; do
  "$ioiwari" package --format "$format" --out "$work/$format" --pits "$pits" --starts "$starts" \
    --strategy "$strategies" --quiet >"$work/$format.out" 2>"$work/$format.err" ||
    fail "package --format $format failed: $(cat "$work/$format.err")"
  grep -q "^wrote $work/$format: [0-9]* games, $format format\$" "$work/$format.out" ||
    fail "package --format $format said: $(cat "$work/$format.out")"
done
[ -f "$work/icpc/problem_statement/problem.en.tex" ] || fail "no statement in the icpc package"
# CMS shows contestants every test's outcome: the statement promises it.
grep -qx "feedback_level: full" "$work/cms/task.yaml" || fail "CMS's feedback is not full"
# One time limit: DOMjudge's file, CMS's task and the statement all say the same.
limit=$(cat "$work/icpc/.timelimit")
grep -Eqx "time_limit: $limit(\.0)?" "$work/cms/task.yaml" || fail "CMS's time limit is not $limit s"
grep -q "time limit of $limit seconds" "$work/icpc/problem_statement/problem.en.tex" ||
  fail "the statement does not say the time limit of $limit s"
head -c 8 "$work/cms/statement/statement.pdf" | grep -q '^%PDF-1.4' || fail "no PDF statement"
# Each statement states its system's scoring: on the problem package format every game, the
# sample's too, must be won; on CMS each of n_input games is worth 100 / n_input points.
games=$(find "$work/icpc/data" -name '*.in' | wc -l)
grep -q "Your program plays $games games, the example among them" \
  "$work/icpc/problem_statement/problem.en.tex" || fail "the icpc statement does not count $games games"
grep -q "It is accepted when it wins every one of them" "$work/icpc/problem_statement/problem.en.tex" ||
  fail "the icpc statement does not say that every game must be won"
grep -q "wins every one of them" "$work/icpc/problem_statement/problem.pdf" ||
  fail "DOMjudge's PDF statement does not say that every game must be won"
inputs=$(sed -n 's/^n_input: //p' "$work/cms/task.yaml")
grep -q "worth 100/$inputs points" "$work/cms/statement/statement.pdf" ||
  fail "the CMS statement does not give each of its $inputs games 100/$inputs points"
[ -f "$work/icpc/data/sample/001.interaction" ] || fail "no sample interaction"
# Each sample interaction is the dialogue of the accepted player: its '>' lines are its moves.
grep -qv '^[<>][0-9 ]*$' "$work/icpc/data/sample/001.interaction" &&
  fail "the sample interaction has a line that is neither '<' nor '>'"

"$harness" icpc "$work/icpc" "$work/run-$pits" --time-limit 3 >"$work/icpc.verdicts" ||
  fail "icpc: $(cat "$work/icpc.verdicts")"
"$harness" cms "$work/cms" "$work/run-$pits" --time-limit 3 >"$work/cms.verdicts" ||
  fail "cms: $(cat "$work/cms.verdicts")"
cat "$work/icpc.verdicts" "$work/cms.verdicts"
for verdicts in icpc cms; do
  [ "$(wc -l <"$work/$verdicts.verdicts")" -eq 5 ] || fail "$verdicts: not 5 submissions judged"
done

# The manager's own words, as CMS reads them: the outcome alone on standard output, one line
# for the contestant on standard error.
mkfifo "$work/u_to_m" "$work/m_to_u"
"$work/run-$pits/accepted-perfect" <"$work/m_to_u" >"$work/u_to_m" &
"$ioiwari" manage "$work/u_to_m" "$work/m_to_u" <"$work/cms/input/input0.txt" \
  >"$work/outcome" 2>"$work/message" || fail "manage failed: $(cat "$work/message")"
wait $!
[ "$(cat "$work/outcome")" = "1.00" ] || fail "the manager's outcome: $(cat "$work/outcome")"
grep -qx "player 1 wins [0-9]* to [0-9]*" "$work/message" ||
  fail "the manager's message: $(cat "$work/message")"

# The interactor's refusals: a judge error (1) with one line, and a judgemessage.txt.
game=$work/icpc/data/secret/001.in answer=$work/icpc/data/secret/001.ans
mkdir -p "$work/feedback"
expect_judge_error() {
  local what=$1 input=$2 ans=$3 status=0
  "$ioiwari" interact "$input" "$ans" "$work/feedback" </dev/null >/dev/null 2>"$work/err" ||
    status=$?
  [ "$status" -eq 1 ] || fail "$what: status $status, not 1 (a judge error)"
  [ "$(wc -l <"$work/err")" -eq 1 ] || fail "$what: not one line: $(cat "$work/err")"
  grep -q "^judge error: " "$work/feedback/judgemessage.txt" || fail "$what: no judgemessage.txt"
}
sed 's/^strategy .*/strategy clever/' "$game" >"$work/bad.in"
expect_judge_error "a bad strategy" "$work/bad.in" "$answer"
echo "value +100" >"$work/bad.ans"
expect_judge_error "a wrong value" "$game" "$work/bad.ans"
expect_judge_error "no such file" "$work/none.in" "$answer"
# Each end of a game: the interactor's exit (a win accepted, 42; a tie and a loss wrong answers,
# 43) and its message, and the CMS manager's outcome (the IOI's half point for a tie).
while IFS='|' read -r start value move verdict outcome message; do
  printf 'ioiwari game 1\npits 7\ncapacity 5\nstart %s\nstrategy optimal\nseed 1\n' "$start" \
    >"$work/end.in"
  echo "value $value" >"$work/end.ans"
  status=0
  echo "$move" | "$ioiwari" interact "$work/end.in" "$work/end.ans" "$work/feedback" \
    >/dev/null 2>"$work/err" || status=$?
  got="$status $(cat "$work/feedback/teammessage.txt")"
  [ "$got" = "$verdict $message" ] || fail "interact, $message: $got"
  rm -f "$work/u_to_m" "$work/m_to_u"
  mkfifo "$work/u_to_m" "$work/m_to_u"
  # The player writes its one move and closes its output, then reads to the end.
  sh -c "echo $move; exec >&-; cat >/dev/null" <"$work/m_to_u" >"$work/u_to_m" &
  player=$!
  got=$("$ioiwari" manage "$work/u_to_m" "$work/m_to_u" <"$work/end.in" 2>"$work/message") || {
    kill "$player"
    fail "manage, $message: $(cat "$work/message")"
  }
  wait "$player"
  got="$got $(cat "$work/message")"
  [ "$got" = "$outcome $message" ] || fail "manage, $message: $got"
done <<'ENDS'
0 0 0 0 0 1 1|+2|6|42|1.00|player 1 wins 2 to 0
1 0 0 1 0 0 0|0|1|43|0.50|player 1 ties 1 to 1
0 0 0 0 0 0 1|-1|7|43|0.00|player 1 loses 0 to 1
ENDS
# The input validator refuses what the interactor would.
status=0
"$ioiwari" validate <"$work/bad.in" 2>"$work/err" || status=$?
[ "$status" -eq 43 ] || fail "validate: a bad game file got $status, not 43"
grep -q "^ioiwari: validate: standard input: line 5: no strategy" "$work/err" ||
  fail "validate said: $(cat "$work/err")"
# A package is never written over an existing folder.
status=0
"$ioiwari" package --format icpc --out "$work/icpc" --quiet 2>"$work/err" || status=$?
[ "$status" -eq 2 ] || fail "package over an existing folder: status $status"
