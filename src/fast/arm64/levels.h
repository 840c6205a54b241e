/* SPDX-License-Identifier: MIT */
/* The AArch64 levels' rows (the columns: src/fast/levels.h). */
#ifndef UTFDFA_FAST_ARM64_LEVELS_H
#define UTFDFA_FAST_ARM64_LEVELS_H

#define KERN_ARM64_LEVELS(X)                                                                      \
    /* ASIMD (NEON): the AArch64 baseline, so never detected */                                   \
    X(NEON, neon, kern_baseline, utfdfa__fast_neon, utfdfa__utf8_fast_neon,                       \
      utfdfa__utf8_scan_lookup_neon)

#endif
