// A test trait that pins the renderers a test makes to one thread (`Parallel.withDefaultWorkers`):
// the test runner already runs one test per core, so renderers splitting frames across the
// cores too would only compete with it. Tests of the threaded paths set `Renderer.workers`
// (and `prefetchesInBackground`) themselves.
import Raster
import Testing

/// Renderers made inside the test or suite default to one thread.
public struct OneRenderThread: SuiteTrait, TestTrait, TestScoping {
    /// Runs the test, or every test of the suite, with `Parallel.defaultWorkers` at 1.
    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        try await Parallel.withDefaultWorkers(1) { try await function() }
    }
}

extension Trait where Self == OneRenderThread {
    /// Renderers made inside the test or suite default to one thread (`Renderer.workers`).
    public static var oneRenderThread: Self { OneRenderThread() }
}
