/* C++ names made readable, by the C++ runtime's own demangler. */
#ifndef MEMSHIM_DEMANGLE_H
#define MEMSHIM_DEMANGLE_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

/* "ns::copy(char*, int)" for "_ZN2ns4copyEPci" into out; false (out
 * untouched) for a name that is not a mangled C++ name. */
bool demangle(const char *name, char *out, size_t size);

#ifdef __cplusplus
}
#endif

#endif
