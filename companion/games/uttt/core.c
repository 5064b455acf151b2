/* The compiled search of the Ultimate Tic-Tac-Toe computer opponent.
 *
 * The same MCTS-solver as `search.py`, step for step: same bitboards, same
 * move order, same random numbers (splitmix64), same arithmetic, so that for a
 * seed and an iteration budget both give the same move (a test holds them to
 * it).  Built with `-ffp-contract=off` so that no fused multiply-add changes a
 * UCB score by one ulp.  Loaded by `core.py` through ctypes; the call releases
 * the GIL, so the app's interface keeps running while the computer thinks.
 */
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define FULL 0x1FF
#define ONGOING (-1)
#define DRAW 2
#define NOT_PROVEN (-1)   /* proven: -1, or 0 / 1 / 2 for a loss / draw / win (halves) */

static uint8_t IS_WIN[512], LINE_FREE[512];
static uint16_t THREATS[512], WINNING_BOARDS[512];
static const uint16_t LINES[8] = {0007, 0070, 0700, 0111, 0222, 0444, 0421, 0124};
/* Fills the tables; core.py calls it once, when it loads the library. */
void uttt_init(void) {
    for (int m = 0; m < 512; m++) {
        IS_WIN[m] = 0; LINE_FREE[m] = 0; THREATS[m] = 0;
        for (int i = 0; i < 8; i++) {
            int lm = LINES[i];
            if ((m & lm) == lm) IS_WIN[m] = 1;
            if ((m & lm) == 0) LINE_FREE[m] = 1;
            if (__builtin_popcount(lm & m) == 2) THREATS[m] |= lm & ~m;
        }
    }
    for (int m = 0; m < 512; m++) {
        WINNING_BOARDS[m] = 0;
        for (int b = 0; b < 9; b++)
            if (!(m >> b & 1) && IS_WIN[m | 1 << b]) WINNING_BOARDS[m] |= 1 << b;
    }
}

typedef struct {
    uint16_t cells[18];  /* cells[p * 9 + b]: player p's marks in board b */
    uint16_t won[2], drawn;
    int8_t forced, player, result;
} Pos;

static inline void play(Pos *e, int action) {
    int board = action / 9, cell = action % 9, p = e->player;
    uint16_t mine = e->cells[p * 9 + board] | 1 << cell;
    e->cells[p * 9 + board] = mine;
    e->player = 1 - p;
    if (IS_WIN[mine]) {
        e->won[p] |= 1 << board;
        if (IS_WIN[e->won[p]]) { e->result = p; return; }
    } else if ((mine | e->cells[(1 - p) * 9 + board]) == FULL) {
        e->drawn |= 1 << board;
    } else {
        e->forced = ((e->won[0] | e->won[1] | e->drawn) >> cell & 1) ? -1 : cell;
        return;
    }
    if (!(LINE_FREE[e->won[1] | e->drawn] || LINE_FREE[e->won[0] | e->drawn])) {
        e->result = DRAW;
        return;
    }
    e->forced = ((e->won[0] | e->won[1] | e->drawn) >> cell & 1) ? -1 : cell;
}

static inline int add_board(const Pos *e, int b, uint8_t *out, int n) {
    for (unsigned m = FULL & ~(e->cells[b] | e->cells[9 + b]); m; m &= m - 1)
        out[n++] = b * 9 + __builtin_ctz(m);
    return n;
}

static inline int legal_moves(const Pos *e, uint8_t *out) {
    if (e->forced >= 0) return add_board(e, e->forced, out, 0);
    int n = 0;
    for (unsigned bs = FULL & ~(e->won[0] | e->won[1] | e->drawn); bs; bs &= bs - 1)
        n = add_board(e, __builtin_ctz(bs), out, n);
    return n;
}

static inline unsigned playable_mask(const Pos *e) {
    return e->forced >= 0 ? 1u << e->forced : FULL & ~(e->won[0] | e->won[1] | e->drawn);
}

/* The first move by `p` inside `boards` that wins the game at once, or -1. */
static inline int first_game_winning_move(const Pos *e, int p, unsigned boards) {
    for (unsigned bs = boards & WINNING_BOARDS[e->won[p]] & ~e->drawn & ~e->won[1 - p]; bs; bs &= bs - 1) {
        int b = __builtin_ctz(bs);
        unsigned mine = e->cells[p * 9 + b], theirs = e->cells[(1 - p) * 9 + b];
        unsigned threats = THREATS[mine] & FULL & ~(mine | theirs);
        if (threats) return b * 9 + __builtin_ctz(threats);
    }
    return -1;
}

/* Whether `move` lets the opponent win the game with their reply (see playout.py). */
static inline int hands_over(const Pos *e, int move, unsigned targets) {
    int p = e->player, q = 1 - p, b = move / 9, c = move % 9;
    unsigned mine = e->cells[p * 9 + b] | 1u << c, theirs = e->cells[q * 9 + b];
    unsigned closed = e->won[0] | e->won[1] | e->drawn;
    if (IS_WIN[mine] || (mine | theirs) == FULL) {
        closed |= 1u << b;
        targets &= ~(1u << b);
    }
    unsigned reachable = (closed >> c & 1) ? targets : targets & 1u << c;
    for (; reachable; reachable &= reachable - 1) {
        int d = __builtin_ctz(reachable);
        if (d != b) { mine = e->cells[p * 9 + d]; theirs = e->cells[q * 9 + d]; }
        if (THREATS[theirs] & FULL & ~(mine | theirs)) return 1;
    }
    return 0;
}

static inline uint64_t next_random(uint64_t *s) {
    uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static inline int below(uint64_t *s, int n) {  /* uniform in 0..n-1 */
    return (int)(((next_random(s) >> 32) * (uint64_t)n) >> 32);
}

static int random_playout(Pos *e, uint64_t *rng) {
    uint8_t moves[81];
    while (e->result == ONGOING) {
        int n = legal_moves(e, moves);
        play(e, moves[below(rng, n)]);
    }
    return e->result;
}

static int smart_playout(Pos *e, uint64_t *rng) {
    uint8_t moves[81], safe[81];
    while (e->result == ONGOING) {
        int p = e->player;
        unsigned open = FULL & ~(e->won[0] | e->won[1] | e->drawn);
        if (WINNING_BOARDS[e->won[p]] & open) {
            int win = first_game_winning_move(e, p, playable_mask(e));
            if (win >= 0) { play(e, win); break; }
        }
        int n = legal_moves(e, moves);
        int move = moves[below(rng, n)];
        unsigned targets = WINNING_BOARDS[e->won[1 - p]] & open;
        if (targets && hands_over(e, move, targets)) {
            int k = 0;
            for (int i = 0; i < n; i++)
                if (!hands_over(e, moves[i], targets)) safe[k++] = moves[i];
            if (k) move = safe[below(rng, k)];
        }
        play(e, move);
    }
    return e->result;
}

/* A rough value in [0, 1] of `move` for the player making it (see search.py). */
static double move_prior(const Pos *e, int move) {
    int p = e->player, q = 1 - p, b = move / 9, c = move % 9;
    unsigned mine = e->cells[p * 9 + b] | 1u << c, theirs = e->cells[q * 9 + b];
    double value = 0.5;
    unsigned closed = e->won[0] | e->won[1] | e->drawn;
    if (IS_WIN[mine]) {
        value += 0.2;
        closed |= 1u << b;
    } else if ((mine | theirs) == FULL) {
        closed |= 1u << b;
    } else if (THREATS[theirs] >> c & 1) {
        value += 0.1;
    }
    if (closed >> c & 1) return value - 0.2;
    if (c != b) { mine = e->cells[p * 9 + c]; theirs = e->cells[q * 9 + c]; }
    if (THREATS[theirs] & FULL & ~(mine | theirs)) value -= 0.15;
    return value;
}

typedef struct {
    double wins;       /* for the player who moved into this node */
    uint32_t visits;
    int32_t parent, first;  /* first child, -1 until the node's moves are listed */
    uint8_t move, mover, count, expanded;  /* children listed, children in the tree */
    int8_t proven;
} Node;

typedef struct {
    Node *nodes;
    long size, capacity;
    int solver, smart, prior_weight;
    double exploration;
    uint64_t rng;
    int failed;
} Tree;

static long new_nodes(Tree *t, int count) {
    if (t->size + count > t->capacity) {
        long capacity = t->capacity * 2 + count;
        Node *nodes = realloc(t->nodes, capacity * sizeof(Node));
        if (!nodes) { t->failed = 1; return -1; }
        t->nodes = nodes;
        t->capacity = capacity;
    }
    long first = t->size;
    t->size += count;
    return first;
}

static inline double reward2(int result, int player) {  /* in halves */
    return result == DRAW ? 1 : result == player ? 2 : 0;
}

/* List the moves of the ongoing position `e` as `index`'s children. */
static int list_children(Tree *t, long index, const Pos *e) {
    uint8_t moves[81];
    int n;
    int win = t->solver ? first_game_winning_move(e, e->player, playable_mask(e)) : -1;
    if (win >= 0) { moves[0] = win; n = 1; }  /* one game-winning move settles the node */
    else n = legal_moves(e, moves);
    long first = new_nodes(t, n);
    if (first < 0) return 0;
    for (int i = 0; i < n; i++) {
        Node *ch = &t->nodes[first + i];
        ch->wins = 0; ch->visits = 0; ch->parent = (int32_t)index; ch->first = -1;
        ch->move = moves[i]; ch->mover = e->player; ch->count = 0; ch->expanded = 0;
        ch->proven = NOT_PROVEN;
    }
    Node *node = &t->nodes[index];
    node->first = (int32_t)first;
    node->count = n;
    return 1;
}

static long select_child(const Tree *t, const Node *node) {
    double log_n = log((double)node->visits);
    long best = -1;
    double best_score = -1.0;
    for (int i = 0; i < node->expanded; i++) {
        const Node *ch = &t->nodes[node->first + i];
        if (ch->proven != NOT_PROVEN) continue;
        double n = (double)ch->visits;
        double score = ch->wins / n + t->exploration * sqrt(log_n / n);
        if (score > best_score) { best = node->first + i; best_score = score; }
    }
    return best >= 0 ? best : node->first;
}

/* Set the node's proven value if its children decide it; 1 if it did. */
static int prove(Tree *t, Node *node) {
    if (node->proven != NOT_PROVEN) return 0;
    int best = -1, open = 0;
    for (int i = 0; i < node->expanded; i++) {
        int v = t->nodes[node->first + i].proven;
        if (v == 2) { node->proven = 0; return 1; }
        if (v == NOT_PROVEN) open = 1;
        else if (v > best) best = v;
    }
    if (node->expanded < node->count || open) return 0;
    node->proven = 2 - best;
    return 1;
}

static void iterate(Tree *t, const Pos *root) {
    Pos e = *root;
    long index = 0;
    while (e.result == ONGOING) {
        Node *node = &t->nodes[index];
        if (node->first < 0) {
            if (!list_children(t, index, &e)) return;
            node = &t->nodes[index];
        }
        if (node->expanded < node->count) {
            int i = node->expanded + below(&t->rng, node->count - node->expanded);
            Node *slot = &t->nodes[node->first + i], *next = &t->nodes[node->first + node->expanded];
            uint8_t move = slot->move;
            slot->move = next->move;
            next->move = move;
            index = node->first + node->expanded;
            node->expanded++;
            Node *child = &t->nodes[index];
            if (t->prior_weight) {
                child->visits = t->prior_weight;
                child->wins = move_prior(&e, move) * t->prior_weight;
            }
            play(&e, move);
            if (e.result != ONGOING && t->solver) child->proven = (int8_t)reward2(e.result, child->mover);
            break;
        }
        index = select_child(t, node);
        play(&e, t->nodes[index].move);
    }
    int result = e.result != ONGOING ? e.result
               : t->smart ? smart_playout(&e, &t->rng) : random_playout(&e, &t->rng);
    int proving = t->solver && t->nodes[index].proven != NOT_PROVEN;
    while (index >= 0) {
        Node *node = &t->nodes[index];
        node->visits++;
        node->wins += reward2(result, node->mover) * 0.5;
        if (proving && node->parent >= 0) proving = prove(t, &t->nodes[node->parent]);
        index = node->parent;
    }
}

static double now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

static int best_move(Tree *t, const Pos *root) {
    Node *r = &t->nodes[0];
    if (r->expanded == 0) {
        uint8_t moves[81];
        int n = legal_moves(root, moves);
        return moves[below(&t->rng, n)];
    }
    for (int i = 0; i < r->expanded; i++)
        if (t->nodes[r->first + i].proven == 2) return t->nodes[r->first + i].move;
    int hopeful = 0;
    for (int i = 0; i < r->expanded; i++) hopeful |= t->nodes[r->first + i].proven != 0;
    const Node *best = NULL;
    for (int i = 0; i < r->expanded; i++) {
        const Node *ch = &t->nodes[r->first + i];
        if (hopeful && ch->proven == 0) continue;
        if (!best || ch->visits > best->visits || (ch->visits == best->visits && ch->wins > best->wins))
            best = ch;
    }
    return best->move;
}

/* The move to play: MCTS from the position until `max_iterations` (< 0: no cap) or
 * `seconds` (< 0: no limit) runs out or the root is proven.  -1 if memory ran out
 * before the first iteration. */
int uttt_search(const uint16_t *cells, int won0, int won1, int drawn, int forced, int player,
                uint64_t seed, long max_iterations, double seconds, int solver, int smart,
                double exploration, int prior_weight, long *iterations_out) {
    Pos root;
    memcpy(root.cells, cells, sizeof root.cells);
    root.won[0] = won0; root.won[1] = won1; root.drawn = drawn;
    root.forced = forced; root.player = player; root.result = ONGOING;
    Tree t = {0};
    t.solver = solver; t.smart = smart; t.prior_weight = prior_weight;
    t.exploration = exploration; t.rng = seed;
    long r = new_nodes(&t, 1);
    if (r < 0) return -1;
    Node *rn = &t.nodes[0];
    rn->wins = 0; rn->visits = 0; rn->parent = -1; rn->first = -1; rn->move = 0;
    rn->mover = 1 - player; rn->count = 0; rn->expanded = 0; rn->proven = NOT_PROVEN;
    double deadline = seconds >= 0 ? now() + seconds : 0;
    long it = 0;
    while (t.nodes[0].proven == NOT_PROVEN && !t.failed) {
        if (max_iterations >= 0 && it >= max_iterations) break;
        if (seconds >= 0 && it % 64 == 0 && now() >= deadline) break;
        iterate(&t, &root);
        it++;
    }
    int move = best_move(&t, &root);
    free(t.nodes);
    if (iterations_out) *iterations_out = it;
    return move;
}

/* Uniformly random playouts from the empty board for `seconds`; how many were played. */
long uttt_random_playouts(double seconds, uint64_t seed) {
    uint64_t rng = seed;
    long count = 0;
    double end = now() + seconds;
    while (count % 256 != 0 || now() < end) {
        Pos e = {{0}, {0, 0}, 0, -1, 0, ONGOING};
        random_playout(&e, &rng);
        count++;
    }
    return count;
}
