/* memshim cpu-row: a shipped CPU row file (dispatch/cpu_rows.h) from
 * measurements made on that CPU class (tools/cpu_row.c). */
#ifndef MEMSHIM_CPU_ROW_H
#define MEMSHIM_CPU_ROW_H

int cmd_cpu_row(int argc, char **argv);

#endif
