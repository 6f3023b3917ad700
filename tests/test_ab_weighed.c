/* memshim ab --in-process's headline (tools/ab/weighed.c) on made-up pairs
 * of blocks whose answers are known: a bursty program, where the few pairs
 * that hold the costly calls must decide, not the many that hold only
 * cheap ones; a clean case; a class no pair holds in both arms. */
#include "tools/ab/weighed.h"

#include "tests/unit_check.h"

#include <math.h>
#include <string.h>

enum { SMALL = 1, LARGE = 5 }; /* 17-64 B and 4-32 KiB */

/* calls in each arm of pair p's memcpy class k, at a_ns and b_ns per call */
static void set(struct ab_pair *p, unsigned k, uint64_t calls, uint64_t a_ns, uint64_t b_ns)
{
	p->calls[0][FN_MEMCPY][k] = p->calls[1][FN_MEMCPY][k] = calls;
	p->ns[0][FN_MEMCPY][k] = calls * a_ns;
	p->ns[1][FN_MEMCPY][k] = calls * b_ns;
}

static struct ab_weighed weigh(const struct ab_pair *pairs, size_t count)
{
	return ab_weigh_classes(pairs, count, 1u << FN_MEMCPY, AB_WEIGHED_RESAMPLES, AB_WEIGHED_SEED);
}

/* 48 pairs: each 1000 small calls at 10 ns in both arms (B/A 1); 8 of
 * them also 100 large calls at 59400 ns under A and 0.04 to 0.06 of it
 * under B: the large calls take 99% of A's time. */
static void bursty(void)
{
	static struct ab_pair pairs[48];
	memset(pairs, 0, sizeof pairs);
	for (unsigned i = 0; i < 48; i++)
		set(&pairs[i], SMALL, 1000, 10, 10);
	for (unsigned i = 0; i < 8; i++)
		set(&pairs[6 * i], LARGE, 100, 59400, 59400 * (40 + 20 * i / 7) / 1000);
	struct ab_weighed w = weigh(pairs, 48), again = weigh(pairs, 48);
	printf("  bursty: %.4f (%.4f-%.4f), %u pairs, %u classes\n", w.ratio, w.low, w.high, w.pairs, w.classes);
	check("bursty: the large calls decide, near 0.06 (not 1)", fabs(w.ratio - 0.06) < 0.01);
	check("bursty: the interval holds the ratio and lies below 0.2",
	      w.low <= w.ratio && w.ratio <= w.high && w.high < 0.2);
	check("bursty: every pair and both classes", w.pairs == 48 && w.classes == 2);
	check("bursty: the same seed, the same interval", again.low == w.low && again.high == w.high);
}

/* Every class reads 1, whatever its share: 1, its interval 1-1. */
static void clean(void)
{
	static struct ab_pair pairs[20];
	memset(pairs, 0, sizeof pairs);
	for (unsigned i = 0; i < 20; i++) {
		set(&pairs[i], SMALL, 500 + i, 12, 12);
		set(&pairs[i], LARGE, 3 + i % 4, 900, 900);
	}
	struct ab_weighed w = weigh(pairs, 20);
	check("clean: 1, its interval 1-1", w.ratio == 1 && w.low == 1 && w.high == 1 && w.pairs == 20);
}

/* The large class runs under A only (its B block called none): its time
 * weighs nothing, since no pair compares it; the small class decides. */
static void one_armed(void)
{
	static struct ab_pair pairs[12];
	memset(pairs, 0, sizeof pairs);
	for (unsigned i = 0; i < 12; i++)
		set(&pairs[i], SMALL, 100, 20, 10);
	for (unsigned i = 0; i < 12; i += 3) {
		pairs[i].calls[0][FN_MEMCPY][LARGE] = 50;
		pairs[i].ns[0][FN_MEMCPY][LARGE] = 50 * 100000;
	}
	struct ab_weighed w = weigh(pairs, 12);
	check("a class held in one arm only is left out: 0.5, one class", w.ratio == 0.5 && w.classes == 1);
	check("... and memmove, never called, gives nothing",
	      ab_weigh_classes(pairs, 12, 1u << FN_MEMMOVE, 100, 1).pairs == 0);
}

/* The line under the table on the figures a gzip -d run gave (issue 63):
 * 1.009 (1.006-1.013) is slower by ab's one rule, so B adds to the time,
 * never "saves" a negative share; with too few pairs, no figure at all. */
static void saving_words(void)
{
	char text[400];
	ab_saving_text(0.04, 1.009, 1.006, 1.013, NULL, text, sizeof text);
	printf("  %s\n", text);
	check("gzip -d's slower interval: B adds, with its range",
	      strstr(text, "; B would add 0.04% to it (0.02% to 0.05%)") != NULL);
	check("... and saves nothing", strstr(text, "save") == NULL);
	ab_saving_text(0.04, 0.95, 0.93, 0.97, NULL, text, sizeof text);
	check("a faster interval: B saves", strstr(text, "; B would save 0.20% of it (0.12% to 0.28%)") != NULL);
	ab_saving_text(0.04, 1.0, 0.97, 1.03, NULL, text, sizeof text);
	check("an unresolved one: the range, and its verdict",
	      strstr(text, "; B would change it by -0.12% to +0.12%: not resolved") != NULL);
	ab_saving_text(0.04, 0.5, 0.4, 0.6, "too few pairs", text, sizeof text);
	check("too few pairs: no saving and no interval",
	      strstr(text, "; no saving from them: too few pairs") != NULL && strstr(text, "(") == NULL);
}

int main(void)
{
	bursty();
	clean();
	one_armed();
	saving_words();
	return checks_finish();
}
