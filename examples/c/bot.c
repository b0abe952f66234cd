/*
 * A small external AI for the robot game in C (C99, standard library only), to start your own from.
 *
 * Build it once, then give the program (not this source file) to --ai:
 *
 *     cc -std=c99 -O2 -Wall -Wextra -o examples/c/bot examples/c/bot.c
 *     robots-engine play gameboards/chop.dat --ai examples/c/bot --level hard --out /tmp/game
 *
 * The engine starts it every round in a fresh working directory (not the folder the program lives
 * in) holding
 *     board.txt   the board ("W H", then H rows of exactly W characters),
 *     cards.txt   the 8 cards dealt this round, one per line ("MF 1", "MB", "RL", ...),
 *     bot.txt     the robot: "x y F" (F = L R U D; x grows right, y grows down, 0-based),
 * with the level (easy, normal or hard) as its only argument.  It must write the 5 cards it plays,
 * in order, one per line, to ccards.txt and exit with status 0 within the time limit.  What it
 * prints (stdout and stderr) goes to the game's ai.log and rounds.jsonl.
 *
 * Strategy: it simulates the rules of docs/rules.md completely (walls, holes, the edge, oil,
 * belts, pushers, crushers, rotators), so it knows where any card leaves the robot.  From that it
 * counts, for every pose (x, y, facing), the fewest cards that bring the robot from there to a goal
 * if any card could be drawn (a breadth-first search backwards from the goal).  Then it tries every
 * ordered choice of 5 of the 8 cards and plays the one that reaches a goal soonest or, failing
 * that, ends alive on the pose with the fewest cards still needed.  It prints its choice and the
 * pose it expects after it, so a wrong simulation shows in ai.log as a round that ended elsewhere.
 *
 * The search table is rebuilt every round (a few milliseconds on the shipped boards); a bigger AI
 * could keep it in its working directory, whose files are carried from round to round of a game.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { LEFT, RIGHT, UP, DOWN };                  /* directions, in the order of "LRUD" */
enum { ALIVE, DESTROYED, FINISHED };              /* the robot's state */
enum { EASY, NORMAL, HARD };                      /* levels */
enum { MF1, MF2, MF3, MB, RL, RR, RU, NCARDS };   /* card kinds */

static const char *const CARD_NAME[NCARDS] = {"MF 1", "MF 2", "MF 3", "MB", "RL", "RR", "RU"};
static const char DIRECTION_CHAR[] = "LRUD";
static const int DX[4] = {-1, 1, 0, 0}, DY[4] = {0, 0, -1, 1};
static const int WALL_BIT[4] = {1, 2, 4, 8};      /* the side's bit in a wall tile 'a'..'p' */

typedef struct { int x, y, facing, state; } Robot;

static int width, height, level;
static char *board;                               /* width * height tile characters */

static int left_of(int d) { return d == UP ? LEFT : d == LEFT ? DOWN : d == DOWN ? RIGHT : UP; }
static int right_of(int d) { return d == UP ? RIGHT : d == RIGHT ? DOWN : d == DOWN ? LEFT : UP; }
static int opposite(int d) { return d == UP ? DOWN : d == DOWN ? UP : d == LEFT ? RIGHT : LEFT; }
static char tile(int x, int y) { return board[y * width + x]; }

/* The wall bits of a tile: written walls, a pusher's back, a crusher's jaws (none on easy). */
static int walls(int x, int y)
{
    char c = tile(x, y);
    if (c >= 'a' && c <= 'p') return c - 'a';
    switch (c) {
    case 'C': return 2;                            /* pushes left: wall on the right */
    case 'D': return 1;
    case 'E': return 8;
    case 'F': return 4;
    case 'M': return level == EASY ? 0 : 1 | 2;
    case 'N': return level == EASY ? 0 : 4 | 8;
    default: return 0;
    }
}

static int is_oil(int x, int y) { return level != EASY && tile(x, y) == 'O'; }

static int belt_direction(int x, int y)
{
    switch (tile(x, y)) {
    case '<': return LEFT;
    case '>': return RIGHT;
    case '^': return UP;
    case 'v': return DOWN;
    default: return -1;
    }
}

/* One step in direction d, sliding on over oil; returns 1 when the robot moved at all. */
static int step(Robot *r, int d)
{
    int moved = 0;
    for (;;) {
        int nx = r->x + DX[d], ny = r->y + DY[d];
        if (walls(r->x, r->y) & WALL_BIT[d]) return moved;
        if (nx < 0 || ny < 0 || nx >= width || ny >= height) {
            if (level != HARD) return moved;       /* the edge is a wall */
            r->x = nx, r->y = ny, r->state = DESTROYED;
            return 1;
        }
        if (walls(nx, ny) & WALL_BIT[opposite(d)]) return moved;
        r->x = nx, r->y = ny, moved = 1;
        if (tile(nx, ny) == 'Z') { r->state = FINISHED; return 1; }
        if (level != EASY && tile(nx, ny) == 'H') { r->state = DESTROYED; return 1; }
        if (!is_oil(nx, ny)) return 1;
    }
}

static int turn(int facing, int card)
{
    return card == RL ? left_of(facing) : card == RR ? right_of(facing) : opposite(facing);
}

/* One card and the factory's phases after it (docs/rules.md, "Playing one card"). */
static void play(Robot *r, int card)
{
    if (card <= MF3) {
        for (int i = 0; i <= card - MF1 && r->state == ALIVE; i++) step(r, r->facing);
    } else if (card == MB) {
        step(r, opposite(r->facing));
    } else {
        r->facing = turn(r->facing, card);
        if (is_oil(r->x, r->y)) r->facing = turn(r->facing, card);   /* a turn on oil is doubled */
    }
    if (r->state != ALIVE) return;

    int belt = belt_direction(r->x, r->y);         /* 2. conveyors */
    if (belt >= 0 && step(r, belt)) {
        if (r->state != ALIVE) return;
        int next = belt_direction(r->x, r->y);
        if (next == left_of(belt)) r->facing = left_of(r->facing);
        else if (next == right_of(belt)) r->facing = right_of(r->facing);
    }

    char c = tile(r->x, r->y);                     /* 3. pushers and crushers */
    if (level != EASY && (c == 'M' || c == 'N')) { r->state = DESTROYED; return; }
    if (c == 'C') step(r, LEFT);
    else if (c == 'D') step(r, RIGHT);
    else if (c == 'E') step(r, UP);
    else if (c == 'F') step(r, DOWN);
    if (r->state != ALIVE) return;

    c = tile(r->x, r->y);                          /* 4. rotators */
    if (c == 'L') r->facing = left_of(r->facing);
    else if (c == 'R') r->facing = right_of(r->facing);
}

static void fail(const char *what)
{
    fprintf(stderr, "bot: %s\n", what);
    exit(1);                                       /* the engine reports the exit status and this line */
}

static FILE *open_input(const char *name)
{
    FILE *f = fopen(name, "r");
    if (!f) { fprintf(stderr, "bot: cannot open %s\n", name); exit(1); }
    return f;
}

static void read_board(void)
{
    char line[4096];                               /* boards are at most 1000 wide */
    FILE *f = open_input("board.txt");
    if (!fgets(line, sizeof line, f) || sscanf(line, "%d %d", &width, &height) != 2 || width < 1 || height < 1)
        fail("board.txt: line 1 is not 'W H'");
    board = malloc((size_t)width * height);
    if (!board) fail("out of memory");
    memset(board, ' ', (size_t)width * height);
    for (int y = 0; y < height && fgets(line, sizeof line, f); y++)
        for (int x = 0; x < width && line[x] && line[x] != '\n' && line[x] != '\r'; x++)
            board[y * width + x] = line[x];
    fclose(f);
}

static Robot read_robot(void)
{
    Robot r = {0, 0, 0, ALIVE};
    char facing = 0;
    FILE *f = open_input("bot.txt");
    if (fscanf(f, "%d %d %c", &r.x, &r.y, &facing) != 3 || !facing || !strchr(DIRECTION_CHAR, facing))
        fail("bot.txt is not 'x y F'");
    fclose(f);
    r.facing = (int)(strchr(DIRECTION_CHAR, facing) - DIRECTION_CHAR);
    return r;
}

static int read_hand(int hand[8])
{
    char line[64];
    int n = 0;
    FILE *f = open_input("cards.txt");
    while (n < 8 && fgets(line, sizeof line, f)) {
        line[strcspn(line, "\r\n")] = 0;
        for (int c = 0; c < NCARDS; c++)
            if (strcmp(line, CARD_NAME[c]) == 0) { hand[n++] = c; break; }
    }
    fclose(f);
    if (n < 5) fail("cards.txt holds fewer than 5 cards");
    return n;
}

/* cards_needed[pose]: the fewest cards from that pose to a goal, -1 when none reaches it. */
static int *cards_needed;
static int pose_index(const Robot *r) { return (r->y * width + r->x) * 4 + r->facing; }

static void count_cards_needed(void)
{
    int poses = width * height * 4;
    int *next = malloc(sizeof *next * (size_t)poses * NCARDS); /* pose after each card, -1 dead, -2 goal */
    int *start = calloc((size_t)poses + 1, sizeof *start);      /* predecessors, grouped by pose */
    int *fill = calloc((size_t)poses, sizeof *fill);
    int *queue = malloc(sizeof *queue * (size_t)poses);
    cards_needed = malloc(sizeof *cards_needed * (size_t)poses);
    if (!next || !start || !fill || !queue || !cards_needed) fail("out of memory");
    int head = 0, tail = 0;
    for (int p = 0; p < poses; p++) {
        cards_needed[p] = -1;
        for (int c = 0; c < NCARDS; c++) {
            Robot r = {p / 4 % width, p / 4 / width, p % 4, ALIVE};
            play(&r, c);
            int to = r.state == DESTROYED ? -1 : r.state == FINISHED ? -2 : pose_index(&r);
            next[p * NCARDS + c] = to;
            if (to == -2 && cards_needed[p] < 0) cards_needed[p] = 1, queue[tail++] = p;
            if (to >= 0) start[to + 1]++;
        }
    }
    for (int p = 0; p < poses; p++) start[p + 1] += start[p];
    int *from = malloc(sizeof *from * ((size_t)start[poses] + 1));
    if (!from) fail("out of memory");
    for (int p = 0; p < poses; p++)
        for (int c = 0; c < NCARDS; c++) {
            int to = next[p * NCARDS + c];
            if (to >= 0) from[start[to] + fill[to]++] = p;
        }
    while (head < tail) {
        int to = queue[head++];
        for (int k = start[to]; k < start[to + 1]; k++)
            if (cards_needed[from[k]] < 0) cards_needed[from[k]] = cards_needed[to] + 1, queue[tail++] = from[k];
    }
    free(next), free(start), free(fill), free(queue), free(from);
}

/* A choice's worth: reaching a goal (sooner is better) beats staying alive (fewer cards still needed
 * is better), which beats being destroyed. */
static long worth(const Robot *r, int cards_played)
{
    if (r->state == FINISHED) return 2000000000L - cards_played;
    if (r->state == DESTROYED) return 0;
    int needed = cards_needed[pose_index(r)];
    return needed < 0 ? 1 : 1000000000L - needed;
}

int main(int argc, char **argv)
{
    setvbuf(stdout, NULL, _IOLBF, 0);              /* line-buffered: printed lines survive a crash */
    const char *level_word = argc > 1 ? argv[1] : "normal";
    level = strcmp(level_word, "easy") == 0 ? EASY : strcmp(level_word, "hard") == 0 ? HARD : NORMAL;
    read_board();
    Robot robot = read_robot();
    int hand[8], dealt = read_hand(hand);
    count_cards_needed();

    long best = -1;
    int pick[5] = {0, 1, 2, 3, 4}, order[5];
    Robot best_end = robot;
    for (order[0] = 0; order[0] < dealt; order[0]++)
    for (order[1] = 0; order[1] < dealt; order[1]++)
    for (order[2] = 0; order[2] < dealt; order[2]++)
    for (order[3] = 0; order[3] < dealt; order[3]++)
    for (order[4] = 0; order[4] < dealt; order[4]++) {
        int used = 0, twice = 0;
        for (int k = 0; k < 5; k++) twice |= used & (1 << order[k]), used |= 1 << order[k];
        if (twice) continue;                       /* each dealt card once */
        Robot r = robot;
        int played = 0;
        while (played < 5 && r.state == ALIVE) play(&r, hand[order[played++]]);
        long w = worth(&r, played);
        if (w > best) best = w, best_end = r, memcpy(pick, order, sizeof pick);
    }

    FILE *out = fopen("ccards.txt", "w");
    if (!out) fail("cannot write ccards.txt");
    for (int k = 0; k < 5; k++) fprintf(out, "%s\n", CARD_NAME[hand[pick[k]]]);
    if (fclose(out) != 0) fail("cannot write ccards.txt");

    static const char *const STATE_WORD[] = {"alive", "destroyed", "finished"};
    printf("level %s: chose", level_word);
    for (int k = 0; k < 5; k++) printf(" %s%s", CARD_NAME[hand[pick[k]]], k < 4 ? "," : "");
    printf("; expects %d %d %c %s\n", best_end.x, best_end.y, DIRECTION_CHAR[best_end.facing],
           STATE_WORD[best_end.state]);
    return 0;
}
