// C++ names made readable with abi::__cxa_demangle, the demangler of the C++
// runtime (libstdc++), for the Itanium C++ ABI that GCC and Clang mangle by
// on Linux; a name it does not take as mangled is left as it is.
#include "tools/report/demangle.h"

#include <cstdio>
#include <cstdlib>
#include <cxxabi.h>

bool demangle(const char *name, char *out, size_t size)
{
	if (name[0] != '_' || name[1] != 'Z') // only the Itanium ABI's names: not "main" as a type name
		return false;
	int status;
	char *readable = abi::__cxa_demangle(name, nullptr, nullptr, &status);
	if (!readable)
		return false;
	std::snprintf(out, size, "%s", readable);
	std::free(readable);
	return true;
}
