#!/usr/bin/env zsh
# Asks zsh's completion system, in an interactive zsh under zpty with compinit and the installed _haul on fpath,
# what a TAB at the end of a command line offers:  complete_zsh.zsh FPATH_DIR 'haul --lim'
# Prints each candidate a line ("word -- description" when it has one). compadd is wrapped to print what the
# completion functions add; NUL lines mark where the completion starts and ends.
# After the technique of zsh-capture-completion (Valodim, MIT).
zmodload zsh/zpty || exit 1
export COMPDIR=$1
zpty z zsh -f -i
setopt rcquotes
local line
() {
    zpty -w z source $1
    repeat 4; do
        zpty -r z line
        [[ $line == ok* ]] && return
    done
    echo 'could not start the completing zsh' >&2
    exit 2
} =( <<< '
PROMPT=
fpath=($COMPDIR $fpath)
autoload -U compinit
compinit -u -d $COMPDIR/.zcompdump
bindkey ''^M'' undefined
bindkey ''^J'' undefined
bindkey ''^I'' complete-word
null-line () { echo -E - $''\0'' }
compprefuncs=( null-line )
comppostfuncs=( null-line exit )
zstyle '':completion:*'' list-grouped false
zstyle '':completion:*'' insert-tab false
zstyle '':completion:*'' list-separator ''''
zmodload zsh/zutil
compadd () {
    if [[ ${@[1,(i)(-|--)]} == *-(O|A|D)\ * ]]; then
        builtin compadd "$@"
        return $?
    fi
    typeset -a __hits __dscr __tmp
    if (( $@[(I)-d] )); then
        __tmp=${@[$[${@[(i)-d]}+1]]}
        if [[ $__tmp == \(* ]]; then
            eval "__dscr=$__tmp"
        else
            __dscr=( "${(@P)__tmp}" )
        fi
    fi
    builtin compadd -A __hits -D __dscr "$@"
    setopt localoptions norcexpandparam extendedglob
    typeset -A apre hpre hsuf asuf
    zparseopts -E P:=apre p:=hpre S:=asuf s:=hsuf
    if [[ -n $__hits ]]; then
        local dscr
        for i in {1..$#__hits}; do
            (( $#__dscr >= $i )) && dscr=" -- ${${__dscr[$i]}##$__hits[$i] #}" || dscr=
            echo -E - $IPREFIX$apre$hpre$__hits[$i]$hsuf$asuf$dscr
        done
    fi
}
echo ok')
zpty -w z "$2"$'\t'
integer tog=0
while zpty -r z; do :; done | while IFS= read -r line; do
    if [[ $line == *$'\0\r' ]]; then
        (( tog++ )) && exit 0 || continue
    fi
    (( tog )) && echo -E - ${line%$'\r'}
done
exit 2
