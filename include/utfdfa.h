/* SPDX-License-Identifier: MIT */
/* utfdfa: table-driven UTF decoding, the tables generated from ABNF.
 *
 * Conventions: every buffer is (pointer, length); nothing is NUL-terminated;
 * nothing allocates; all state is the caller's.
 *
 * Streaming (the encoding_rs protocol): a call is given src[0..*src_len) and
 * dst[0..*dst_len); on return *src_len and *dst_len say how much it read and
 * wrote, and the result says why it stopped:
 *   UTFDFA_INPUT_EMPTY  all input read (and, when `last`, everything flushed);
 *   UTFDFA_OUTPUT_FULL  dst has no room for the next character: call again
 *                       with more room and the rest of the input;
 *   UTFDFA_MALFORMED    (strict mode) an ill-formed sequence, described in
 *                       *err, was read; decoding can go on with the rest.
 * Output only ever holds whole characters. A sequence split across calls
 * decodes exactly as if it were not split; a sequence cut short by the end
 * of input is reported only on the call with `last` set.
 */
#ifndef UTFDFA_H
#define UTFDFA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#if defined(UTFDFA_BUILD) && defined(__GNUC__)
#define UTFDFA_API __attribute__((visibility("default")))
#else
#define UTFDFA_API
#endif

/* The version, X.Y.Z: a minor version (Y) only adds to the API and the ABI;
 * see doc/install.md, "Version and compatibility". The soname is
 * libutfdfa.so.X. */
#define UTFDFA_VERSION_MAJOR 0
#define UTFDFA_VERSION_MINOR 1
#define UTFDFA_VERSION_PATCH 0
#define UTFDFA_VERSION "0.1.0"
/* The version of the library linked at run time: UTFDFA_VERSION of the header
 * it was built with (compare with the UTFDFA_VERSION a program was built with). */
UTFDFA_API const char *utfdfa_version(void);

enum utfdfa_encoding {
    UTFDFA_UTF8 = 0,        /* RFC 3629: U+0000..U+10FFFF, no surrogates */
    UTFDFA_UTF16LE,
    UTFDFA_UTF16BE,
    UTFDFA_UTF32LE,
    UTFDFA_UTF32BE,
    UTFDFA_UTF8_RFC2279,    /* the original 1-6 byte UTF-8: 0..0x7FFFFFFF, shortest form */
    UTFDFA_CORRECTED_UTF8,  /* Corrected UTF-8: offsets per length, up to 0x8421109F */
    UTFDFA_UCS4LE,          /* raw 32-bit values */
    UTFDFA_UCS4BE,
    UTFDFA_UTF7,            /* RFC 2152 */
    UTFDFA_CESU8,           /* CESU-8 (Unicode TR #26): a supplementary character as two
                               3-byte surrogate sequences */
    UTFDFA_MUTF8,           /* Java's modified UTF-8: CESU-8 with U+0000 as C0 80 */
    UTFDFA_WTF8,            /* WTF-8: UTF-8 that also holds surrogate code points, never a
                               high one followed by a low one */
    UTFDFA_UTF7_IMAP,       /* IMAP's modified UTF-7 (RFC 3501 section 5.1.3) */
    /* UTF-16 and UTF-32 without a byte order, as glibc's iconv and WHATWG
     * have them. Read: the first unit decides, FE FF (00 00 FE FF)
     * big-endian, FF FE (FF FE 00 00) little-endian, and that BOM is a
     * signature, never text, whatever the BOM mode (offsets still count
     * its bytes; for the BOM mode it is the stream's first character, so
     * UTFDFA_BOM_ADD writes it as the output's signature and a U+FEFF after
     * it is text); without a BOM little-endian (RFC 2781 section 4.3 says
     * big-endian; iconv and browsers read little-endian). Then the decoder
     * is a UTF-16LE/BE (UTF-32LE/BE) one. Written (utfdfa_transcode,
     * utfdfa_encode): a BOM before the first character written, then
     * little-endian, as iconv writes them (nothing for no text); the BOM
     * mode acts on the text as for UTF-16LE, so UTFDFA_BOM_ADD writes one
     * BOM, also for no text, and UTFDFA_BOM_KEEP writes a leading U+FEFF of
     * the text after the BOM. */
    UTFDFA_UTF16 = 14,
    UTFDFA_UTF32 = 15,
    UTFDFA_LATIN1 = 16,     /* ISO-8859-1: each byte its code point, U+0000..U+00FF */
    UTFDFA_NENCODINGS
};

enum utfdfa_error_mode {
    UTFDFA_STRICT = 0,  /* stop with UTFDFA_MALFORMED at each ill-formed sequence */
    UTFDFA_REPLACE = 1, /* one U+FFFD per maximal subpart (Unicode 3.9, WHATWG) */
    UTFDFA_IGNORE = 2   /* drop ill-formed subparts */
};
/* The old name of enum utfdfa_error_mode, deprecated: C has no alias for an
 * enum tag, so it is a macro, and each use warns where the compiler knows
 * GCC's warning pragma (a deprecated attribute cannot be attached to a tag;
 * other compilers would warn of an unknown pragma instead). Define
 * UTFDFA_NO_DEPRECATED to drop it. */
#ifndef UTFDFA_NO_DEPRECATED
#if defined(__GNUC__) || defined(__clang__)
#define utfdfa_errors                                                                          \
    _Pragma("GCC warning \"enum utfdfa_errors is deprecated: use enum utfdfa_error_mode\"")     \
        utfdfa_error_mode
#else
#define utfdfa_errors utfdfa_error_mode
#endif
#endif

enum utfdfa_bom {
    UTFDFA_BOM_KEEP = 0,  /* a U+FEFF at the start is decoded like any character */
    UTFDFA_BOM_STRIP = 1, /* a U+FEFF at the very start of the stream is dropped */
    UTFDFA_BOM_ADD = 2    /* the output starts with U+FEFF (not doubled) */
};

typedef enum utfdfa_result {
    UTFDFA_INPUT_EMPTY = 0,
    UTFDFA_OUTPUT_FULL = 1,
    UTFDFA_MALFORMED = 2
} utfdfa_result;

/* The error taxonomy; UTF-8's numbering is the grammar's @error-kinds order.
 * One rule decides kind and length. An error is the input's when its bytes
 * are not well formed in the source encoding (unexpected-continuation ...
 * surrogate, reserved, the UTF-7 kinds), of the maximal subpart's length;
 * a sequence the end of input cuts short is truncated, of every byte of it
 * read (a UTF-16, CESU-8 or modified UTF-8 high surrogate waiting for its
 * low one included: UTF-16LE 3D D8 at the end is truncated, of 2 bytes;
 * with one byte more, of 3, as Python's codecs have it). An error is the
 * output's when the source holds the value but the output cannot:
 * too-large above the output's range, else unencodable (a WTF-8 or UCS-4
 * surrogate into a UTF target; the encoder's surrogate code points), of
 * the whole character's bytes. `surrogate` is only ever the input's. */
enum utfdfa_error_kind {
    UTFDFA_ERR_NONE = 0,
    UTFDFA_ERR_UNEXPECTED_CONTINUATION = 1, /* 80-BF where a character must start */
    UTFDFA_ERR_INVALID_LEAD = 2,            /* F8-FF: never a lead byte; UTF-7: a byte
                                               that may not be sent directly */
    UTFDFA_ERR_OVERLONG = 3,                /* C0, C1; E0 80-9F; F0 80-8F */
    UTFDFA_ERR_SURROGATE = 4,               /* ED A0-BF; a lone UTF-16 surrogate (one
                                               followed by a unit that is not its pair) */
    UTFDFA_ERR_TOO_LARGE = 5,               /* above U+10FFFF: F4 90-BF, F5-F7; a value
                                               above the output's range */
    UTFDFA_ERR_TRUNCATED = 6,               /* a sequence cut short (by a byte that
                                               cannot go on, or by the end of input) */
    UTFDFA_ERR_NUL = 7,                     /* U+0000 in Corrected UTF-8 */
    UTFDFA_ERR_UNENCODABLE = 8,             /* a character the output encoding cannot hold
                                               (surrogate code points in any but WTF-8 and
                                               UCS-4; C1 controls, U+0000 in Corrected
                                               UTF-8; values above its limit: too-large) */
    UTFDFA_ERR_RESERVED = 9,                /* a Corrected UTF-8 reserved unit (FE, FF ...):
                                               valid, but only corrected-utf-8 can carry it */
    UTFDFA_ERR_BAD_SHIFT = 10,              /* UTF-7: "+" followed by neither base64 nor "-" */
    UTFDFA_ERR_PARTIAL_UNIT = 11,           /* UTF-7: a run ends 8 or more bits into a unit */
    UTFDFA_ERR_NONZERO_PADDING = 12,        /* UTF-7: a run's discarded bits are not zero */
    UTFDFA_NERROR_KINDS = 13
};

typedef struct utfdfa_error {
    uint64_t offset;             /* stream byte offset where the maximal subpart starts
                                    (encoder: index of the code point) */
    uint32_t length;             /* its length in bytes (encoder: 1), always >= 1 */
    enum utfdfa_error_kind kind;
} utfdfa_error;

/* Decoder and encoder state: 16 bytes each, owned by the caller (on the
 * stack, in a struct, anywhere), never allocated by the library. All zero
 * is a fresh strict UTF-8 decoder (encoder) that keeps a BOM; otherwise set
 * them up with utfdfa_decoder_init / utfdfa_encoder_init. The contents are
 * private and may change between versions; only the size and alignment are
 * part of the ABI. Copying one copies the stream's state. */
typedef struct utfdfa_decoder {
    uint64_t private_[2];
} utfdfa_decoder;

typedef struct utfdfa_encoder {
    uint64_t private_[2];
} utfdfa_encoder;

#if defined(__cplusplus) && __cplusplus >= 201103L
static_assert(sizeof(utfdfa_decoder) == 16 && sizeof(utfdfa_encoder) == 16,
              "the state is 16 bytes");
#elif defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(sizeof(utfdfa_decoder) == 16 && sizeof(utfdfa_encoder) == 16,
               "the state is 16 bytes");
#endif

/* Encoder options (utfdfa_encoder_set_options). */
enum utfdfa_encoder_option {
    UTFDFA_UTF7_DIRECT_SET_O = 1, /* UTF-7: also send Set O (RFC 2152 Rule 1: ! " # $ % & * ;
                                     < = > @ [ ] ^ _ ` { | }) directly, not in base64 */
    UTFDFA_CORRECTED_PUA = 2      /* Corrected UTF-8 ("they can be mapped to some convenient
                                     private-use codepoints"): write the C1 controls
                                     U+0080-U+009F and the surrogates U+D800-U+DFFF as
                                     U+F0080-U+F009F and U+FD800-U+FDFFF, and read those
                                     back as them; the private-use originals are then
                                     unencodable (they would read back as the others) */
};

/* ---- names */
UTFDFA_API const char *utfdfa_encoding_name(enum utfdfa_encoding enc);
/* Case-insensitive lookup of name[0..len); false if unknown. */
UTFDFA_API bool utfdfa_encoding_from_name(const char *name, size_t len, enum utfdfa_encoding *enc);
/* The other names utfdfa_encoding_from_name takes for enc (glibc iconv's
 * spellings, the hyphenless forms): the index-th, or NULL past the last. */
UTFDFA_API const char *utfdfa_encoding_alias(enum utfdfa_encoding enc, size_t index);
/* Bytes of one code unit of enc: 1, 2 (UTF-16) or 4 (UTF-32, UCS-4). */
UTFDFA_API size_t utfdfa_unit_size(enum utfdfa_encoding enc);
UTFDFA_API const char *utfdfa_error_name(enum utfdfa_error_kind kind);

/* ---- validation (whole buffer) */
/* Length of the longest valid UTF-8 prefix of buf[0..len): len iff valid. */
UTFDFA_API size_t utfdfa_valid_up_to(const uint8_t *buf, size_t len);
/* The same for any encoding; when invalid, *err (if not NULL) gets the first
 * error: offset == the return value, its kind and its maximal-subpart length. */
UTFDFA_API size_t utfdfa_validate(enum utfdfa_encoding enc, const uint8_t *buf, size_t len,
                                  utfdfa_error *err);

/* ---- streaming decoding */
UTFDFA_API void utfdfa_decoder_init(utfdfa_decoder *d, enum utfdfa_encoding from,
                                    enum utfdfa_error_mode mode, enum utfdfa_bom bom);
/* Characters from utfdfa_decode_utf32() are going to be written in `to`:
 * report those `to` cannot represent as errors at their input offsets
 * (too-large, unencodable). Without this, decode_utf32 returns every value
 * the source encoding can hold. (decode_utf16 and transcode always check
 * against their own output.) */
UTFDFA_API void utfdfa_decoder_set_target(utfdfa_decoder *d, enum utfdfa_encoding to);
/* Options (enum utfdfa_encoder_option) for the bytes utfdfa_transcode
 * writes, as utfdfa_encoder_set_options; UTFDFA_CORRECTED_PUA also maps
 * what a corrected-utf-8 source decodes. Call after init. */
UTFDFA_API void utfdfa_decoder_set_options(utfdfa_decoder *d, unsigned options);
/* Whether a replacing or ignoring decoder has met an error since init. */
UTFDFA_API bool utfdfa_decoder_replaced(const utfdfa_decoder *d);
/* The encoding the decoder reads: its source, except that for UTFDFA_UTF16
 * and UTFDFA_UTF32 it is the byte order their first unit decided
 * (UTFDFA_UTF16LE ... UTFDFA_UTF32BE) once that unit has been read. */
UTFDFA_API enum utfdfa_encoding utfdfa_decoder_encoding(const utfdfa_decoder *d);
/* Stream offset of the next byte the decoder will read. */
UTFDFA_API uint64_t utfdfa_decoder_offset(const utfdfa_decoder *d);

/* Validate without output: INPUT_EMPTY or (strict) MALFORMED. */
UTFDFA_API utfdfa_result utfdfa_check(utfdfa_decoder *d, const uint8_t *src, size_t *src_len,
                                      bool last, utfdfa_error *err);
/* Decode to code points (native endianness): UTF-32, or for utf-8-rfc2279,
 * corrected-utf-8 and ucs-4 sources any value they hold (UCS-4). */
UTFDFA_API utfdfa_result utfdfa_decode_utf32(utfdfa_decoder *d, const uint8_t *src,
                                             size_t *src_len, uint32_t *dst, size_t *dst_len,
                                             bool last, utfdfa_error *err);
/* Decode to UTF-16 code units (native endianness); a pair is written whole or not at all. */
UTFDFA_API utfdfa_result utfdfa_decode_utf16(utfdfa_decoder *d, const uint8_t *src,
                                             size_t *src_len, uint16_t *dst, size_t *dst_len,
                                             bool last, utfdfa_error *err);
/* Transcode to the byte encoding `to`; with to == UTFDFA_UTF8 and a UTF-8
 * decoder this is a validated (strict) or sanitised (replace) copy. To
 * UTF-7 (written as utfdfa_encode does) a base64 run stays open between
 * calls: the digit holding a character's last bits and the "-" that ends
 * the run are written with the next character, or on the call with `last`.
 * `to` may change between calls: each character goes to the `to` of the
 * call that completes it, and a call to another target than the call
 * before first closes what that one left open (an open UTF-7 run: its last
 * digit and "-"; OUTPUT_FULL, nothing read, without room for them); the
 * new target then starts as a new output would (UTF-16 and UTF-32 without
 * a byte order write their BOM again). Nothing is lost or written twice. */
UTFDFA_API utfdfa_result utfdfa_transcode(utfdfa_decoder *d, enum utfdfa_encoding to,
                                          const uint8_t *src, size_t *src_len, uint8_t *dst,
                                          size_t *dst_len, bool last, utfdfa_error *err);

/* ---- line and column
 * Where an error stands as a validator reports it: a line ends at U+000A,
 * the column counts characters from the line's start, each ill-formed
 * subpart one (as its U+FFFD would be), both from 1; a BOM the decoder
 * takes as a signature or strips is no character. The tracker, 64 bytes
 * owned by the caller (contents private), follows a stream read in chunks
 * of any size: give it each chunk once the calls over it are done
 * (utfdfa_position_advance), and ask it for an error's offset while that
 * chunk is current (utfdfa_position_of), also for an error whose sequence
 * began in a chunk before. It decodes only the last line of each chunk
 * (and, when asked, a line's start to an error); the lines before are
 * counted by their line feeds (not in UTF-7, whose line feeds may be in
 * base64, nor in Corrected UTF-8: there it decodes every byte). */
typedef struct utfdfa_position {
    uint64_t private_[8];
} utfdfa_position;
/* A tracker for the stream decoder d will read, set up as it is (source,
 * BOM mode, utfdfa_decoder_set_target, options; for utfdfa_transcode set
 * its target as well, so that what the target cannot hold is an error
 * here too), before it has read anything. */
UTFDFA_API void utfdfa_position_init(utfdfa_position *pos, const utfdfa_decoder *d);
/* Line and column of stream offset `at` (an error's offset), with the
 * current chunk chunk[0..len). Calls for one chunk come in increasing
 * order of `at`. */
UTFDFA_API void utfdfa_position_of(utfdfa_position *pos, const uint8_t *chunk, size_t len,
                                   uint64_t at, uint64_t *line, uint64_t *column);
/* The current chunk chunk[0..len) is done; the next one follows it. */
UTFDFA_API void utfdfa_position_advance(utfdfa_position *pos, const uint8_t *chunk, size_t len);

/* ---- encoding code points */
UTFDFA_API void utfdfa_encoder_init(utfdfa_encoder *e, enum utfdfa_encoding to,
                                    enum utfdfa_error_mode mode, enum utfdfa_bom bom);
/* Options from enum utfdfa_encoder_option, or-ed; call after init. */
UTFDFA_API void utfdfa_encoder_set_options(utfdfa_encoder *e, unsigned options);
/* Encode src[0..*src_len) code points. Surrogates and values above U+10FFFF
 * are errors (strict: unencodable, too-large), U+FFFD (replace) or
 * dropped (ignore). The BOM mode
 * applies to the first code point, as in the decoder; with `last` and
 * nothing encoded, UTFDFA_BOM_ADD writes just the BOM.
 * UTF-7 (RFC 2152): Set D and SP, TAB, CR, LF are sent directly (Set O too
 * with UTFDFA_UTF7_DIRECT_SET_O), "+" as "+-", anything else in a base64
 * run of UTF-16 units; a run ends with "-" when the next character is a
 * base64 character or "-", or at the end (`last`), else with nothing. */
UTFDFA_API utfdfa_result utfdfa_encode(utfdfa_encoder *e, const uint32_t *src, size_t *src_len,
                                       uint8_t *dst, size_t *dst_len, bool last,
                                       utfdfa_error *err);

/* ---- worst-case sizes; false when the answer does not fit a size_t */
/* Bytes needed to encode n code points (any values, replacement included). */
UTFDFA_API bool utfdfa_max_encoded_len(enum utfdfa_encoding to, size_t n, size_t *out);
/* Output units (bytes for utfdfa_transcode; uint32_t for to == UTF32 native
 * via utfdfa_decode_utf32 and uint16_t via utfdfa_decode_utf16, see below)
 * needed to transcode src_len bytes of `from` in one call with last set,
 * replacement and an added BOM included. */
UTFDFA_API bool utfdfa_max_transcoded_len(enum utfdfa_encoding from, enum utfdfa_encoding to,
                                          size_t src_len, size_t *out);
UTFDFA_API bool utfdfa_max_utf32_len(enum utfdfa_encoding from, size_t src_len, size_t *out);
UTFDFA_API bool utfdfa_max_utf16_len(enum utfdfa_encoding from, size_t src_len, size_t *out);

/* ---- exact sizes and counts
 * What src[0..src_len) of `from` decodes to, read whole, as a decoder
 * initialised with (from, UTFDFA_REPLACE, UTFDFA_BOM_KEEP), no options,
 * writes it in one call with `last` set: for valid input its exact size;
 * for any other input that of its replaced form, each ill-formed subpart one
 * U+FFFD (so a caller may size a replacing conversion with it, or validate
 * first with utfdfa_validate). UTF-16 and UTF-32 without a byte order: their
 * BOM is a signature, not counted. Defined for every input; src is read
 * within src_len only (and may be NULL when src_len is 0). UTF-8, UTF-16 and UTF-32 sources are validated and
 * counted by the kernels (utfdfa_kernel_name); the others are decoded.
 * The number of code points (of characters and U+FFFDs, at most src_len):
 * what utfdfa_decode_utf32 writes. */
UTFDFA_API size_t utfdfa_code_points(enum utfdfa_encoding from, const uint8_t *src,
                                     size_t src_len);
/* Bytes utfdfa_transcode writes into UTFDFA_UTF8 (a value UTF-8 cannot hold,
 * a WTF-8 surrogate or one above U+10FFFF, is a U+FFFD of 3 bytes); false
 * when that does not fit a size_t. */
UTFDFA_API bool utfdfa_utf8_len(enum utfdfa_encoding from, const uint8_t *src, size_t src_len,
                                size_t *out);
/* uint16_t units utfdfa_decode_utf16 writes (a character above U+FFFF two;
 * twice that for bytes of UTF-16LE/BE). */
UTFDFA_API bool utfdfa_utf16_len(enum utfdfa_encoding from, const uint8_t *src, size_t src_len,
                                 size_t *out);
/* uint32_t units written into UTF-32: utfdfa_code_points (times 4 for the
 * bytes of UTF-32LE/BE; into UTF-32 without a byte order 4 more, its BOM,
 * unless the text is empty). */
UTFDFA_API bool utfdfa_utf32_len(enum utfdfa_encoding from, const uint8_t *src, size_t src_len,
                                 size_t *out);
/* The kernel level in use: the best this CPU has, chosen once at run time
 * ("scalar", "sse2", "sse4", "avx2", "avx512", "avx512vbmi" on x86-64,
 * "neon" on AArch64; "scalar" elsewhere). */
UTFDFA_API const char *utfdfa_kernel_name(void);

#ifdef __cplusplus
}
#endif

#endif /* UTFDFA_H */
