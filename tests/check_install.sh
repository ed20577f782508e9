#!/usr/bin/env bash
# Installs the build in BUILD_DIR into a temporary prefix and checks the installed tree as a
# user meets it: a game runs from the installed binary, each puzzle answers, the manual pages
# render without a warning and name every command and option that --help lists, bash
# completion offers commands, options and strategies, and the documents are there.
# Usage: tests/check_install.sh BUILD_DIR
set -euo pipefail
build=$1
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
# Run as root, the referee runs each player as a user of its own: the tree must be theirs to
# read, as an installed tree is.
chmod 755 "$prefix"
fail() {
  echo "check_install: $*" >&2
  exit 1
}

cmake --install "$build" --prefix "$prefix" >/dev/null
bin=$prefix/bin
man1=$prefix/share/man/man1
completions=$prefix/share/bash-completion/completions

# A game, and a few refereed ones, from the installed binary.
moves=$(printf '0 0 0 0 0 1 1\n' | "$bin/ioiwari") || fail "the installed ioiwari did not play"
[ "$moves" = 6 ] || fail "the installed ioiwari played '$moves', not 6"
# A build with the sanitizers reserves more address space than the referee's data limit allows.
referee_flags=()
grep -q '^IOIWARI_SANITIZE:BOOL=ON' "$build/CMakeCache.txt" && referee_flags=(--no-data-limit)
"$bin/ioiwari" referee "${referee_flags[@]}" --starts 3 --strategy all --quiet -- "$bin/ioiwari" >/dev/null ||
  fail "the installed ioiwari did not win every refereed game"
[ "$(printf '8 2\n' | "$bin/take-fraction")" = 1 ] || fail "take-fraction"
[ "$(printf '2\n1 1\n0\n' | "$bin/end-nim")" = P ] || fail "end-nim"
[ "$(printf '1\n.\n0\n' | "$bin/stake-your-claim")" = "(0,0) 1" ] || fail "stake-your-claim"
[ "$(printf '0 0 0\n0 0 0\n0 0\n0 0\n0 0\n' | "$bin/twins-noughts-crosses" | tr '\n' ' ')" = "0 0 " ] ||
  fail "twins-noughts-crosses"

# The library, as a user of it builds against it: the documented example through the installed
# CMake package, and no header of the source tree on the way (the include path must be the
# installed one).
consumer=$(mktemp -d)
trap 'rm -rf "$prefix" "$consumer"' EXIT
here=$(cd "$(dirname "$0")" && pwd)
cmake -S "$here/negamax/consumer" -B "$consumer" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" \
  -DCMAKE_CXX_COMPILER="$(sed -n 's/^CMAKE_CXX_COMPILER:[A-Z]*=//p' "$build/CMakeCache.txt")" \
  >/dev/null || fail "find_package(negamax) did not find the installed library"
grep -q "$prefix/include" "$consumer/build.ninja" ||
  fail "the example was not built against the installed headers"
! grep -q "$here/../include" "$consumer/build.ninja" ||
  fail "the example was built against the source tree's headers"
cmake --build "$consumer" >/dev/null || fail "the example did not build against the installed library"
[ "$("$consumer/tic_tac_toe")" = "value 0, best square 0, 9 plies, 5478 positions" ] ||
  fail "the example built against the installed library did not solve tic-tac-toe"
[ -f "$prefix/include/negamax/conformance.hpp" ] || fail "the conformance check is not installed"

# The library alone, as library.md installs it: from a build tree configured and not built,
# which has no program to install.
lonely=$(mktemp -d)
trap 'rm -rf "$prefix" "$consumer" "$lonely"' EXIT
cmake -S "$here/.." -B "$lonely/build" -G Ninja -DIOIWARI_BUILD_TESTS=OFF >/dev/null ||
  fail "a build tree for the library alone was not configured"
cmake --install "$lonely/build" --component negamax --prefix "$lonely/prefix" >/dev/null ||
  fail "cmake --install --component negamax failed in a build tree with nothing built"
[ -f "$lonely/prefix/include/negamax/negamax.hpp" ] && \
  [ -f "$lonely/prefix/lib/cmake/negamax/negamaxConfig.cmake" ] ||
  fail "the library alone was not installed"
[ ! -e "$lonely/prefix/bin" ] || fail "installing the library alone installed programs"

# The manual pages render with no warning, as man and as groff see them.
for page in ioiwari ioiwari-puzzles; do
  warnings=$(MANWIDTH=80 man --warnings -l "$man1/$page.1" 2>&1 >/dev/null)
  [ -z "$warnings" ] || fail "man --warnings on $page.1: $warnings"
  groff -man -ww -z "$man1/$page.1" 2>&1 | grep . && fail "groff -ww warns on $page.1"
done
for puzzle in take-fraction stake-your-claim end-nim twins-noughts-crosses; do
  MANPATH=$prefix/share/man MANWIDTH=80 man "$puzzle" 2>/dev/null | grep -q "$puzzle" ||
    fail "man $puzzle does not open the puzzles' page"
done

# The page names every command that --help lists, and every option of each command's help.
page=$(MANWIDTH=80 man -l "$man1/ioiwari.1" 2>/dev/null)
listed=$("$bin/ioiwari" --help | sed -n '/^Commands:/,/^$/p' | awk '/^  [a-z]/ { print $1 }')
[ -n "$listed" ] || fail "--help lists no commands"
for command in $listed; do
  grep -qE "^       $command( |$)" <<<"$page" || fail "the man page has no entry for '$command'"
  for option in $("$bin/ioiwari" help "$command" | grep -oE -- '^  --[a-z][a-z-]*' | tr -d ' ' | sort -u); do
    grep -q -- "$option" <<<"$page" || fail "the man page does not name $command's $option"
  done
done

# ioiwari-mpi, where MPI was found: its page renders and names every option its help lists, and
# it solves a small ring as a job of one process (MPI's singleton start), to ioiwari's bytes.
if [ -x "$bin/ioiwari-mpi" ]; then
  warnings=$(MANWIDTH=80 man --warnings -l "$man1/ioiwari-mpi.1" 2>&1 >/dev/null)
  [ -z "$warnings" ] || fail "man --warnings on ioiwari-mpi.1: $warnings"
  page=$(MANWIDTH=80 man -l "$man1/ioiwari-mpi.1" 2>/dev/null)
  for option in $("$bin/ioiwari-mpi" --help | grep -oE -- '^  --[a-z][a-z-]*' | tr -d ' ' | sort -u); do
    grep -q -- "$option" <<<"$page" || fail "the ioiwari-mpi page does not name $option"
  done
  OMPI_MCA_btl_vader_single_copy_mechanism=none \
    "$bin/ioiwari-mpi" solve --pits 6 --quiet --out "$prefix/mpi.table" >/dev/null ||
    fail "the installed ioiwari-mpi did not solve 6 pits"
  "$bin/ioiwari" solve --pits 6 --quiet --out "$prefix/one.table" >/dev/null
  cmp -s "$prefix/mpi.table" "$prefix/one.table" || fail "ioiwari-mpi's table is not ioiwari's"
fi

# Completion: what a user gets after pressing Tab.
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); "_$0"
           printf "%s\n" "${COMPREPLY[@]}"' "$1" "$2" "${@:3}"
}
[ "$(complete_words ioiwari "$completions/ioiwari" ioiwari ref)" = referee ] ||
  fail "completion does not offer referee after 'ioiwari ref'"
[ "$(complete_words ioiwari "$completions/ioiwari" ioiwari opponent --strategy gr)" = greedy ] ||
  fail "completion does not offer greedy after --strategy gr"
[ "$(complete_words ioiwari "$completions/ioiwari" ioiwari referee --strategy optimal,w)" = \
  optimal,weakest ] || fail "completion does not complete a list of strategies"
for command in $listed; do
  offered=$(complete_words ioiwari "$completions/ioiwari" ioiwari "$command" -)
  for option in $("$bin/ioiwari" help "$command" | grep -oE -- '^  --[a-z][a-z-]*' | tr -d ' ' | sort -u); do
    grep -qx -- "$option" <<<"$offered" || fail "completion does not offer $command's $option"
  done
done
for puzzle in take-fraction stake-your-claim end-nim twins-noughts-crosses; do
  [ -f "$completions/$puzzle" ] || fail "no completion file for $puzzle"
  [ "$(complete_words ioiwari_puzzle "$completions/$puzzle" "$puzzle" --v)" = --version ] ||
    fail "completion of $puzzle"
done

# The documents.
for file in README.md LICENSE docs/rules.md docs/protocol.md docs/puzzles.md docs/table-format.md \
  docs/referee.md docs/library.md docs/json.md docs/architecture.md; do
  [ -s "$prefix/share/doc/ioiwari/$file" ] || fail "share/doc/ioiwari/$file is missing"
done
echo "check_install: the installed tree works ($prefix)"
