#!/bin/sh
# A small external AI for the robot game in POSIX sh + awk, to start your own from.
#
# Started in a working directory holding board.txt, cards.txt (8 cards) and bot.txt ("x y F"),
# with the level (easy, normal or hard) as $1.  Writes the 5 cards it plays to ccards.txt.
#
# Strategy: the reference AI plays the first five cards as dealt.  This one also goes through
# the hand in dealt order, but skips a card whose own movement (walls and belts ignored) would
# drive the robot into a hole or, on hard, off the board -- unless no safe card is left.
set -eu
level=${1:-normal}

awk -v level="$level" '
FILENAME == "board.txt" {
    if (FNR == 1) { width = $1 + 0; height = $2 + 0; next }
    row[FNR - 2] = $0; next
}
FILENAME == "bot.txt" { x = $1 + 0; y = $2 + 0; facing = $3; next }
FILENAME == "cards.txt" && NF > 0 { hand[++n] = $0; next }

# 1 when the tile (tx, ty) kills a robot entering it.
function deadly(tx, ty) {
    if (tx < 0 || ty < 0 || tx >= width || ty >= height) return level == "hard"
    return level != "easy" && substr(row[ty], tx + 1, 1) == "H"
}
function left_of(f) { return f == "U" ? "L" : f == "L" ? "D" : f == "D" ? "R" : "U" }
function back_of(f) { return f == "U" ? "D" : f == "D" ? "U" : f == "L" ? "R" : "L" }
# Play card c from (x, y, facing) into (nx, ny, nf); returns 1 when the robot would die.
function play(c,    steps, dir, i, sx, sy) {
    nx = x; ny = y; nf = facing
    if (c == "RL") { nf = left_of(facing); return 0 }
    if (c == "RU") { nf = back_of(facing); return 0 }
    if (c == "RR") { nf = back_of(left_of(facing)); return 0 }
    if (c == "MB") { steps = 1; dir = back_of(facing) } else { steps = substr(c, 4, 1) + 0; dir = facing }
    for (i = 1; i <= steps; i++) {
        sx = nx + (dir == "R") - (dir == "L"); sy = ny + (dir == "D") - (dir == "U")
        if (deadly(sx, sy)) return 1
        if (sx >= 0 && sy >= 0 && sx < width && sy < height) { nx = sx; ny = sy }
    }
    return 0
}
END {
    for (k = 1; k <= 5; k++) {
        pick = 0
        for (i = 1; i <= n; i++) if (!used[i] && !play(hand[i])) { pick = i; break }
        if (!pick) for (i = 1; i <= n; i++) if (!used[i]) { pick = i; break }
        used[pick] = 1
        play(hand[pick]); x = nx; y = ny; facing = nf
        print hand[pick] > "ccards.txt"
    }
}
' board.txt bot.txt cards.txt
echo "level $level: chose $(tr '\n' ' ' < ccards.txt)"
