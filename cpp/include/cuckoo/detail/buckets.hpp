#pragma once
// A table's buckets as the filter's algorithms see them
// (filter_algorithms.hpp), over the bytes a PackedTable or SemiSortedTable owns. A view takes its shape as
// template arguments, so that a specialised kernel's masks, strides and
// shifts are constants, or 0 for "known only at run time": the generic
// kernel, which serves every shape.
//
// Every view offers the same operations. A lookup is split in two, so that a
// batch can issue the loads of many items before it compares anything:
// probe(bucket) loads a bucket, holds(probe, fp) and matching(probe, fp) test
// it. Mutations read, change and write one bucket at a time, always choosing
// the lowest slot, so that every view leaves the same bytes.
//
// The views: PackedBuckets (packed_buckets.hpp) and SemiSortedBuckets
// (semi_sorted_buckets.hpp), over the lanes of bucket_lanes.hpp.

#include "cuckoo/detail/packed_buckets.hpp"
#include "cuckoo/detail/semi_sorted_buckets.hpp"
