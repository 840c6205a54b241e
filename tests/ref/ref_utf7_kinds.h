/* SPDX-License-Identifier: MIT */
/* The library's name for each error kind of the reference UTF-7 decoder
 * (tests/ref/ref_utf7.h): for the tests that compare the two. Kept apart
 * so that the reference itself knows nothing of the library. */
#ifndef REF_UTF7_KINDS_H
#define REF_UTF7_KINDS_H

#include "ref_utf7.h"
#include "utfdfa.h"

static inline enum utfdfa_error_kind ref7_library_kind(enum ref7_kind k)
{
    switch (k) {
    case REF7_INVALID_DIRECT:
        return UTFDFA_ERR_INVALID_LEAD;
    case REF7_BAD_SHIFT:
        return UTFDFA_ERR_BAD_SHIFT;
    case REF7_TRUNCATED:
        return UTFDFA_ERR_TRUNCATED;
    case REF7_SURROGATE:
        return UTFDFA_ERR_SURROGATE;
    case REF7_PARTIAL_UNIT:
        return UTFDFA_ERR_PARTIAL_UNIT;
    case REF7_NONZERO_PADDING:
        return UTFDFA_ERR_NONZERO_PADDING;
    default:
        return UTFDFA_ERR_NONE;
    }
}

#endif /* REF_UTF7_KINDS_H */
