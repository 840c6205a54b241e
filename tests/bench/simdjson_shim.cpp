/* SPDX-License-Identifier: MIT */
// simdjson is a C++ library: this shim gives the C benchmark its UTF-8
// validator (runtime-dispatched SIMD, the reference for "what SIMD does").
#include <simdjson.h>

#include <cstdio>
#include <string>

extern "C" int simdjson_shim_validate(const char *buf, size_t len)
{
    return simdjson::validate_utf8(buf, len) ? 1 : 0;
}

extern "C" const char *simdjson_shim_describe(void)
{
    static std::string s;
    const simdjson::implementation *impl = simdjson::get_active_implementation();
    s = std::string(SIMDJSON_STRINGIFY(SIMDJSON_VERSION)) + ", kernel " + impl->name() + " (" +
        impl->description() + ")";
    return s.c_str();
}
