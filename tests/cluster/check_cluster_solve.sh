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
    # refused STATUS WHAT LINE ARGS...: ioiwari-mpi solve ARGS on RANKS processes exits STATUS
    # with one line on standard error that starts with LINE (a grep pattern), and no output.
    refused() {
      local want=$1 case=$2 line=$3 status=0
      shift 3
      "$mpiexec" -np "$ranks" "${flags[@]}" "$cluster" solve "$@" \
        > "$work/out" 2> "$work/err" || status=$?
      [[ $status == "$want" ]] || fail "$case: status $status, not $want"
      grep -q "^$line" "$work/err" || fail "$case: $(cat "$work/err")"
      [[ $(grep -c '^ioiwari-mpi:' "$work/err") == 1 ]] || fail "not one line: $(cat "$work/err")"
      [[ ! -s $work/out ]] || fail "$case: output on standard output"
    }
    refused 2 "a bad --pits" 'ioiwari-mpi: solve: --pits needs a number 3 to 16, not "2"$' \
      --pits 2 --out "$work/x.table"
    mkdir "$work/dir"
    refused 7 "a directory as --out" "ioiwari-mpi: solve: cannot write the table '$work/dir': " \
      --pits 5 --out "$work/dir"
    [[ -z $(ls -A "$work/dir") ]] || fail "something was written in the directory"
    [[ ! -e $work/x.table ]] || fail "a table was written on a usage error"
    ;;
  *) fail "no check '$what'" ;;
esac
