#!/usr/bin/env python3
"""Test vectors for hash ids 6 and 7 (FORMAT.md, "Version 5: filters of 64-bit keys").

A second implementation of the layout, written from its definition in
cpp/include/cuckoo/hashing.hpp and FORMAT.md with Python's integers and
nothing from this repository, so that the core and this script can only agree
by both following the text. It covers 8-byte items (the multiply-add-shift
hash); items of any other length hash with XXH3 exactly as hash id 1 does and
have their vectors in FORMAT.md's "Test vectors" already.

    python3 tests/vectors/mulshift_vectors.py

prints the Markdown tables that FORMAT.md holds; tests/cpp/test_mulshift_hash.cpp
checks the core against the same numbers.
"""

import random

MASK32 = (1 << 32) - 1
MASK64 = (1 << 64) - 1
MASK128 = (1 << 128) - 1

CONSTANTS_SEED_MASK = 0xBB67AE8584CAA73B
GOLDEN32 = 0x9E3779B1


def splitmix64(state):
    """The outputs of SplitMix64 from `state`, one 64-bit value at a time."""
    while True:
        state = (state + 0x9E3779B97F4A7C15) & MASK64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK64
        yield z ^ (z >> 31)


def constants(seed):
    """A and B, the 128-bit multiplier and addend of a seed."""
    draws = splitmix64(seed ^ CONSTANTS_SEED_MASK)
    a_high, a_low, b_high, b_low = (next(draws) for _ in range(4))
    return a_high << 64 | a_low, b_high << 64 | b_low


def item_hash(seed, item):
    """h of an 8-byte item: the high 64 bits of (A * key + B) mod 2^128."""
    assert len(item) == 8, "other lengths hash with XXH3, as hash id 1"
    key = int.from_bytes(item, "little")
    a, b = constants(seed)
    return ((a * key + b) & MASK128) >> 64


def fingerprint(h, f):
    return 1 + (((h >> 32) * ((1 << f) - 1)) >> 32)


def offset_word(fp):
    """g(fp), the fingerprint's 32-bit offset word."""
    return (fp * GOLDEN32) & MASK32


def log2_exact(m):
    assert m >= 1 and m & (m - 1) == 0
    return m.bit_length() - 1


# Hash id 6: m = 2^L, the XOR relation.
def xor_i1(h, m):
    return (h & MASK32) & (m - 1)


def xor_offset(fp, m):
    level = log2_exact(m)
    return 0 if level == 0 else offset_word(fp) >> (32 - level)


def xor_alternate(i, fp, m):
    return i ^ xor_offset(fp, m)


# Hash id 7: any other m, the reflection about c.
def range_i1(h, m):
    return ((h & MASK32) * m) >> 32


def range_c(fp, m):
    return (offset_word(fp) * m) >> 32


def range_alternate(i, fp, m):
    return (range_c(fp, m) - i) % m


def check_xor(i1, fp, m):
    i2 = xor_alternate(i1, fp, m)
    assert 0 <= i1 < m and 0 <= i2 < m, (i1, i2, m)
    assert xor_alternate(i2, fp, m) == i1, (i1, fp, m)
    return i2


def check_range(i1, fp, m):
    i2 = range_alternate(i1, fp, m)
    assert m & (m - 1) != 0 and 3 <= m < 1 << 32, m
    assert 0 <= i1 < m and 0 <= i2 < m, (i1, i2, m)
    assert range_alternate(i2, fp, m) == i1, (i1, fp, m)
    return i2


def self_checks():
    # SplitMix64 as published (Vigna's splitmix64.c) from state 0.
    draws = splitmix64(0)
    assert [next(draws) for _ in range(3)] == [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
    # Both relations undo themselves for any fingerprint and bucket, at every
    # power of two and at other counts from the smallest to the largest.
    rng = random.Random(6)
    for level in range(33):
        m = 1 << level
        for _ in range(200):
            check_xor(rng.randrange(m), rng.randrange(1, 1 << 32), m)
    for m in [3, 5, 6, 7, 1000, 12345, (1 << 31) + 1, (1 << 32) - 1] + [rng.randrange(3, 1 << 32) for _ in range(50)]:
        if m & (m - 1) == 0:
            continue
        for _ in range(200):
            check_range(rng.randrange(m), rng.randrange(1, 1 << 32), m)
    # The fingerprint is never 0 and fits f bits.
    for f in (2, 12, 32):
        for h in (0, MASK64, 1 << 63, 0xFFFFFFFF):
            assert 1 <= fingerprint(h, f) <= (1 << f) - 1


SEEDS = [0, 42, 0xFFFFFFFFFFFFFFFF]
KEYS = [(0, "0"), (1, "1"), (42, "42"), (1 << 63, "2^63"), (0x0123456789ABCDEF, "0x0123456789abcdef")]
F = 12


def seed_name(seed):
    return str(seed) if seed < 1 << 32 else "`0x%016x`" % seed


def main():
    self_checks()

    print("Constants (the first four SplitMix64 outputs from `seed XOR 0xbb67ae8584caa73b`):")
    print()
    print("| seed | A | B |")
    print("|---|---|---|")
    for seed in SEEDS:
        a, b = constants(seed)
        print("| %s | `0x%032x` | `0x%032x` |" % (seed_name(seed), a, b))
    print()

    print("Vectors (f = %d; `i1, i2` at m = 2^16, hash id 6; `i1, c, i2` at m = 1000, hash id 7):" % F)
    print()
    print("| seed | key | h | fingerprint | i1, i2 (2^16) | i1, c, i2 (1000) |")
    print("|---|---|---|---|---|---|")
    for seed in SEEDS:
        for key, name in KEYS:
            h = item_hash(seed, key.to_bytes(8, "little"))
            fp = fingerprint(h, F)
            x1 = xor_i1(h, 1 << 16)
            x2 = check_xor(x1, fp, 1 << 16)
            r1 = range_i1(h, 1000)
            r2 = check_range(r1, fp, 1000)
            print("| %s | `%s` | `0x%016x` | %d | %d, %d | %d, %d, %d |"
                  % (seed_name(seed), name, h, fp, x1, x2, r1, range_c(fp, 1000), r2))
    print()

    seed, (key, name) = 42, KEYS[4]
    h = item_hash(seed, key.to_bytes(8, "little"))
    print("The smallest and largest counts of each hash id (seed %d, key `%s`, h = `0x%016x`, f = %d):"
          % (seed, name, h, F))
    print()
    print("| hash id | m | fingerprint | i1 | c | i2 |")
    print("|---|---|---|---|---|---|")
    fp = fingerprint(h, F)
    for m, m_name in ((1, "1 (L = 0)"), (1 << 32, "2^32 (L = 32)")):
        i1 = xor_i1(h, m)
        print("| 6 | %s | %d | %d | | %d |" % (m_name, fp, i1, check_xor(i1, fp, m)))
    for m, m_name in ((3, "3"), ((1 << 32) - 1, "2^32 − 1")):
        i1 = range_i1(h, m)
        print("| 7 | %s | %d | %d | %d | %d |" % (m_name, fp, i1, range_c(fp, m), check_range(i1, fp, m)))


if __name__ == "__main__":
    main()
