/* memshim ab: a real command run under several settings, interleaved. */
#ifndef MEMSHIM_AB_H
#define MEMSHIM_AB_H

int cmd_ab(int argc, char **argv);

#endif
