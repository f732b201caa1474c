// raster-bench: measures the renderer's kernels next to memcpy and pixman in one run.
//
// Not on ordo-one/package-benchmark, considered for issue 20.5: 1.38.1 resolves from this
// machine's package copies (with traits: ["MallocInterposer"], which needs tools version 6.1) and
// reports percentiles and malloc counts, but it runs each benchmark to its end before the next,
// and compares a run with baselines saved by earlier runs. The figures here are ratios to memcpy
// and pixman timed interleaved in the same rounds, so load from other processes on a shared
// two-core machine falls on both sides alike; a ratio of two package-benchmark results, or of a
// result and an old baseline, mixes two moments of that load. Its release build added 125 s of CPU
// (5 min 47 s wall on this loaded machine, its Histogram, Atomics, TextTable, swift-numerics and
// malloc interposer) and `swift package benchmark` another 62 s. What it would add, percentiles
// besides the median, minimum and maximum printed here and malloc counts, does not pay for losing
// the interleaved ratios.
import CPixman
import Foundation
import Raster

var bench = Bench(arguments: CommandLine.arguments)
bench.run()
