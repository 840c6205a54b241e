/* SPDX-License-Identifier: MIT */
/* The library's name for each error kind of the reference decoders of
 * ref_utf8.h (UTF-8, UTF-16, UTF-32) and ref_forms.h: for the tests and
 * fuzz targets that compare the two. Kept apart, as ref_utf7_kinds.h, so
 * that the references themselves know nothing of the library. */
#ifndef REF_KINDS_H
#define REF_KINDS_H

#include "ref_forms.h"
#include "ref_utf8.h"
#include "utfdfa.h"

static inline enum utfdfa_error_kind kind_of_ref(enum ref_kind k)
{
    switch (k) {
    case REF_UNEXPECTED_CONTINUATION:
        return UTFDFA_ERR_UNEXPECTED_CONTINUATION;
    case REF_INVALID_LEAD:
        return UTFDFA_ERR_INVALID_LEAD;
    case REF_OVERLONG:
        return UTFDFA_ERR_OVERLONG;
    case REF_SURROGATE:
        return UTFDFA_ERR_SURROGATE;
    case REF_TOO_LARGE:
        return UTFDFA_ERR_TOO_LARGE;
    case REF_TRUNCATED:
        return UTFDFA_ERR_TRUNCATED;
    default:
        return UTFDFA_ERR_NONE;
    }
}

static inline enum utfdfa_error_kind kind_of_refc(enum refc_kind k)
{
    static const enum utfdfa_error_kind map[] = {
        UTFDFA_ERR_NONE,      UTFDFA_ERR_UNEXPECTED_CONTINUATION, UTFDFA_ERR_INVALID_LEAD,
        UTFDFA_ERR_OVERLONG,  UTFDFA_ERR_SURROGATE,               UTFDFA_ERR_TRUNCATED,
        UTFDFA_ERR_NUL,       UTFDFA_ERR_TOO_LARGE,               UTFDFA_ERR_RESERVED};
    return map[k];
}

#endif /* REF_KINDS_H */
