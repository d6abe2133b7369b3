/* Alternating vanilla CFR (Zinkevich et al. 2007) over cfrviz's flat tree arrays, in plain C.
 *
 * The floor for cfrviz's numba kernel (cfrviz/solvers/_cfr_kernel.py): the same two passes per
 * player in the same order over the same nodes (the ones that are not terminal: forward in node
 * order for reach, backward level by level for values and regrets), the same regret matching and
 * average, the same floating-point operations in the same order. benchmarks/speed.py writes a tree's arrays to a file, runs this program and checks
 * that its regrets and strategy sums have the same bits as the kernel's.
 *
 *     cfr TREE_FILE ITERATIONS REPEATS
 *
 * TREE_FILE: "CFRVIZT3", then N, I, A, M, L and P (uint64), then actor[N] (uint8), infoset[N],
 * first_child[N], num_children[N] (uint64), chance_probability[N], payoff[N] (double),
 * infoset_player[I] (uint8), num_actions[I] (uint64), decision[M] (uint64: the nodes that are not
 * terminal, ascending), decision_start[L] (uint64: where each depth begins in decision, then M),
 * own_parent[I], own_action[I] and histories[I] (uint64: each set's own sequence and its number
 * of histories), all little-endian. P is 1 when the kernel prunes (perfect recall): each pass
 * then skips the subtrees below an opponent or chance edge of probability exactly 0. Prints one line per repeat: the CPU seconds of
 * ITERATIONS iterations (clock_gettime(CLOCK_PROCESS_CPUTIME_ID), reading the file excluded),
 * then the last root value and the sums of cumulative regret and strategy sum, to 17 digits.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* kind[n] is actor[n], but UNIFORM_CHANCE for a chance node whose outcomes are equally likely
 * (found once when the tree is read, as the kernel finds it once per call). */
enum { CHANCE = 2, TERMINAL = 3, UNIFORM_CHANCE = 4 };

typedef struct {
    uint64_t n, i, a, m, levels, prunable;
    uint8_t *actor, *kind;
    uint64_t *infoset, *first_child, *num_children;
    double *chance_probability, *payoff;
    uint8_t *infoset_player;
    uint64_t *num_actions, *decision, *decision_start, *own_parent, *own_action, *histories;
} Tree;

static void *read_array(FILE *f, uint64_t count, size_t size) {
    void *p = malloc(count * size + 1);
    if (!p || fread(p, size, count, f) != count) {
        fprintf(stderr, "cannot read the tree file\n");
        exit(2);
    }
    return p;
}

static Tree read_tree(const char *path) {
    Tree t;
    char magic[8];
    uint64_t counts[6];
    FILE *f = fopen(path, "rb");
    if (!f || fread(magic, 1, 8, f) != 8 || memcmp(magic, "CFRVIZT3", 8) != 0 || fread(counts, 8, 6, f) != 6) {
        fprintf(stderr, "%s is not a tree file\n", path);
        exit(2);
    }
    t.n = counts[0]; t.i = counts[1]; t.a = counts[2]; t.m = counts[3]; t.levels = counts[4]; t.prunable = counts[5];
    t.actor = read_array(f, t.n, 1);
    t.infoset = read_array(f, t.n, 8);
    t.first_child = read_array(f, t.n, 8);
    t.num_children = read_array(f, t.n, 8);
    t.chance_probability = read_array(f, t.n, 8);
    t.payoff = read_array(f, t.n, 8);
    t.infoset_player = read_array(f, t.i, 1);
    t.num_actions = read_array(f, t.i, 8);
    t.decision = read_array(f, t.m, 8);
    t.decision_start = read_array(f, t.levels, 8);
    t.own_parent = read_array(f, t.i, 8);
    t.own_action = read_array(f, t.i, 8);
    t.histories = read_array(f, t.i, 8);
    fclose(f);
    t.kind = malloc(t.n + 1);
    for (uint64_t n = 0; n < t.n; n++) {
        t.kind[n] = t.actor[n];
        if (t.actor[n] != CHANCE) continue;
        int uniform = 1;
        uint64_t c = t.first_child[n];
        for (uint64_t a = 1; a < t.num_children[n]; a++)
            if (t.chance_probability[c + a] != t.chance_probability[c]) uniform = 0;
        if (uniform) t.kind[n] = UNIFORM_CHANCE;
    }
    return t;
}

/* Node n's value from its children's, and at `player`'s node its regret update (the backward
 * step of both passes); returns 1 when it updated regrets. */
static inline int back_up(const Tree *t, uint64_t n, int player, const double *strategy, double *regret,
                          const double *reach, double *value) {
    const uint64_t A = t->a;
    uint8_t who = t->kind[n];
    uint64_t c = t->first_child[n], k = t->num_children[n];
    double v = 0.0;
    if (who == UNIFORM_CHANCE) {
        for (uint64_t a = 0; a < k; a++) v += value[c + a];
        value[n] = v / (double)k;
        return 0;
    }
    if (who == CHANCE) {
        for (uint64_t a = 0; a < k; a++) v += t->chance_probability[c + a] * value[c + a];
        value[n] = v;
        return 0;
    }
    uint64_t i = t->infoset[n];
    const double *row = strategy + i * A;
    for (uint64_t a = 0; a < k; a++) v += row[a] * value[c + a];
    value[n] = v;
    if (who != player) return 0;
    double *r = regret + i * A;
    if (who == 0) {
        double counterfactual = reach[3 * n + 1] * reach[3 * n + 2];
        for (uint64_t a = 0; a < k; a++) r[a] += counterfactual * (value[c + a] - v);
    } else {
        double counterfactual = reach[3 * n] * reach[3 * n + 2];
        for (uint64_t a = 0; a < k; a++) r[a] += counterfactual * (v - value[c + a]);
    }
    return 1;
}

/* One pass updating `player`'s regrets; returns player 1's root value. reach is [N][3]. */
static double traverse(const Tree *t, int player, const double *strategy, double *regret, double *own_reach,
                       double *reach, double *value) {
    const uint64_t A = t->a;
    reach[0] = reach[1] = reach[2] = 1.0;
    for (uint64_t j = 0; j < t->m; j++) {
        uint64_t n = t->decision[j];
        uint8_t who = t->kind[n];
        uint64_t first = t->first_child[n], k = t->num_children[n];
        double r0 = reach[3 * n], r1 = reach[3 * n + 1], rc = reach[3 * n + 2];
        if (who >= CHANCE) {
            for (uint64_t a = 0; a < k; a++) {
                uint64_t c = first + a;
                reach[3 * c] = r0; reach[3 * c + 1] = r1; reach[3 * c + 2] = rc * t->chance_probability[c];
            }
        } else if (who == 0) {
            const double *row = strategy + t->infoset[n] * A;
            for (uint64_t a = 0; a < k; a++) {
                uint64_t c = first + a;
                reach[3 * c] = r0 * row[a]; reach[3 * c + 1] = r1; reach[3 * c + 2] = rc;
            }
        } else {
            const double *row = strategy + t->infoset[n] * A;
            for (uint64_t a = 0; a < k; a++) {
                uint64_t c = first + a;
                reach[3 * c] = r0; reach[3 * c + 1] = r1 * row[a]; reach[3 * c + 2] = rc;
            }
        }
    }
    for (uint64_t level = t->levels - 1; level-- > 0;) {
        for (uint64_t j = t->decision_start[level]; j < t->decision_start[level + 1]; j++) {
            uint64_t n = t->decision[j];
            if (back_up(t, n, player, strategy, regret, reach, value))
                own_reach[t->infoset[n]] += reach[3 * n + t->kind[n]];
        }
    }
    return value[0];
}

/* The same pass over the nodes `player`'s counterfactual reach can reach (the kernel's _pruned_pass):
 * the forward pass lists live non-terminal nodes depth by depth (a child is written always and
 * counted unless terminal or below an opponent or chance edge of probability exactly 0), the
 * backward pass walks that list, and own reach comes from each set's own sequence, added once per
 * history. live has N entries, live_start L. */
static double traverse_pruned(const Tree *t, int player, const double *strategy, double *regret, double *own_reach,
                              double *reach, double *value, uint64_t *live, uint64_t *live_start,
                              double *sequence_reach) {
    const uint64_t A = t->a, L = t->levels - 1;
    reach[0] = reach[1] = reach[2] = 1.0;
    live[0] = 0;
    live_start[0] = 0;
    live_start[1] = 1;
    uint64_t count = 1;
    for (uint64_t level = 0; level + 1 < L; level++) {
        for (uint64_t j = live_start[level]; j < live_start[level + 1]; j++) {
            uint64_t n = live[j];
            uint8_t who = t->kind[n];
            uint64_t first = t->first_child[n], k = t->num_children[n];
            double r0 = reach[3 * n], r1 = reach[3 * n + 1], rc = reach[3 * n + 2];
            if (who >= CHANCE) {
                for (uint64_t a = 0; a < k; a++) {
                    uint64_t c = first + a;
                    double p = t->chance_probability[c];
                    reach[3 * c] = r0; reach[3 * c + 1] = r1; reach[3 * c + 2] = rc * p;
                    live[count] = c;
                    count += (t->kind[c] != TERMINAL) & (p != 0.0);
                }
            } else if (who == player) {
                const double *row = strategy + t->infoset[n] * A;
                for (uint64_t a = 0; a < k; a++) {
                    uint64_t c = first + a;
                    double s = row[a];
                    if (who == 0) { reach[3 * c] = r0 * s; reach[3 * c + 1] = r1; }
                    else { reach[3 * c] = r0; reach[3 * c + 1] = r1 * s; }
                    reach[3 * c + 2] = rc;
                    live[count] = c;
                    count += t->kind[c] != TERMINAL;
                }
            } else if (who == 0) {
                const double *row = strategy + t->infoset[n] * A;
                for (uint64_t a = 0; a < k; a++) {
                    uint64_t c = first + a;
                    double s = row[a];
                    reach[3 * c] = r0 * s; reach[3 * c + 1] = r1; reach[3 * c + 2] = rc;
                    live[count] = c;
                    count += (t->kind[c] != TERMINAL) & (s != 0.0);
                }
            } else {
                const double *row = strategy + t->infoset[n] * A;
                for (uint64_t a = 0; a < k; a++) {
                    uint64_t c = first + a;
                    double s = row[a];
                    reach[3 * c] = r0; reach[3 * c + 1] = r1 * s; reach[3 * c + 2] = rc;
                    live[count] = c;
                    count += (t->kind[c] != TERMINAL) & (s != 0.0);
                }
            }
        }
        live_start[level + 2] = count;
    }
    for (uint64_t level = L; level-- > 0;) {
        for (uint64_t j = live_start[level]; j < live_start[level + 1]; j++) {
            back_up(t, live[j], player, strategy, regret, reach, value);
        }
    }
    for (uint64_t i = 0; i < t->i; i++) {
        if (t->infoset_player[i] != player) continue;
        uint64_t above = t->own_parent[i];
        double x = above == UINT64_MAX ? 1.0 : sequence_reach[above] * strategy[above * A + t->own_action[i]];
        sequence_reach[i] = x;
        double total = 0.0;
        for (uint64_t h = 0; h < t->histories[i]; h++) total += x;
        own_reach[i] = total;
    }
    return value[0];
}

/* Add `player`'s strategy to its sum, weighted by its own reach, and play regret matching next. */
static void finish_player(const Tree *t, int player, double *regret, double *strategy_sum, double *strategy,
                          double *played, const double *own_reach) {
    const uint64_t A = t->a;
    for (uint64_t i = 0; i < t->i; i++) {
        if (t->infoset_player[i] != player) continue;
        uint64_t k = t->num_actions[i];
        double weight = 1.0 * own_reach[i];
        double *s = strategy + i * A, *r = regret + i * A;
        for (uint64_t a = 0; a < k; a++) {
            played[i * A + a] = s[a];
            strategy_sum[i * A + a] += weight * s[a];
        }
        double total = 0.0;
        for (uint64_t a = 0; a < k; a++)
            if (r[a] > 0.0) total += r[a];
        if (total > 0.0) {
            for (uint64_t a = 0; a < k; a++) s[a] = r[a] > 0.0 ? r[a] / total : 0.0;
        } else {
            for (uint64_t a = 0; a < k; a++) s[a] = 1.0 / (double)k;
        }
    }
}

int main(int argc, char **argv) {
    if (argc != 4) {
        fprintf(stderr, "usage: cfr TREE_FILE ITERATIONS REPEATS\n");
        return 2;
    }
    Tree t = read_tree(argv[1]);
    long iterations = atol(argv[2]), repeats = atol(argv[3]);
    uint64_t cells = t.i * t.a;
    double *regret = malloc(cells * 8), *strategy_sum = malloc(cells * 8), *strategy = malloc(cells * 8);
    double *played = malloc(cells * 8), *own_reach = malloc(t.i * 8);
    double *reach = malloc(t.n * 3 * 8), *value = malloc(t.n * 8), *sequence_reach = malloc(t.i * 8 + 8);
    uint64_t *live = malloc(t.n * 8), *live_start = malloc(t.levels * 8);
    for (long rep = 0; rep < repeats; rep++) {
        memset(regret, 0, cells * 8);
        memset(strategy_sum, 0, cells * 8);
        memset(played, 0, cells * 8);
        memset(strategy, 0, cells * 8);
        for (uint64_t i = 0; i < t.i; i++)
            for (uint64_t a = 0; a < t.num_actions[i]; a++) strategy[i * t.a + a] = 1.0 / (double)t.num_actions[i];
        for (uint64_t n = 0; n < t.n; n++) value[n] = t.actor[n] == TERMINAL ? t.payoff[n] : 0.0;
        double root = 0.0;
        struct timespec start, end;
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &start);
        for (long it = 0; it < iterations; it++) {
            memset(own_reach, 0, t.i * 8);
            for (int player = 0; player < 2; player++) {
                double v = t.prunable ? traverse_pruned(&t, player, strategy, regret, own_reach, reach, value, live,
                                                        live_start, sequence_reach)
                                      : traverse(&t, player, strategy, regret, own_reach, reach, value);
                if (player == 0) root = v;
                finish_player(&t, player, regret, strategy_sum, strategy, played, own_reach);
            }
        }
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &end);
        double regret_total = 0.0, sum_total = 0.0;
        for (uint64_t x = 0; x < cells; x++) {
            regret_total += regret[x];
            sum_total += strategy_sum[x];
        }
        printf("%.9f %.17g %.17g %.17g\n", (double)(end.tv_sec - start.tv_sec) + 1e-9 * (double)(end.tv_nsec - start.tv_nsec),
               root, regret_total, sum_total);
    }
    return 0;
}
