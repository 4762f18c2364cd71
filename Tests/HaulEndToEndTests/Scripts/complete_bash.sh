#!/usr/bin/env bash
# Asks an installed bash completion script what it offers for a command line, as a TAB at its end would:
#   complete_bash.sh SCRIPT 'haul --lim'
# Prints the candidates (COMPREPLY), one a line. The line is split at spaces (no quoting needed by the tests).
shopt -s extglob progcomp
# shellcheck disable=SC1090
source "$1"
COMP_LINE=$2
COMP_POINT=${#COMP_LINE}
read -ra COMP_WORDS <<< "$COMP_LINE"
[[ $COMP_LINE == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
COMP_TYPE=9
function="$(complete -p "${COMP_WORDS[0]}" | sed -E 's/.* -F ([^ ]+) .*/\1/')"
"$function" "${COMP_WORDS[0]}" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}" 2>/dev/null
printf '%s\n' "${COMPREPLY[@]}"
