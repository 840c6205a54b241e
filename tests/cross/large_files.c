/* SPDX-License-Identifier: MIT */
/* Compiled with the project's flags by each cross compiler (mk/cross.mk):
 * a 32-bit host must see 64-bit file offsets and inode numbers, or readdir
 * fails with EOVERFLOW and open and stat with large files. */
#define _POSIX_C_SOURCE 200809L
#include <sys/types.h>

_Static_assert(sizeof(off_t) == 8, "off_t is not 64 bits: _FILE_OFFSET_BITS=64 is missing");
_Static_assert(sizeof(ino_t) == 8, "ino_t is not 64 bits: _FILE_OFFSET_BITS=64 is missing");

int large_files_probe(void);
int large_files_probe(void)
{
    return 0;
}
