# bash completion for ioiwari and the four puzzle programs: commands, options, strategy names.
# Installed as share/bash-completion/completions/ioiwari (and under each puzzle's name); it
# needs nothing of the bash-completion package.

_ioiwari() {
  local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
  local commands="play opponent referee analyze starts bench solve verify convert interact manage
    validate package help"
  local ring="--pits --capacity --start-beads --start-range"
  local table="--table --trust-table"
  local strategies="optimal greedy random weakest"
  COMPREPLY=()
  if ((COMP_CWORD == 1)); then
    mapfile -t COMPREPLY < <(compgen -W "$commands --second --help --version $ring $table" -- "$cur")
    return
  fi
  local command=${COMP_WORDS[1]} i
  # After referee's "--" come the player's command and arguments.
  if [[ $command == referee ]]; then
    for ((i = 2; i < COMP_CWORD; i++)); do
      if [[ ${COMP_WORDS[i]} == -- ]]; then
        if ((i + 1 == COMP_CWORD)); then
          mapfile -t COMPREPLY < <(compgen -c -- "$cur")
        else
          mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        fi
        return
      fi
    done
  fi
  case $prev in
    --strategy)
      if [[ $command == referee || $command == package ]]; then
        # A comma-separated list: complete its last name.
        local done_part="" last=$cur
        if [[ $cur == *,* ]]; then
          done_part=${cur%,*},
          last=${cur##*,}
        fi
        mapfile -t COMPREPLY < <(compgen -P "$done_part" -W "$strategies all" -- "$last")
      else
        mapfile -t COMPREPLY < <(compgen -W "$strategies" -- "$cur")
      fi
      return
      ;;
    --starts)
      mapfile -t COMPREPLY < <(compgen -W "all classes" -- "$cur")
      return
      ;;
    --format)
      if [[ $command == solve || $command == convert ]]; then
        mapfile -t COMPREPLY < <(compgen -W "5 4" -- "$cur")
      else
        mapfile -t COMPREPLY < <(compgen -W "icpc cms" -- "$cur")
      fi
      return
      ;;
    --record | --replay | --table | --out)
      mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      return
      ;;
    --work)
      mapfile -t COMPREPLY < <(compgen -d -- "$cur")
      return
      ;;
    --pits)
      mapfile -t COMPREPLY < <(compgen -W "3 4 5 6 7 8 9 10 11 12 13" -- "$cur")
      return
      ;;
    --capacity)
      mapfile -t COMPREPLY < <(compgen -W "1 2 3 4 5 6 7 8 9" -- "$cur")
      return
      ;;
    --start | --seed | --runs | --jobs | --move-time | --game-time | --exit-time | --max-line | \
      --show | --start-beads | --start-range | --memory | --wall-factor | --fsize | --disk | --env)
      return # a value of the user's own
      ;;
  esac
  local options
  case $command in
    play) options="--first --second --start --seed --strategy --record --replay --no-color --help
                   $ring $table" ;;
    opponent) options="--start --seed --strategy --record --help $ring $table" ;;
    referee) options="--starts --strategy --seed --jobs --move-time --game-time --exit-time
                      --wall-factor --memory --no-data-limit --processes --fsize --disk --env
                      --dir --user --no-cgroups --isolate --no-isolate --max-line --show --json
                      --quiet --help -- $ring $table" ;;
    analyze) options="--json --help $ring $table" ;;
    starts) options="--classes --json --quiet --help $ring $table" ;;
    bench) options="--runs --negamax --json --quiet --help $ring" ;;
    solve) options="--out --format --memory --work --quiet --help $ring" ;;
    package) options="--format --out --starts --strategy --seed --quiet --help $ring" ;;
    interact | manage)
      if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "--help $table" -- "$cur")
      else
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      fi
      return
      ;;
    validate) options="--help" ;;
    convert)
      if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "--out --format --help" -- "$cur")
      else
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      fi
      return
      ;;
    verify)
      if [[ $prev == --work ]]; then
        mapfile -t COMPREPLY < <(compgen -d -- "$cur")
      elif [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "--memory --work --quiet --help" -- "$cur")
      else
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
      fi
      return
      ;;
    help)
      ((COMP_CWORD == 2)) && mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur")
      return
      ;;
    -*) options="--second $ring $table" ;; # the player's options
    *) return ;;
  esac
  mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
}
complete -F _ioiwari ioiwari

_ioiwari_puzzle() {
  mapfile -t COMPREPLY < <(compgen -W "--help --version" -- "${COMP_WORDS[COMP_CWORD]}")
}
complete -F _ioiwari_puzzle take-fraction stake-your-claim end-nim twins-noughts-crosses
