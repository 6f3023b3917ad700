/* Paired comparisons for memshim ab: run i of a setting against run i of
 * the baseline, taken in the same round, so a slow spell of the machine
 * that hits a round hits both.
 *
 * The statistic is the geometric mean of the per-round ratios x[i]/base[i],
 * with a 95% Student t interval on the mean of their logarithms.  Why t and
 * not a bootstrap: ab usually has 3 to 10 rounds, and a percentile bootstrap
 * with that few covers far less than its nominal 95% (with 3 rounds it can
 * only ever return one of 10 distinct resamples' means); the t interval is
 * exact for log-normal noise, needs no seed, and its width gives directly
 * how many rounds would resolve a given difference.  An outlying round
 * widens it (the spread grows) rather than hiding. */
#ifndef MEMSHIM_PAIRED_STATS_H
#define MEMSHIM_PAIRED_STATS_H

#include <stdbool.h>
#include <stddef.h>

/* A difference smaller than this fraction is treated as none: `--runs auto`
 * stops once an interval lies within +-1%, and an unresolved verdict asks
 * for at least this much. */
#define PAIRED_RESOLUTION 0.01

#define PAIRED_LEVEL 0.95 /* the interval's confidence, unless told otherwise */

struct paired_ratio {
	unsigned n;              /* rounds compared */
	double level;            /* the interval's confidence: 0.95 for 95% */
	double ratio, low, high; /* geometric mean ratio and its interval */
	double log_sd;           /* sample standard deviation of the log ratios */
};

/* memshim ab's one verdict rule, for every ratio it prints (rounds or
 * --in-process, overall or by size class), read from the interval alone,
 * in this order: a difference under the resolution is not claimed, though
 * the interval lie on one side of 1 (glibc against itself reads 1 within
 * about half of it), so the same interval always reads the same words. */
enum paired_verdict_kind {
	PAIRED_SAME,       /* the interval lies within +-PAIRED_RESOLUTION of 1 */
	PAIRED_FASTER,     /* else below 1 */
	PAIRED_SLOWER,     /* else above 1 */
	PAIRED_UNRESOLVED, /* none of these: more rounds might tell */
};

/* The rule in words, for the outputs that apply it: two lines, the
 * second indented by two spaces, as their legends are. */
#define PAIRED_RULE_TEXT                                                                                       \
	"same within 1% where the interval lies within 1% of 1, else faster\n"                                   \
	"  or slower where it lies below or above 1, else not resolved"

/* The rule on an interval [low, high] of a ratio. */
enum paired_verdict_kind paired_verdict_of(double low, double high);

/* Its words: "same within 1%", "faster", "slower", "not resolved". */
const char *paired_verdict_words(enum paired_verdict_kind kind);

struct paired_verdict {
	enum paired_verdict_kind kind;
	double resolve;      /* the difference more rounds would resolve (a fraction) */
	unsigned long needed; /* about how many rounds that takes */
};

/* `--runs auto`'s stop rule.  It looks after every round from the 3rd to
 * the 20th, then each time the rounds have grown by half (30, 45, 68, ...,
 * 1000), and stops at the first look whose interval resolves.  Over many
 * looks at growing data, a 95% interval at each would turn noise into a
 * verdict far more often than 5% of the time, so the 5% is spent in two
 * parts (alpha spending): 4% over the every-round looks, each taken at one
 * level (Pocock's boundary, on the t statistic), which a simulation of
 * rounds with no difference found; the paired t statistics' joint law does
 * not depend on the spread, so that one simulation holds for every program
 * whose log ratios are normal, and tests/test_paired_stats.c repeats it;
 * and 1% over the later looks, split evenly (Bonferroni: at most 1% by the
 * union bound, whatever the noise). */
#define PAIRED_AUTO_FIRST 3        /* the first look, after this many rounds */
#define PAIRED_AUTO_EVERY_UNTIL 20 /* a look after every round up to this one */
#define PAIRED_AUTO_LAST 1000      /* the last look */

/* The round of the first look after `rounds` rounds (PAIRED_AUTO_FIRST
 * before any); PAIRED_AUTO_LAST + 1 past the last. */
unsigned paired_auto_next_look(unsigned rounds);

/* Whether `rounds` rounds overrun `budget` seconds, at the pace of `done`
 * rounds in `elapsed` seconds: the stop rule's test before each look. */
bool paired_auto_overruns(unsigned rounds, unsigned done, double elapsed, double budget);

/* The last look the budget holds after `done` rounds in `elapsed` seconds
 * (`done` itself where the next overruns it), up to `most` rounds: the
 * rounds --runs auto's plan may promise, since it stops only at a look. */
unsigned paired_auto_last_look(unsigned done, double elapsed, double budget, unsigned most);

/* The interval's confidence at the look after `rounds` rounds. */
double paired_auto_level(unsigned rounds);

/* The quantile p (0.5 < p < 1) of Student's t with df degrees of freedom. */
double paired_t_quantile(double p, unsigned df);

/* Compares x[0..n) with base[0..n) round by round, with an interval of
 * confidence `level` (PAIRED_LEVEL, or more where several looks are taken
 * at growing data).  False (out untouched) when n < 2 or a value is not
 * positive: no interval then. */
bool paired_compare(const double *x, const double *base, unsigned n, double level, struct paired_ratio *out);

/* What the interval says.  For an unresolved one, `resolve` is the observed
 * difference (at least PAIRED_RESOLUTION) and `needed` the rounds for the
 * interval's half-width to shrink to it, at the same level: the smallest m
 * with t(m-1) * log_sd / sqrt(m) < log(1 + resolve), about
 * n * (half-width / resolve)^2. */
struct paired_verdict paired_judge(const struct paired_ratio *r);

/* The smallest difference (a fraction) that `rounds` rounds resolve at
 * the spread r shows and this level: exp(t(rounds-1) * log_sd /
 * sqrt(rounds)) - 1; infinite below 2 rounds. */
double paired_resolvable(const struct paired_ratio *r, unsigned rounds, double level);

/* The verdict in words (paired_verdict_words), an unresolved one with
 * "with N runs; about M runs would resolve X%". */
void paired_verdict_text(const struct paired_ratio *r, const struct paired_verdict *v, char *out, size_t size);

#endif
