#!/usr/bin/env python3
"""Test vectors for hash ids 6 to 11 (FORMAT.md, "Version 5: filters of 64-bit
keys", "Version 6: filters of 64-bit keys, keys mixed" and "Version 7: filters
of 64-bit keys, the seeded mix").

A second implementation of the layout, written from its definition in
cpp/include/cuckoo/hashing.hpp and FORMAT.md with Python's integers and
nothing from this repository, so that the core and this script can only agree
by both following the text. It covers 8-byte items (the multiply-add-shift
hash, of the key itself for ids 6 and 7, of the key mixed by MurmurHash3's
64-bit finalizer for ids 8 and 9; that finalizer alone, of the key XOR a seed
word, for ids 10 and 11); items of any other length hash with XXH3
exactly as hash id 1 does and have their vectors in FORMAT.md's "Test vectors"
already.

    python3 tests/vectors/mulshift_vectors.py

prints the Markdown tables that FORMAT.md holds (version 5's, 6's, then 7's);

    python3 tests/vectors/mulshift_vectors.py --cpp
    python3 tests/vectors/mulshift_vectors.py --cpp-mix64

print tests/cpp/mulshift_mixed_vectors.inc and tests/cpp/mix64_vectors.inc, the
vectors of ids 8 and 9 and of ids 10 and 11 as the C++ initializers that
tests/cpp/test_mulshift_hash.cpp includes. That test checks the core against
the same numbers.
"""

import random
import sys

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


# Hash ids 8 and 9: the key is first mixed by MurmurHash3's 64-bit finalizer
# (fmix64), a bijection of the 64-bit integers, then hashed as above.
MIX_SHIFT = 33
MIX_M1 = 0xFF51AFD7ED558CCD
MIX_M2 = 0xC4CEB9FE1A85EC53


def mix_key(key):
    """fmix64: xor-shift 33, multiply, xor-shift 33, multiply, xor-shift 33 (mod 2^64)."""
    assert 0 <= key <= MASK64
    key ^= key >> MIX_SHIFT
    key = (key * MIX_M1) & MASK64
    key ^= key >> MIX_SHIFT
    key = (key * MIX_M2) & MASK64
    key ^= key >> MIX_SHIFT
    return key


def unmix_key(key):
    """The inverse of mix_key: x ^ (x >> 33) undoes itself (2 * 33 >= 64), and
    the multipliers are odd, so invertible mod 2^64."""
    inverse1 = pow(MIX_M1, -1, 1 << 64)
    inverse2 = pow(MIX_M2, -1, 1 << 64)
    key ^= key >> MIX_SHIFT
    key = (key * inverse2) & MASK64
    key ^= key >> MIX_SHIFT
    key = (key * inverse1) & MASK64
    key ^= key >> MIX_SHIFT
    return key


def mixed_item_hash(seed, item):
    """h of an 8-byte item under ids 8 and 9: the high 64 bits of (A * mix(key) + B) mod 2^128."""
    assert len(item) == 8, "other lengths hash with XXH3, as hash id 1"
    key = mix_key(int.from_bytes(item, "little"))
    a, b = constants(seed)
    return ((a * key + b) & MASK128) >> 64


# Hash ids 10 and 11: the key XOR s, the first SplitMix64 draw (A's high
# word), mixed by the same finalizer, and nothing after it.
def mix_seed_word(seed):
    return constants(seed)[0] >> 64


def seeded_mix_item_hash(seed, item):
    """h of an 8-byte item under ids 10 and 11: fmix64(key XOR s)."""
    assert len(item) == 8, "other lengths hash with XXH3, as hash id 1"
    return mix_key(int.from_bytes(item, "little") ^ mix_seed_word(seed))


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
    # The mix is a bijection that keeps 0 at 0: unmix undoes it, and the mixed
    # hash of key 0 is bHigh, as the unmixed one is.
    assert mix_key(0) == 0 and unmix_key(0) == 0
    for key in [1, 42, 1 << 63, MASK64] + [rng.randrange(1 << 64) for _ in range(1000)]:
        assert unmix_key(mix_key(key)) == key, key
        assert mix_key(unmix_key(key)) == key, key
    for seed in SEEDS:
        zero = (0).to_bytes(8, "little")
        assert mixed_item_hash(seed, zero) == item_hash(seed, zero) == constants(seed)[1] >> 64
        for key in (1, 42, MASK64):
            assert mixed_item_hash(seed, key.to_bytes(8, "little")) == item_hash(seed, mix_key(key).to_bytes(8, "little"))
    # Ids 10 and 11: the key XOR s, mixed; so the key s hashes to 0, and the
    # hash of key 0 is the mix of s.
    for seed in SEEDS:
        s_word = mix_seed_word(seed)
        assert seeded_mix_item_hash(seed, s_word.to_bytes(8, "little")) == 0
        assert seeded_mix_item_hash(seed, (0).to_bytes(8, "little")) == mix_key(s_word)
    # The fingerprint is never 0 and fits f bits.
    for f in (2, 12, 32):
        for h in (0, MASK64, 1 << 63, 0xFFFFFFFF):
            assert 1 <= fingerprint(h, f) <= (1 << f) - 1


SEEDS = [0, 42, 0xFFFFFFFFFFFFFFFF]
KEYS = [(0, "0"), (1, "1"), (42, "42"), (1 << 63, "2^63"), (0x0123456789ABCDEF, "0x0123456789abcdef")]
# Version 6's vectors use the same seeds and keys, and 2^64 - 1.
MIXED_KEYS = KEYS + [(MASK64, "2^64 − 1")]
F = 12


def seed_name(seed):
    return str(seed) if seed < 1 << 32 else "`0x%016x`" % seed


def print_markdown():

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
    print()

    print("Version 6 (hash ids 8 and 9).")
    print()
    print("Mixed keys (MurmurHash3's fmix64):")
    print()
    print("| key | mixed key |")
    print("|---|---|")
    for key, name in MIXED_KEYS:
        print("| `%s` | `0x%016x` |" % (name, mix_key(key)))
    print()

    print("Vectors (f = %d; `i1, i2` at m = 2^16, hash id 8; `i1, c, i2` at m = 1000, hash id 9):" % F)
    print()
    print("| seed | key | h | fingerprint | i1, i2 (2^16) | i1, c, i2 (1000) |")
    print("|---|---|---|---|---|---|")
    for row in mixed_rows():
        seed, name, h, fp, x1, x2, r1, c, r2 = row[0], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9]
        print("| %s | `%s` | `0x%016x` | %d | %d, %d | %d, %d, %d |" % (seed_name(seed), name, h, fp, x1, x2, r1, c, r2))
    print()

    seed, (key, name) = 42, MIXED_KEYS[4]
    h = mixed_item_hash(seed, key.to_bytes(8, "little"))
    print("The smallest and largest counts of each hash id (seed %d, key `%s`, h = `0x%016x`, f = %d):"
          % (seed, name, h, F))
    print()
    print("| hash id | m | fingerprint | i1 | c | i2 |")
    print("|---|---|---|---|---|---|")
    for hash_id, m, m_name, fp, i1, c, i2 in mixed_edges():
        print("| %d | %s | %d | %d |%s| %d |" % (hash_id, m_name, fp, i1, " " if c is None else " %d " % c, i2))
    print()

    print("Version 7 (hash ids 10 and 11).")
    print()
    print("Seed words (s, the first SplitMix64 output from `seed XOR 0xbb67ae8584caa73b`):")
    print()
    print("| seed | s |")
    print("|---|---|")
    for seed in SEEDS:
        print("| %s | `0x%016x` |" % (seed_name(seed), mix_seed_word(seed)))
    print()
    print("Vectors (f = %d; `i1, i2` at m = 2^16, hash id 10; `i1, c, i2` at m = 1000, hash id 11):" % F)
    print()
    print("| seed | key | h | fingerprint | i1, i2 (2^16) | i1, c, i2 (1000) |")
    print("|---|---|---|---|---|---|")
    for row in mixed_rows(seeded_mix_item_hash):
        seed, name, h, fp, x1, x2, r1, c, r2 = row[0], row[2], row[3], row[4], row[5], row[6], row[7], row[8], row[9]
        print("| %s | `%s` | `0x%016x` | %d | %d, %d | %d, %d, %d |" % (seed_name(seed), name, h, fp, x1, x2, r1, c, r2))
    print()
    seed, key, h = mixed_edge_key(seeded_mix_item_hash)
    print("The smallest and largest counts of each hash id (seed %d, key `%s`, h = `0x%016x`, f = %d):"
          % (seed, MIXED_KEYS[4][1], h, F))
    print()
    print("| hash id | m | fingerprint | i1 | c | i2 |")
    print("|---|---|---|---|---|---|")
    for hash_id, m, m_name, fp, i1, c, i2 in mixed_edges(seeded_mix_item_hash, (10, 11)):
        print("| %d | %s | %d | %d |%s| %d |" % (hash_id, m_name, fp, i1, " " if c is None else " %d " % c, i2))


def mixed_rows(hash_of=None):
    """(seed, key, key name, h, fp, i1, i2 at 2^16, i1, c, i2 at 1000) under ids 8 and 9, or another hash of keys."""
    hash_of = hash_of or mixed_item_hash
    rows = []
    for seed in SEEDS:
        for key, name in MIXED_KEYS:
            h = hash_of(seed, key.to_bytes(8, "little"))
            fp = fingerprint(h, F)
            x1 = xor_i1(h, 1 << 16)
            x2 = check_xor(x1, fp, 1 << 16)
            r1 = range_i1(h, 1000)
            r2 = check_range(r1, fp, 1000)
            rows.append((seed, key, name, h, fp, x1, x2, r1, range_c(fp, 1000), r2))
    return rows


def mixed_edge_key(hash_of=None):
    hash_of = hash_of or mixed_item_hash
    seed, (key, _) = 42, MIXED_KEYS[4]
    return seed, key, hash_of(seed, key.to_bytes(8, "little"))


def mixed_edges(hash_of=None, ids=(8, 9)):
    """(hash id, m, m's name, fp, i1, c or None, i2) at the smallest and largest counts of ids 8 and 9 (or `ids`)."""
    _, _, h = mixed_edge_key(hash_of)
    fp = fingerprint(h, F)
    edges = []
    for m, m_name in ((1, "1 (L = 0)"), (1 << 32, "2^32 (L = 32)")):
        i1 = xor_i1(h, m)
        edges.append((ids[0], m, m_name, fp, i1, None, check_xor(i1, fp, m)))
    for m, m_name in ((3, "3"), ((1 << 32) - 1, "2^32 − 1")):
        i1 = range_i1(h, m)
        edges.append((ids[1], m, m_name, fp, i1, range_c(fp, m), check_range(i1, fp, m)))
    return edges


def cpp_u64(value):
    return "0x%016xULL" % value


def cpp_u32(value):
    return "%dU" % value if value >= 1 << 31 else "%d" % value


def print_cpp_vectors(hash_of, ids, vectors_name, edge_prefix):
    """The "Vectors" and edge sections of an .inc: rows and edges of one hash of keys."""
    print("// Section \"Vectors\": f = %d; i1, i2 at m = 2^16 (hash id %d); j1, c, j2 at" % (F, ids[0]))
    print("// m = 1000 (hash id %d). `hash` is h of the 8-byte item whose little-endian value is `key`." % ids[1])
    print("[[maybe_unused]] const Vector %s[] = {" % vectors_name)
    for seed, key, _, h, fp, x1, x2, r1, c, r2 in mixed_rows(hash_of):
        print("    {%s, %s, %s, %d, %d, %d, %d, %d, %d}," % (cpp_u64(seed), cpp_u64(key), cpp_u64(h), fp, x1, x2, r1, c, r2))
    print("};")
    print()
    seed, key, h = mixed_edge_key(hash_of)
    edges = mixed_edges(hash_of, ids)
    print("// Section \"The smallest and largest counts of each hash id\": seed %d, key %s," % (seed, cpp_u64(key)))
    print("// f = %d; m = 1 and 2^32 (hash id %d, c unused: 0), m = 3 and 2^32 - 1 (hash id %d)." % (F, ids[0], ids[1]))
    print("[[maybe_unused]] const std::uint64_t %sSeed = %d;" % (edge_prefix, seed))
    print("[[maybe_unused]] const std::uint64_t %sKey = %s;" % (edge_prefix, cpp_u64(key)))
    print("[[maybe_unused]] const std::uint64_t %sHash = %s;" % (edge_prefix, cpp_u64(h)))
    print("[[maybe_unused]] const std::uint32_t %sFingerprint = %d;" % (edge_prefix, edges[0][3]))
    print("[[maybe_unused]] const Edge %ss[] = {" % edge_prefix)
    for _, m, _, _, i1, c, i2 in edges:
        m_text = {1: "1", 1 << 32: "std::uint64_t{1} << 32", 3: "3", (1 << 32) - 1: "(std::uint64_t{1} << 32) - 1"}[m]
        print("    {%s, %s, %s, %s}," % (m_text, cpp_u32(i1), cpp_u32(0 if c is None else c), cpp_u32(i2)))
    print("};")


def print_cpp():
    """tests/cpp/mulshift_mixed_vectors.inc: initializers for test_mulshift_hash.cpp."""
    print("// Hash ids 8 and 9 (FORMAT.md, \"Version 6: filters of 64-bit keys, keys mixed\"):")
    print("// the output of `python3 tests/vectors/mulshift_vectors.py --cpp`, the same numbers")
    print("// as the version 6 tables that `python3 tests/vectors/mulshift_vectors.py` prints")
    print("// after version 5's. Do not edit by hand; rerun the script.")
    print("//")
    print("// Where it is included, these must be declared, as in test_mulshift_hash.cpp:")
    print("//   struct Vector { std::uint64_t seed, key, hash;")
    print("//                   std::uint32_t fingerprint, i1, i2, j1, c, j2; };")
    print("//   struct Edge { std::uint64_t m; std::uint32_t i1, c, i2; };")
    print()
    print("// Section \"Mixed keys\": {key, mixKey64(key)}.")
    print("[[maybe_unused]] const std::uint64_t kMixedKeys[][2] = {")
    for key, _ in MIXED_KEYS:
        print("    {%s, %s}," % (cpp_u64(key), cpp_u64(mix_key(key))))
    print("};")
    print()
    print_cpp_vectors(mixed_item_hash, (8, 9), "kMixedVectors", "kMixedEdge")


def print_cpp_mix64():
    """tests/cpp/mix64_vectors.inc: initializers for test_mulshift_hash.cpp (ids 10 and 11)."""
    print("// Hash ids 10 and 11 (FORMAT.md, \"Version 7: filters of 64-bit keys, the seeded mix\"):")
    print("// the output of `python3 tests/vectors/mulshift_vectors.py --cpp-mix64`, the same numbers")
    print("// as the version 7 tables that `python3 tests/vectors/mulshift_vectors.py` prints")
    print("// last. Do not edit by hand; rerun the script.")
    print("//")
    print("// Where it is included, Vector and Edge must be declared as for mulshift_mixed_vectors.inc.")
    print()
    print("// Section \"Seed words\": {seed, s}.")
    print("[[maybe_unused]] const std::uint64_t kSeedWords[][2] = {")
    for seed in SEEDS:
        print("    {%s, %s}," % (cpp_u64(seed), cpp_u64(mix_seed_word(seed))))
    print("};")
    print()
    print_cpp_vectors(seeded_mix_item_hash, (10, 11), "kSeededMixVectors", "kSeededMixEdge")


def main():
    self_checks()
    if sys.argv[1:] == ["--cpp"]:
        print_cpp()
    elif sys.argv[1:] == ["--cpp-mix64"]:
        print_cpp_mix64()
    elif sys.argv[1:]:
        sys.exit("usage: mulshift_vectors.py [--cpp | --cpp-mix64]")
    else:
        print_markdown()


if __name__ == "__main__":
    main()
