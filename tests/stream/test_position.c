/* SPDX-License-Identifier: MIT */
/* The line and column tracker (utfdfa_position_*): for every source, text
 * with line feeds, characters of every length and bytes that break it,
 * read in chunks split at every point and in chunks of 1, 2, 3 and 7
 * bytes: each error's line and column is what a count of the whole stream
 * gives (the code points and errors of one strict decode, in order), also
 * for an error whose sequence began in the chunk before. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "utfdfa.h"

enum { CAP = 1024, MAXERR = 256 };

struct place {
    uint64_t offset, line, column;
};

/* The errors of a strict decode of all of src in one buffer, each with the
 * line and column the code points and errors before it give. */
static size_t whole_count(enum utfdfa_encoding from, const uint8_t *src, size_t n,
                          struct place *places)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, from, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    uint64_t line = 1, column = 1;
    size_t done = 0, k = 0;
    for (;;) {
        uint32_t cps[CAP];
        size_t s = n - done, m = CAP;
        utfdfa_error e;
        utfdfa_result r = utfdfa_decode_utf32(&d, src + done, &s, cps, &m, true, &e);
        done += s;
        for (size_t i = 0; i < m; i++) {
            if (cps[i] == 0x0A)
                line++, column = 1;
            else
                column++;
        }
        if (r != UTFDFA_MALFORMED || k == MAXERR)
            return k;
        places[k++] = (struct place){e.offset, line, column};
        column++;
    }
}

/* The same stream in chunks ending at ends[0] <= ends[1] <= ..., through the tracker. */
static void chunked(enum utfdfa_encoding from, const uint8_t *src, const size_t *ends,
                    size_t nchunks, const struct place *want, size_t nwant,
                    const char *how)
{
    utfdfa_decoder d;
    utfdfa_decoder_init(&d, from, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
    utfdfa_position pos;
    utfdfa_position_init(&pos, &d);
    size_t start = 0, k = 0;
    bool ok = true;
    for (size_t c = 0; c < nchunks; c++) {
        size_t len = ends[c] - start, done = 0;
        bool last = c + 1 == nchunks;
        for (;;) {
            uint32_t cps[CAP];
            size_t s = len - done, m = CAP;
            utfdfa_error e;
            utfdfa_result r = utfdfa_decode_utf32(&d, src + start + done, &s, cps, &m, last, &e);
            done += s;
            if (r != UTFDFA_MALFORMED)
                break;
            uint64_t line, column;
            utfdfa_position_of(&pos, src + start, len, e.offset, &line, &column);
            if (k >= nwant || want[k].offset != e.offset || want[k].line != line ||
                want[k].column != column) {
                if (ok)
                    CHECK(false, "%s, %s: error %zu at %llu: %llu:%llu, want %llu:%llu",
                          utfdfa_encoding_name(from), how, k, (unsigned long long)e.offset,
                          (unsigned long long)line, (unsigned long long)column,
                          k < nwant ? (unsigned long long)want[k].line : 0ull,
                          k < nwant ? (unsigned long long)want[k].column : 0ull);
                ok = false;
            }
            k++;
        }
        utfdfa_position_advance(&pos, src + start, len);
        start = ends[c];
    }
    if (ok)
        CHECK(k == nwant, "%s, %s: %zu errors, want %zu", utfdfa_encoding_name(from), how, k,
              nwant);
}

/* src in every chunking of the test. */
static void every_chunking(enum utfdfa_encoding from, const uint8_t *src, size_t n)
{
    struct place want[MAXERR];
    size_t nwant = whole_count(from, src, n, want);
    size_t ends[CAP];
    char how[64];
    for (size_t k = 0; k <= n; k++) {
        ends[0] = k, ends[1] = n;
        snprintf(how, sizeof how, "split at %zu", k);
        chunked(from, src, ends, 2, want, nwant, how);
    }
    static const size_t sizes[] = {1, 2, 3, 7};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t c = 0;
        for (size_t e = sizes[i]; e < n + sizes[i]; e += sizes[i])
            ends[c++] = e < n ? e : n;
        snprintf(how, sizeof how, "chunks of %zu", sizes[i]);
        chunked(from, src, ends, c, want, nwant, how);
    }
}

int main(void)
{
    static const uint32_t text[] = {'a', 0xE9, '\n', 0x20AC, 'b', '\n', '\n', 0x1F600, 'c',
                                    '+', 0xE9, '\n', 'd', 0x10FFFF, 'e', '\n', 'f'};
    size_t ntext = sizeof text / sizeof text[0];
    /* Bytes that break each source somewhere: inserted at these places. */
    static const size_t at[] = {1, 4, 9, 14, 23};
    static const uint8_t bad[][4] = {{0xFF}, {0x80}, {0x00, 0xDC}, {0xED, 0xA0}, {0x00, 0xD8}};
    static const size_t bad_len[] = {1, 1, 2, 2, 2};
    for (int from = 0; from < UTFDFA_NENCODINGS; from++) {
        uint8_t clean[CAP], src[CAP];
        utfdfa_encoder enc;
        utfdfa_encoder_init(&enc, (enum utfdfa_encoding)from, UTFDFA_STRICT, UTFDFA_BOM_KEEP);
        size_t s = ntext, n = CAP;
        utfdfa_encode(&enc, text, &s, clean, &n, true, NULL);
        every_chunking((enum utfdfa_encoding)from, clean, n);
        for (size_t b = 0; b < sizeof bad / sizeof bad[0]; b++) {
            size_t len = 0, prev = 0;
            for (size_t i = 0; i < sizeof at / sizeof at[0] && at[i] <= n; i++) {
                memcpy(src + len, clean + prev, at[i] - prev);
                len += at[i] - prev;
                memcpy(src + len, bad[b], bad_len[b]);
                len += bad_len[b];
                prev = at[i];
            }
            memcpy(src + len, clean + prev, n - prev);
            len += n - prev;
            every_chunking((enum utfdfa_encoding)from, src, len);
            /* and cut short at the end */
            every_chunking((enum utfdfa_encoding)from, src, len - 1);
        }
    }
    return check_summary("test_position");
}
