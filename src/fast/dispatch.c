/* SPDX-License-Identifier: MIT */
/* The kernels' entry points: each calls the level chosen once, on first
 * use, from what the CPU supports (x86-64: AVX2, else the SSE2 baseline;
 * elsewhere the scalar level). The choice is a relaxed atomic pointer to a
 * constant table: threads that race on the first call store the same value. */
#include "levels.h"

#if !defined(__STDC_NO_ATOMICS__)
#include <stdatomic.h>
#define KERN_ATOMIC 1
#else
#define KERN_ATOMIC 0
#endif

static const struct fast_kernels *kern_detect(void)
{
#if KERN_X86
    if (__builtin_cpu_supports("avx2"))
        return &utfdfa__fast_avx2;
    return &utfdfa__fast_sse2;
#else
    return &utfdfa__fast_scalar;
#endif
}

#if KERN_ATOMIC
static _Atomic(const struct fast_kernels *) kern_chosen;

static const struct fast_kernels *kern_level(void)
{
    const struct fast_kernels *k = atomic_load_explicit(&kern_chosen, memory_order_relaxed);
    if (k == NULL) {
        k = kern_detect();
        atomic_store_explicit(&kern_chosen, k, memory_order_relaxed);
    }
    return k;
}

static void kern_set_level(const struct fast_kernels *k)
{
    atomic_store_explicit(&kern_chosen, k, memory_order_relaxed);
}
#else
/* Without C11 atomics: the scalar level unless a test forces another. */
static const struct fast_kernels *kern_chosen = &utfdfa__fast_scalar;

static const struct fast_kernels *kern_level(void)
{
    return kern_chosen;
}

static void kern_set_level(const struct fast_kernels *k)
{
    kern_chosen = k;
}
#endif

int utfdfa__fast_force(const char *level)
{
    const struct fast_kernels *k = NULL;
    if (strcmp(level, "auto") == 0)
        k = kern_detect();
    else if (strcmp(level, "scalar") == 0)
        k = &utfdfa__fast_scalar;
#if KERN_X86
    else if (strcmp(level, "sse2") == 0)
        k = &utfdfa__fast_sse2;
    else if (strcmp(level, "avx2") == 0 && __builtin_cpu_supports("avx2"))
        k = &utfdfa__fast_avx2;
#endif
    if (k == NULL)
        return 0;
    kern_set_level(k);
    return 1;
}

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
