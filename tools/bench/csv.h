/* The bench CSV: the file memshim bench --csv writes (tools/bench/output.c)
 * and memshim cpu-row reads (tools/cpu_row.c), its columns and its one line
 * reader, beside each other.  The file is the contract between the two
 * commands, as dump/ is between the library and the tool, so cpu-row may
 * reach this module of bench's folder (tests/check_tools_layers.py). */
#ifndef MEMSHIM_BENCH_CSV_H
#define MEMSHIM_BENCH_CSV_H

#include <stdint.h>

/* The header line, the columns in the order bench writes them. */
#define BENCH_CSV_HEADER                                                                                   \
	"function,variant,case,size,alignment,placement,median,p10,p90,unit,ratio_to_glibc,bytes_per_unit," \
	"ratio_low,ratio_high,movsb,stosb,read_back,movsb_stop,pairs,aa_ratio,aa_low,aa_high,processes,"     \
	"disagree,in_use\n"

/* The columns a reader takes (the others, which must not be empty, are
 * skipped), in the CSV's order: function,variant, case,size,alignment,
 * placement,median,p10,p90,unit,ratio,bytes_per_unit, then (bench files
 * since the ratio's interval was kept) ratio_low, ratio_high, then (since
 * bench wrote them) the rep thresholds movsb, stosb, then (since bench
 * --read-back) read_back, then (since the rep range had a stop) movsb_stop,
 * then pairs and the A/A arm, the processes, whether they disagreed, and
 * (since bench --in-use) in_use. */
enum bench_column {
	COL_FN, COL_VARIANT, COL_KIND, COL_SIZE, COL_WHERE, COL_PLACE, COL_MEDIAN,
	COL_RATIO = 10, COL_LOW = 12, COL_HIGH, COL_MOVSB, COL_STOSB, COL_READ_BACK, COL_STOP,
	COL_AA = 19, COL_IN_USE = COL_AA + 5, COL_READ
};

/* A CSV line's fields, cut in place at its commas; how many of the first
 * COL_READ are there, each read by the one checked parser
 * (tools/util/parse_number.h): the line is taken up to its first field
 * that is empty or not a number where one belongs (an earlier bench's line
 * ends sooner). */
unsigned bench_csv_fields(char *line, char *text[COL_READ], double real[COL_READ], uint64_t whole[COL_READ]);

#endif
