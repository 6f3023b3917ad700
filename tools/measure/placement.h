/* The placements of the measuring engine (tools/measure/measure.h): one
 * set of names for where a measured call's data lives, in bench's tables and
 * CSV, the calibration's reasons and tune's replay. */
#ifndef MEMSHIM_PLACEMENT_H
#define MEMSHIM_PLACEMENT_H

/* Where a case's data lives when its batch is timed.  Each batch first runs
 * its calls once untimed (the code and the predictors warm, the data
 * brought in) and draws a new order for them, then:
 *   L1:   nothing more: every call in one room, as hot as its size allows;
 *   L2:   the same, the calls spread over half the L2;
 *   L3:   the calls spread over MEASURE_L3_SETS L2s, then other data read
 *         through L1 and L2 so that the calls' lines are left in the L3 only;
 *   cold: the calls spread over the cold span, their lines flushed from
 *         every cache level. */
enum placement { PLACE_L1, PLACE_L2, PLACE_L3, PLACE_COLD, PLACE_COUNT };
static const char *const placement_names[PLACE_COUNT] = { "L1", "L2", "L3", "cold" };
/* The same in a sentence: "1.12x at 4-16 MiB, L1" read as data of 4 MiB
 * in a 48 KiB cache; the L1 placement is the data as hot as it gets. */
static const char *const placement_words[PLACE_COUNT] = { "data hot", "data in L2", "data in L3", "data cold" };
#define MEASURE_L3_SETS 8

#endif
