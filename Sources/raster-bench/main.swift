// raster-bench: measures the renderer's kernels next to memcpy and pixman in one run.
import CPixman
import Foundation
import Raster

var bench = Bench(arguments: CommandLine.arguments)
bench.run()
