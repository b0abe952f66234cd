#!/bin/sh
# The smallest Tron bot: POSIX sh, answers AHEAD every round and reads until END (as the contest
# asks: a bot that is out must still wait for END).  A starting point for shell scripters.
while IFS= read -r line; do
    case $line in
        ROUND*) echo AHEAD ;;
        END) exit 0 ;;
    esac
done
