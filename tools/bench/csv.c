/* The bench CSV's line reader (tools/bench/csv.h). */
#include "tools/bench/csv.h"

#include "tools/util/parse_number.h"

#include <stdbool.h>
#include <string.h>

unsigned bench_csv_fields(char *line, char *text[COL_READ], double real[COL_READ], uint64_t whole[COL_READ])
{
	line[strcspn(line, "\r\n")] = '\0';
	unsigned n = 0;
	for (char *p = line; p && n < COL_READ; n++) {
		text[n] = p;
		if ((p = strchr(p, ',')) != NULL)
			*p++ = '\0';
		const char *at = text[n];
		bool is_whole = n >= COL_MOVSB && n <= COL_STOP;
		bool is_real = n == COL_MEDIAN || n == COL_RATIO || n == COL_LOW || n == COL_HIGH || n >= COL_AA;
		bool ok = is_whole ? parse_u64(&at, &whole[n]) && *at == '\0'
			: is_real ? parse_real(&at, &real[n]) && *at == '\0'
				  : *at != '\0' && strlen(at) < 24;
		if (!ok)
			break;
	}
	return n;
}
