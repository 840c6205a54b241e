/* SPDX-License-Identifier: MIT */
/* The code points the library writes by name (internal). No includes: the
 * UTF-8 fast paths (src/fast/utf8/), which build without the library's
 * headers, share them with it. */
#ifndef UTFDFA_UNICODE_H
#define UTFDFA_UNICODE_H

enum { REPLACEMENT = 0xFFFD, BOM = 0xFEFF };

#endif /* UTFDFA_UNICODE_H */
