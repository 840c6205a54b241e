/* SPDX-License-Identifier: MIT */
// The peers' columns of make bench-arm64 (tests/bench/arm64_ipb.sh): one
// peer's operation run REPS times over the input tests/bench/ipb.c reads
// (tests/bench/ipb_input.c), so that the script's counts for REPS = 1 and 2
// differ by that operation alone, as for utfdfa's levels. The peers are C++
// libraries, hence C++ here (ipb.c stays C). tests/bench/arm64_peers.sh
// builds it once per peer that is present: ipb_simdjson with HAVE_SIMDJSON
// (Debian's libsimdjson-dev:arm64), ipb_simdutf with HAVE_SIMDUTF (simdutf's
// amalgamation, named by SIMDUTF=DIR, cross-built into build/).
// The last run's output is checked against utfdfa's after the runs (once in
// either count, so outside the difference); a disagreement fails the run.
//
// Usage: ipb_peers PEER OP FILE BYTES REPS
//        ipb_peers --list      each peer and operation built in, "PEER OP" a line
//        ipb_peers --versions  each peer's version and kernel, a line each
//   simdjson       validate: simdjson::validate_utf8 (through its dispatch,
//                  which picks its arm64 kernel; --versions names it)
//   simdutf        simdutf's arm64 kernel, called directly, its validating
//                  functions: validate_utf8; ascii-utf8 is validate_utf8
//                  then memcpy (a validated copy, as utfdfa's);
//                  convert_utf8_to_utf16le, convert_utf8_to_utf32,
//                  convert_utf16le_to_utf8
//   simdutf-valid  utf8-utf16le by the same kernel's valid-input
//                  conversion, convert_valid_utf8_to_utf16le, which checks
//                  nothing (utfdfa's validates: the simdutf column is the
//                  like for like, this one the bound)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ipb_input.h"

#ifdef HAVE_SIMDJSON
#include <simdjson.h>
#endif
#ifdef HAVE_SIMDUTF
#include "simdutf.h"
#endif

namespace {

// The operation's input, both forms made before the runs.
struct texts {
    const char *u8;
    size_t n8;
    const char16_t *u16;
    size_t n16; // units
};

// The outputs, large enough for any operation's.
struct outs {
    char *bytes;
    char16_t *u16;
    char32_t *u32;
};

// One operation: the bytes it wrote (validate: the input's length when it
// is valid), 0 at an error.
typedef size_t (*op_fn)(const texts &in, const outs &out);

struct peer_op {
    const char *peer;
    const char *op;
    op_fn run;
};

#ifdef HAVE_SIMDJSON
size_t sj_validate(const texts &in, const outs &)
{
    return simdjson::validate_utf8(in.u8, in.n8) ? in.n8 : 0;
}
#endif

#ifdef HAVE_SIMDUTF
const simdutf::implementation *arm64_kernel()
{
    static const simdutf::implementation *k = simdutf::get_available_implementations()["arm64"];
    return k;
}

size_t su_validate(const texts &in, const outs &)
{
    return arm64_kernel()->validate_utf8(in.u8, in.n8) ? in.n8 : 0;
}

size_t su_copy(const texts &in, const outs &out)
{
    if (!arm64_kernel()->validate_utf8(in.u8, in.n8))
        return 0;
    memcpy(out.bytes, in.u8, in.n8);
    return in.n8;
}

size_t su_utf16(const texts &in, const outs &out)
{
    return 2 * arm64_kernel()->convert_utf8_to_utf16le(in.u8, in.n8, out.u16);
}

size_t su_utf32(const texts &in, const outs &out)
{
    return 4 * arm64_kernel()->convert_utf8_to_utf32(in.u8, in.n8, out.u32);
}

size_t su_from16(const texts &in, const outs &out)
{
    return arm64_kernel()->convert_utf16le_to_utf8(in.u16, in.n16, out.bytes);
}

size_t su_valid_utf16(const texts &in, const outs &out)
{
    return 2 * arm64_kernel()->convert_valid_utf8_to_utf16le(in.u8, in.n8, out.u16);
}
#endif

const peer_op ops[] = {
#ifdef HAVE_SIMDJSON
    {"simdjson", "validate", sj_validate},
#endif
#ifdef HAVE_SIMDUTF
    {"simdutf", "validate", su_validate},
    {"simdutf", "ascii-utf8", su_copy},
    {"simdutf", "utf8-utf16le", su_utf16},
    {"simdutf", "utf8-utf32", su_utf32},
    {"simdutf", "utf16le-utf8", su_from16},
    {"simdutf-valid", "utf8-utf16le", su_valid_utf16},
#endif
    {nullptr, nullptr, nullptr},
};

// Whether the peer's kernel is in this build and runs here.
bool ready(const char *peer)
{
#ifdef HAVE_SIMDUTF
    if (strncmp(peer, "simdutf", 7) == 0)
        return arm64_kernel() && arm64_kernel()->supported_by_runtime_system();
#endif
    return peer != nullptr;
}

const peer_op *find(const char *peer, const char *op)
{
    for (const peer_op *p = ops; p->peer; p++)
        if (strcmp(p->peer, peer) == 0 && strcmp(p->op, op) == 0)
            return p;
    return nullptr;
}

// utfdfa's output for `op` (validate: none), into `want`; its bytes.
size_t expected(const char *op, const texts &in, std::vector<uint8_t> &want)
{
    const uint8_t *u8 = reinterpret_cast<const uint8_t *>(in.u8);
    want.resize(4 * in.n8 + 64);
    if (strcmp(op, "utf8-utf16le") == 0)
        return ipb_transcode(UTFDFA_UTF8, UTFDFA_UTF16LE, u8, in.n8, want.data(), want.size());
    if (strcmp(op, "utf8-utf32") == 0)
        return ipb_transcode(UTFDFA_UTF8, UTFDFA_UTF32LE, u8, in.n8, want.data(), want.size());
    if (strcmp(op, "validate") != 0)
        memcpy(want.data(), u8, in.n8); // ascii-utf8 and utf16le-utf8 give the UTF-8 back
    return in.n8;
}

// Whether the last run wrote what utfdfa writes.
bool agrees(const char *op, const texts &in, const outs &out, size_t got)
{
    std::vector<uint8_t> want;
    size_t n = expected(op, in, want);
    if (got != n)
        return false;
    const void *mine = strcmp(op, "utf8-utf16le") == 0 ? static_cast<const void *>(out.u16)
                       : strcmp(op, "utf8-utf32") == 0 ? static_cast<const void *>(out.u32)
                                                       : static_cast<const void *>(out.bytes);
    return strcmp(op, "validate") == 0 || memcmp(mine, want.data(), n) == 0;
}

int list()
{
    for (const peer_op *p = ops; p->peer; p++)
        printf("%s %s\n", p->peer, p->op);
    return 0;
}

// Each peer's version and the kernel that runs, a line each.
int versions()
{
#ifdef HAVE_SIMDJSON
    printf("simdjson %s, kernel %s\n", SIMDJSON_STRINGIFY(SIMDJSON_VERSION),
           std::string(simdjson::get_active_implementation()->name()).c_str());
#endif
#ifdef HAVE_SIMDUTF
    if (ready("simdutf"))
        printf("simdutf %s, kernel %s\n", SIMDUTF_VERSION,
               std::string(arm64_kernel()->name()).c_str());
#endif
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 2 && strcmp(argv[1], "--list") == 0)
        return list();
    if (argc == 2 && strcmp(argv[1], "--versions") == 0)
        return versions();
    if (argc != 6) {
        fprintf(stderr, "usage: ipb_peers PEER OP FILE BYTES REPS | --list | --versions\n");
        return 2;
    }
    const peer_op *p = find(argv[1], argv[2]);
    size_t n, reps = static_cast<size_t>(atoi(argv[5]));
    uint8_t *src = ipb_read_prefix(argv[3], static_cast<size_t>(atol(argv[4])), &n);
    if (!p || !ready(p->peer) || !src) {
        fprintf(stderr, "ipb_peers: no %s %s in this build or here, or no input %s\n", argv[1],
                argv[2], argv[3]);
        return 1;
    }
    std::vector<char> bytes(4 * n + 64);
    std::vector<char16_t> in16(n + 32), u16(n + 32);
    std::vector<char32_t> u32(n + 16);
    size_t b16 = ipb_transcode(UTFDFA_UTF8, UTFDFA_UTF16LE, src, n,
                               reinterpret_cast<uint8_t *>(in16.data()), 2 * in16.size());
    texts in = {reinterpret_cast<const char *>(src), n, in16.data(), b16 / 2};
    outs out = {bytes.data(), u16.data(), u32.data()};
    size_t got = 0;
    for (size_t r = 0; r < reps; r++)
        got = p->run(in, out);
    if (!agrees(argv[2], in, out, got)) {
        fprintf(stderr, "ipb_peers: %s %s disagrees with utfdfa on %s\n", argv[1], argv[2],
                argv[3]);
        return 1;
    }
    // the bytes of one operation's input (UTF-16LE's for utf16le-utf8), as ipb prints
    printf("%zu %zu\n", strcmp(argv[2], "utf16le-utf8") == 0 ? b16 : n, got);
    return 0;
}
