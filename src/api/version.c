/* SPDX-License-Identifier: MIT */
/* utfdfa_version(): the version of the library that is linked, which may be
 * newer than the header a program was compiled with. Its own unit, so the
 * version string lives in one place of the binary. */
#include "utfdfa.h"

const char *utfdfa_version(void)
{
    return UTFDFA_VERSION;
}
