#!/usr/bin/env bash
# ioiwari-mpi on the processes of one machine, as CTest runs it.
#
#   check_cluster_solve.sh MPIEXEC IOIWARI IOIWARI_MPI single SINGLE PITS
#     Writes SINGLE, the table of the ring of PITS pits that `ioiwari solve` writes.
#   check_cluster_solve.sh MPIEXEC IOIWARI IOIWARI_MPI table SINGLE PITS RANKS
#     The table of the ring of PITS pits that RANKS processes write must be byte for byte SINGLE,
#     the one `ioiwari solve` wrote, and every process must have solved a share of it.
#   check_cluster_solve.sh MPIEXEC IOIWARI IOIWARI_MPI refusals RANKS
#     A bad command line and a path that cannot take the table: one line, from process 0 only,
#     and the documented status; nothing written.
set -euo pipefail
mpiexec=$1 ioiwari=$2 cluster=$3 what=$4
shift 4
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
flags=(--oversubscribe --bind-to none)
if [[ $(id -u) == 0 ]]; then flags+=(--allow-run-as-root); fi
# Containers often forbid the single-copy transfers of Open MPI's shared-memory transport.
export OMPI_MCA_btl_vader_single_copy_mechanism=none
fail() {
  echo "check_cluster_solve: $*" >&2
  exit 1
}

case $what in
  single)
    mkdir -p "$(dirname "$1")"
    "$ioiwari" solve --pits "$2" --out "$1" --quiet
    ;;
  table)
    single=$1 pits=$2 ranks=$3
    "$mpiexec" -np "$ranks" "${flags[@]}" "$cluster" solve --pits "$pits" \
      --out "$work/many.table" --quiet > "$work/report"
    cat "$work/report"
    cmp "$single" "$work/many.table" || fail "the tables differ"
    shares=$(grep -c '^process [0-9]*: [1-9][0-9]* classes in [1-9][0-9]* lines' "$work/report")
    [[ $shares == "$ranks" ]] || fail "$shares of $ranks processes solved a share"
    ;;
  refusals)
    ranks=$1
    status=0
    "$mpiexec" -np "$ranks" "${flags[@]}" "$cluster" solve --pits 2 --out "$work/x.table" \
      > "$work/out" 2> "$work/err" || status=$?
    [[ $status == 2 ]] || fail "a bad --pits: status $status, not 2"
    grep -qx "ioiwari-mpi: solve: --pits needs a number 3 to 16, not \"2\"" "$work/err" ||
      fail "a bad --pits: $(cat "$work/err")"
    [[ $(grep -c '^ioiwari-mpi:' "$work/err") == 1 ]] || fail "not one line: $(cat "$work/err")"
    [[ ! -s $work/out ]] || fail "output on a usage error"
    status=0
    mkdir "$work/dir"
    "$mpiexec" -np "$ranks" "${flags[@]}" "$cluster" solve --pits 5 --out "$work/dir" \
      > "$work/out" 2> "$work/err" || status=$?
    [[ $status == 7 ]] || fail "a directory as --out: status $status, not 7"
    grep -q "^ioiwari-mpi: solve: cannot write the table '$work/dir': " "$work/err" ||
      fail "a directory as --out: $(cat "$work/err")"
    [[ $(grep -c '^ioiwari-mpi:' "$work/err") == 1 ]] || fail "not one line: $(cat "$work/err")"
    [[ -z $(ls -A "$work/dir") ]] || fail "something was written in the directory"
    ;;
  *) fail "no check '$what'" ;;
esac
