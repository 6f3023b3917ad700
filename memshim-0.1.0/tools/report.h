#ifndef MEMSHIM_REPORT_H
#define MEMSHIM_REPORT_H

/* memshim report FILE...: merge histogram dumps and show them. */
int cmd_report(int argc, char **argv);

#endif
