# bash completion for preempt(1).  The commands and each command's options
# are read from the tool's own help, so they stay what the tool accepts.
_preempt()
{
	local cur=${COMP_WORDS[COMP_CWORD]} cmd words
	if [ "$COMP_CWORD" -eq 1 ]; then
		words=$("${COMP_WORDS[0]}" help 2>/dev/null |
			awk '/^commands:/ { on = 1; next } on && /^  [a-z]/ { print $1 }')
		COMPREPLY=($(compgen -W "$words --version --help" -- "$cur"))
		return
	fi
	cmd=${COMP_WORDS[1]}
	case $cur in
	-*)
		words=$("${COMP_WORDS[0]}" "$cmd" --help 2>&1 |
			grep -oE -- '(^|[[ ,])--?[A-Za-z][A-Za-z0-9-]*' |
			sed -E 's/^[[ ,]//' | sort -u)
		COMPREPLY=($(compgen -W "$words" -- "$cur"))
		;;
	*)
		COMPREPLY=($(compgen -f -- "$cur"))
		;;
	esac
}
complete -F _preempt preempt
