/* SPDX-License-Identifier: MIT */
// simdutf is a C++ library: this shim gives the C benchmark
// (tests/bench/simdutf_cmp.c) one named kernel of it at a time
// ("westmere", "haswell", "icelake"), called directly, without its
// run-time dispatch. Built only by `make bench SIMDUTF=DIR`, against the
// amalgamation in DIR (simdutf.h, simdutf.cpp), which is never part of
// this repository.
#include "simdutf.h"

#include <cstddef>
#include <cstdint>

using simdutf::implementation;

static const implementation *impl_of(const void *p)
{
    return static_cast<const implementation *>(p);
}

// The kernel named `name`, or NULL when this build or this CPU lacks it.
extern "C" const void *simdutf_shim_kernel(const char *name)
{
    const implementation *impl = simdutf::get_available_implementations()[name];
    if (!impl || !impl->supported_by_runtime_system())
        return nullptr;
    return impl;
}

extern "C" const char *simdutf_shim_version(void)
{
    return SIMDUTF_VERSION;
}

extern "C" size_t simdutf_shim_validate(const void *k, const uint8_t *src, size_t n)
{
    return impl_of(k)->validate_utf8(reinterpret_cast<const char *>(src), n) ? 1 : 0;
}

// The conversions return the units written, 0 at an error.
extern "C" size_t simdutf_shim_utf8_to_utf16le(const void *k, const uint8_t *src, size_t n,
                                               uint16_t *dst)
{
    return impl_of(k)->convert_utf8_to_utf16le(reinterpret_cast<const char *>(src), n,
                                               reinterpret_cast<char16_t *>(dst));
}

extern "C" size_t simdutf_shim_utf16le_to_utf8(const void *k, const uint16_t *src, size_t n,
                                               uint8_t *dst)
{
    return impl_of(k)->convert_utf16le_to_utf8(reinterpret_cast<const char16_t *>(src), n,
                                               reinterpret_cast<char *>(dst));
}

extern "C" size_t simdutf_shim_utf8_to_utf32(const void *k, const uint8_t *src, size_t n,
                                             uint32_t *dst)
{
    return impl_of(k)->convert_utf8_to_utf32(reinterpret_cast<const char *>(src), n,
                                             reinterpret_cast<char32_t *>(dst));
}
