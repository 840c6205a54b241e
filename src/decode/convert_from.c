/* SPDX-License-Identifier: MIT */
/* One unit of the decoders (src/decode/convert.h): the decoder of the source
 * encoding SOURCE_NAME (a name from UTFDFA_EACH_SOURCE) into each sink, each
 * its own specialised loop. The Makefile compiles this file once per source
 * (CONVERT_SOURCES); see src/decode/convert.h for why. The single-file build
 * (make amalgamate) puts every instance in one unit, each after its own
 * #define SOURCE_NAME: so what is common is defined once, every name of an
 * instance carries SOURCE_NAME, and its macros are undefined at the end.
 */
#include "decode/convert.h"

#ifndef SOURCE_NAME
#error "compile with -DSOURCE_NAME=name, a name from UTFDFA_EACH_SOURCE (encodings.gen.h)"
#endif

#ifndef UTFDFA_CONVERT_FROM_COMMON
#define UTFDFA_CONVERT_FROM_COMMON
#define SOURCE_ENUM(name, enc, rows) SOURCE_##name = enc, SOURCE_ROWS_##name = rows,
enum { UTFDFA_EACH_SOURCE(SOURCE_ENUM) };
#undef SOURCE_ENUM

/* Rows that share an instance run the engine of its first row over their
 * own tables (core()'s FAMILY); gen/registry.py lets only rows of one
 * table-driven engine share one. */

#define PASTE(a, b) a##b
#define EXPAND_PASTE(a, b) PASTE(a, b)
#endif

#define SOURCE ((unsigned)EXPAND_PASTE(SOURCE_, SOURCE_NAME))
#define CONVERT_FROM_THIS EXPAND_PASTE(utfdfa__convert_from_, SOURCE_NAME)
#define SPECIALISE EXPAND_PASTE(specialise_from_, SOURCE_NAME)

/* UTF-8, and UTF-16/32 into code points, take the fast paths first. */
ALWAYS_INLINE utfdfa_result SPECIALISE(const struct call *c, const uint8_t *src, size_t *src_len)
{
    if (has_fast_path(SOURCE, c->sink))
        return convert_fast(c, src, src_len);
    return convert(c, src, src_len);
}

/* Each sink its own loop: the call again with the sink, the source and
 * (but for SINK_CODES, whose target is known at run time) the target as
 * constants. */
utfdfa_result CONVERT_FROM_THIS(const struct call *c, const uint8_t *src, size_t *src_len)
{
    struct call k = *c;
    k.from = SOURCE;
    switch (c->sink) {
    case SINK_NONE:
        k.sink = SINK_NONE, k.to = UTFDFA_UTF8;
        return SPECIALISE(&k, src, src_len);
    case SINK_U32:
        k.sink = SINK_U32, k.to = UTFDFA_UTF8;
        return SPECIALISE(&k, src, src_len);
    case SINK_U16:
        k.sink = SINK_U16, k.to = UTFDFA_UTF8;
        return SPECIALISE(&k, src, src_len);
    default: /* code points for utfdfa_transcode's encoder */
        k.sink = SINK_CODES;
        return SPECIALISE(&k, src, src_len);
    }
}

#undef SPECIALISE
#undef CONVERT_FROM_THIS
#undef SOURCE
