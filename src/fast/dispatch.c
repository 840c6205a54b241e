/* SPDX-License-Identifier: MIT */
/* The kernels' entry points: each calls the level chosen once, on first
 * use, from what the CPU supports (x86-64: the best of levels.h's levels;
 * elsewhere the scalar level). The choice is a relaxed atomic: threads that
 * race on the first call store the same value. */
#include "levels.h"

#if !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
#define KERN_ATOMIC 1
#else
#define KERN_ATOMIC 0
#endif

/* The levels' rows (levels.h): each level's kernels (a level with none of
 * its own shares the one below), name and predicate. */
#define KERN_ROW_TABLE(id, name, detect, kernels, utf8_set, utf8_scan) [LEVEL_##id] = &kernels,
static const struct fast_kernels *const kern_tables[FAST_LEVELS] = {KERN_LEVELS(KERN_ROW_TABLE)};
#undef KERN_ROW_TABLE

#define KERN_ROW_NAME(id, name, detect, kernels, utf8_set, utf8_scan) [LEVEL_##id] = #name,
static const char *const kern_names[FAST_LEVELS] = {KERN_LEVELS(KERN_ROW_NAME)};
#undef KERN_ROW_NAME

#if KERN_X86
#include "x86/detect.h"
#else
struct kern_cpu {
    int none; /* no level to detect: each is baseline */
};

static void kern_cpu_read(struct kern_cpu *cpu)
{
    cpu->none = 0;
}
#endif

/* The detect column of a baseline level. */
static inline int kern_baseline(const struct kern_cpu *cpu)
{
    (void)cpu;
    return 1;
}

/* The best level this CPU has: the levels are a ladder, climbed while the
 * CPU has the next rung. */
static enum fast_level kern_detect(void)
{
    struct kern_cpu cpu;
    kern_cpu_read(&cpu);
#define KERN_ROW_CLIMB(id, name, detect, kernels, utf8_set, utf8_scan) \
    if (!detect(&cpu))                                              \
        return (enum fast_level)(LEVEL_##id - 1);
    KERN_LEVELS(KERN_ROW_CLIMB)
#undef KERN_ROW_CLIMB
    return (enum fast_level)(FAST_LEVELS - 1);
}

/* kern_detect's level plus one, 0 until asked (cpuid traps to the
 * hypervisor in a VM: asked once). Threads that race store the same. */
#if KERN_ATOMIC
static atomic_int kern_best_seen;
#define KERN_BEST_LOAD() atomic_load_explicit(&kern_best_seen, memory_order_relaxed)
#define KERN_BEST_STORE(v) atomic_store_explicit(&kern_best_seen, (v), memory_order_relaxed)
#else
static int kern_best_seen;
#define KERN_BEST_LOAD() kern_best_seen
#define KERN_BEST_STORE(v) (kern_best_seen = (v))
#endif

static enum fast_level kern_best(void)
{
    int v = KERN_BEST_LOAD();
    if (v == 0) {
        v = 1 + (int)kern_detect();
        KERN_BEST_STORE(v);
    }
    return (enum fast_level)(v - 1);
}

/* Whether this CPU has every feature of `level` (the levels are a ladder). */
static int kern_supported(enum fast_level level)
{
    return level <= kern_best();
}

int utfdfa__fast_cpu_has(enum fast_level level)
{
    return kern_supported(level);
}

/* The level plus one; 0 until the first use. */
#if KERN_ATOMIC
atomic_int utfdfa__fast_chosen; /* levels.h reads it inline */

static int kern_load(void)
{
    return atomic_load_explicit(&utfdfa__fast_chosen, memory_order_relaxed);
}

static void kern_store(int v)
{
    atomic_store_explicit(&utfdfa__fast_chosen, v, memory_order_relaxed);
}
#else
/* Without C11 atomics: the scalar level unless a test forces another. */
static int kern_chosen = 1 + LEVEL_SCALAR;

static int kern_load(void)
{
    return kern_chosen;
}

static void kern_store(int v)
{
    kern_chosen = v;
}
#endif

enum fast_level utfdfa__fast_level(void)
{
    int v = kern_load();
    if (v == 0) {
        v = 1 + (int)kern_best();
        kern_store(v);
    }
    return (enum fast_level)(v - 1);
}

static const struct fast_kernels *kern_level(void)
{
    return kern_tables[utfdfa__fast_level()];
}

const char *utfdfa__fast_level_name(void)
{
    return kern_names[utfdfa__fast_level()];
}

/* The tests' and benchmarks' hooks: built only into their copy of this file
 * (UTFDFA_TEST_HOOKS, tests' libutfdfa-hooks.a), never into the library. */
#ifdef UTFDFA_TEST_HOOKS
/* The level named `level` when this build and CPU have it, else -1. */
static int kern_named(const char *level)
{
    for (int l = 0; l < FAST_LEVELS; l++)
        if (strcmp(level, kern_names[l]) == 0 && kern_tables[l] &&
            kern_supported((enum fast_level)l))
            return l;
    return -1;
}

int utfdfa__fast_has(const char *level)
{
    return kern_named(level) >= 0;
}

int utfdfa__fast_force(const char *level)
{
    int l = strcmp(level, "auto") == 0 ? (int)kern_best() : kern_named(level);
    if (l < 0)
        return 0;
    kern_store(1 + l);
    return 1;
}
#endif

size_t utfdfa__ascii_copy(enum fast_form from, enum fast_form to, const uint8_t *src,
                          size_t src_len, uint8_t *dst, size_t dst_len)
{
    return kern_level()->ascii_copy(from, to, src, src_len, dst, dst_len);
}

size_t utfdfa__utf16_to_cp(enum fast_form from, const uint8_t *src, size_t src_len,
                           uint32_t *dst, size_t cap, size_t *written)
{
    return kern_level()->utf16_to_cp(from, src, src_len, dst, cap, written);
}

size_t utfdfa__utf32_to_cp(enum fast_form from, const uint8_t *src, size_t src_len,
                           uint32_t *dst, size_t cap, size_t *written)
{
    return kern_level()->utf32_to_cp(from, src, src_len, dst, cap, written);
}

size_t utfdfa__cp_to_form(enum fast_form to, const uint32_t *src, size_t n, uint8_t *dst,
                          size_t dst_len, size_t *written)
{
    return kern_level()->cp_to_form(to, src, n, dst, dst_len, written);
}

size_t utfdfa__wide_transcode(enum fast_form from, enum fast_form to, const uint8_t *src,
                              size_t src_len, uint8_t *dst, size_t dst_len, size_t *written)
{
    return kern_level()->wide_transcode(from, to, src, src_len, dst, dst_len, written);
}

int utfdfa__wide_fused(enum fast_form from, enum fast_form to)
{
    return (int)(kern_level()->wide_pairs >> KERN_PAIR(from, to) & 1u);
}

size_t utfdfa__utf7_b64(int imap, const uint8_t *src, size_t n, void *dst, unsigned width,
                        size_t cap, size_t *written)
{
    return kern_level()->utf7_b64(imap, src, n, dst, width, cap, written);
}

size_t utfdfa__utf7_text(int imap, const uint8_t *src, size_t n, void *dst, unsigned width,
                         size_t cap, size_t *written)
{
    return kern_level()->utf7_text(imap, src, n, dst, width, cap, written);
}

uint64_t utfdfa__count(enum fast_form from, enum fast_count what, const uint8_t *src, size_t len)
{
    return kern_level()->count(from, what, src, len);
}
