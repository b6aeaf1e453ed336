#!/usr/bin/env bash
# A small bot for Magic Jewelry over jewelbot's bot protocol (docs/bot-protocol.md), in bash
# alone: each column goes, unturned, onto the lowest stack it can reach.
#   jewelbot run --headless --frames 20000 --bot "bash examples/bots/lowest.sh"
set -u

read -r welcome || exit 0
echo '{"type":"hello","protocol":1,"name":"lowest.sh","events":["power_on","spawn","game_over"],"views":true}'

while read -r line; do
    [[ $line =~ \"type\":\"bye\" ]] && exit 0
    [[ $line =~ \"frame\":([0-9]+) ]] || continue
    frame=${BASH_REMATCH[1]}
    buttons='"-"'
    if [[ $line =~ \"power_on\" ]]; then
        # The title takes Start from frame 7 on.
        buttons='"-*8","S"'
    elif [[ $line =~ \"game_over\" ]]; then
        # The playfield fills for some 182 frames, then Start held resets; a new press starts.
        buttons='"-*200","S*10","-*30","S"'
    elif [[ $line =~ \"heights\":\[([0-9,]+)\] ]]; then
        IFS=, read -r -a heights <<< "${BASH_REMATCH[1]}"
        # The lowest stack, the nearest to the spawn column (3) among equals; walls of
        # stacks taller than 10 between are not crossed.
        target=3
        for x in 2 4 1 5 0; do
            step=$(( x < 3 ? -1 : 1 ))
            reachable=1
            for (( c = 3 + step; c != x + step; c += step )); do
                (( heights[c] > 10 )) && reachable=0
            done
            (( reachable && heights[x] < heights[target] )) && target=$x
        done
        if (( target < 3 )); then key=L; else key=R; fi
        moves=$(( target < 3 ? 3 - target : target - 3 ))
        # Down held through the spawn arms nothing: release it first.
        buttons='"-",'
        for (( i = 0; i < moves; i++ )); do buttons+="\"$key\",\"-\","; done
        buttons+='"D*40"'
    fi
    echo "{\"type\":\"answer\",\"frame\":$frame,\"buttons\":[$buttons]}"
done
