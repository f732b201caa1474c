// The background loader: ordered events, one-line failures, silence after cancel.
import Dispatch
import Foundation
import Synchronization
import Testing
import TestSupport
@testable import Pictures

@Suite("Picture loader")
struct PictureLoaderTests {
    static func write(_ bytes: [UInt8], _ name: String) throws -> String {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("pictures-loader-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }

    /// Event names with progress values collapsed, for comparing whole sequences.
    static func shape(_ events: [PictureLoadEvent]) -> [String] {
        var names: [String] = []
        for event in events {
            let name: String
            switch event {
            case .progress: name = "progress"
            case .header: name = "header"
            case .preview: name = "preview"
            case .animation(let animation, let delay): name = "animation of \(animation.frameCount) frames, first \(delay) ms"
            case .loaded: name = "loaded"
            case .failed(let error): name = "failed: \(error.description)"
            }
            if name != "progress" || names.last != "progress" { names.append(name) }
        }
        return names
    }

    static func progressValues(_ events: [PictureLoadEvent]) -> [Double] {
        events.compactMap { if case .progress(let p) = $0 { return p } else { return nil } }
    }

    static func collect(_ loader: PictureLoader, _ path: String) async -> [PictureLoadEvent] {
        var events: [PictureLoadEvent] = []
        for await event in loader.events(path: path) { events.append(event) }
        return events
    }

    @Test("a small PNG: progress, header, progress to 1, loaded")
    func smallPNG() async throws {
        let png = PNGWriter(width: 30, height: 20, colorType: 2).encode { x, y in [x, y, 9] }
        let events = await Self.collect(PictureLoader(), try Self.write(png, "small.png"))
        #expect(Self.shape(events) == ["progress", "header", "progress", "loaded"])
        let progress = Self.progressValues(events)
        #expect(progress == progress.sorted() && progress.last == 1)
        guard case .loaded(let picture) = events.last else { return }
        #expect(picture.width == 30 && picture.pixel(x: 29, y: 19) == argb(29, 19, 9))
    }

    @Test("a large JPEG: a preview within the pixel budget arrives before the full picture")
    func previewFirst() async throws {
        let (w, h) = (512, 384)
        let jpeg = try JPEGEncoder.encode(argb: blockPattern(width: w, height: h), width: w, height: h)
        var options = PictureLoader.Options()
        options.previewThreshold = 100_000
        options.previewMaxPixels = 64 * 48
        let events = await Self.collect(PictureLoader(options: options), try Self.write(jpeg, "large.jpg"))
        #expect(Self.shape(events) == ["progress", "header", "progress", "preview", "progress", "loaded"])
        for event in events {
            if case .preview(let p) = event { #expect(p.width == 64 && p.height == 48 && p.fullWidth == w) }
            if case .loaded(let p) = event { #expect(p.width == w && !p.isPreview) }
        }
        let progress = Self.progressValues(events)
        #expect(progress == progress.sorted() && progress.last == 1)
    }

    /// A 1600×1200 drawing: a dark left half, a light right half, a red disc in the middle.
    static let drawing = Array("""
        <svg xmlns="http://www.w3.org/2000/svg" width="1600" height="1200">
        <rect width="800" height="1200" fill="#203040"/><rect x="800" width="800" height="1200" fill="#e0e0c0"/>
        <circle cx="800" cy="600" r="300" fill="#c02020"/></svg>
        """.utf8)

    @Test("an SVG whose fit fills much of the screen: its quick rendition at a power-of-two level first, then the drawing, already rendered at the screen's fit")
    func vectorPreviewFirst() async throws {
        var options = PictureLoader.Options()
        (options.limits.screenWidth, options.limits.screenHeight) = (1280, 1024)
        let events = await Self.collect(PictureLoader(options: options), try Self.write(Self.drawing, "drawing.svg"))
        #expect(Self.shape(events) == ["progress", "header", "preview", "progress", "loaded"])
        // Fit 0.8 (1280 / 1600): 1280×960, 1.2 MP; the rendition at 0.25 (under half the fit), 400×300.
        guard case .preview(let preview)? = events.first(where: { if case .preview = $0 { true } else { false } }),
              case .loaded(let drawing)? = events.last else { return }
        #expect(preview.width == 400 && preview.height == 300 && preview.fullWidth == 1600 && !preview.isVector)
        #expect(preview.provisionalLevel == -2)
        #expect(preview.pixel(x: 50, y: 150) == 0xFF20_3040 && preview.pixel(x: 350, y: 150) == 0xFFE0_E0C0)
        #expect(preview.pixel(x: 200, y: 150) == 0xFFC0_2020)
        #expect(drawing.isVector && drawing.provisionalLevel == nil)
        // Rendered whole at the screen's fit before it was delivered, for its tiles to borrow.
        guard case .vector(let document) = drawing.storage else { Issue.record("not a vector picture"); return }
        #expect(document.renderedScales == [0.8])
        let fit = try #require(drawing.storedPixels(scale: 0.8))
        #expect(fit.framebuffer.width == 1280 && fit.framebuffer.height == 960)
        #expect(try #require(drawing.storedPixels(scale: 0.8)).framebuffer.base == fit.framebuffer.base)
    }

    @Test("an SVG small on the screen, or one not whole pixels at any level under half its fit, comes without a preview")
    func vectorWithoutPreview() async throws {
        var options = PictureLoader.Options()
        (options.limits.screenWidth, options.limits.screenHeight) = (800, 600)
        // Fit 0.5: 800×600, under a megapixel.
        let small = await Self.collect(PictureLoader(options: options), try Self.write(Self.drawing, "drawing.svg"))
        #expect(Self.shape(small) == ["progress", "header", "progress", "loaded"])
        #expect(SVGDocument.previewScale(width: 1600, height: 1200, fit: 0.8) == 0.25)
        #expect(SVGDocument.previewScale(width: 6000, height: 4000, fit: 0.27) == 0.125)
        #expect(SVGDocument.previewScale(width: 1601, height: 1200, fit: 0.8) == nil, "400.25 pixels across")
        #expect(SVGDocument.previewScale(width: 1600, height: 1200, fit: 0.5) == nil, "800×600: renders quickly")
        #expect(SVGDocument.previewScale(width: 1600, height: 1200, fit: .nan) == nil)
        #expect(SVGDocument.previewScale(width: 1600, height: 1200, fit: 0) == nil)
    }

    @Test("bad files fail with their one-line description and the loader keeps working")
    func badThenGood() async throws {
        let loader = PictureLoader()
        let empty = await Self.collect(loader, try Self.write([], "empty.png"))
        #expect(Self.shape(empty) == ["progress", "failed: empty.png: empty file"])
        let missing = await Self.collect(loader, "/nonexistent/dir/gone.jpg")
        #expect(Self.shape(missing) == ["progress", "failed: gone.jpg: cannot read: No such file or directory"])
        let png = PNGWriter(width: 2, height: 2, colorType: 0).encode { _, _ in [128] }
        let good = await Self.collect(loader, try Self.write(png, "good.png"))
        #expect(Self.shape(good).last == "loaded")
    }

    @Test("after cancel no event is delivered")
    func cancel() throws {
        let (w, h) = (512, 384)
        let jpeg = try JPEGEncoder.encode(argb: blockPattern(width: w, height: h), width: w, height: h)
        let path = try Self.write(jpeg, "cancel.jpg")
        var options = PictureLoader.Options()
        options.previewThreshold = 1
        let loader = PictureLoader(options: options)
        let received = Mutex<[String]>([])
        let taskBox = Mutex<PictureLoadTask?>(nil)
        let headerSeen = DispatchSemaphore(value: 0), boxFilled = DispatchSemaphore(value: 0)
        let task = loader.load(path: path) { event in
            if case .header = event {
                received.withLock { $0.append("header") }
                boxFilled.wait()  // the task handle exists before we cancel through it
                taskBox.withLock { $0?.cancel() }
                headerSeen.signal()
            } else if case .progress = event {
            } else {
                received.withLock { $0.append("other") }
            }
        }
        taskBox.withLock { $0 = task }
        boxFilled.signal()
        #expect(headerSeen.wait(timeout: .now() + 10) == .success)
        // A second load on the same serial queue finishes only after the first one ran out.
        let done = DispatchSemaphore(value: 0)
        loader.load(path: path) { event in if case .loaded = event { done.signal() } }
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(received.withLock { $0 } == ["header"])
        #expect(task.isCancelled)
    }

    /// Every event of loading page `page` of `path`, waiting up to 30 s for the last.
    static func collect(_ loader: PictureLoader, _ path: String, page: Int) -> [PictureLoadEvent] {
        let events = Mutex<[PictureLoadEvent]>([])
        let done = DispatchSemaphore(value: 0)
        loader.load(path: path, page: page) { event in
            events.withLock { $0.append(event) }
            switch event {
            case .loaded, .failed: done.signal()
            default: break
            }
        }
        _ = done.wait(timeout: .now() + 30)
        return events.withLock { $0 }
    }

    @Test("an animated GIF with opensAnimations: the player, then its first frame; without it the frame alone")
    func animationEvent() throws {
        let (folder, entries) = try GeneratedCorpus.generated.get()
        let entry = try #require(entries.first { $0.file == "gif-animated.gif" })
        let path = folder.appendingPathComponent(entry.file).path
        var options = PictureLoader.Options()
        options.opensAnimations = true
        let events = Self.collect(PictureLoader(options: options), path, page: 0)
        #expect(Self.shape(events) == ["progress", "header", "animation of 4 frames, first 200 ms", "progress", "loaded"])
        guard case .loaded(let first) = events.last else { return }
        let reference = try entry.referencePixels(in: folder, frame: 0)
        #expect(CorpusTests.compare(first.pixel, width: first.width, height: first.height, reference: reference).worst == 0)
        // The player goes on from the second frame.
        let animation = try #require(events.lazy.compactMap { if case .animation(let a, _) = $0 { a } else { nil } }.first)
        let second = try #require(try animation.next())
        #expect(second.index == 1 && second.delayMs == 100)
        let plain = Self.collect(PictureLoader(), path, page: 0)
        #expect(Self.shape(plain) == ["progress", "header", "progress", "loaded"])
    }

    @Test("a page of a multi-page TIFF loads with its own header; a page past the last fails naming it")
    func pageLoads() throws {
        let (folder, entries) = try GeneratedCorpus.generated.get()
        let entry = try #require(entries.first { $0.file == "tiff-pages.tif" })
        let path = folder.appendingPathComponent(entry.file).path
        let events = Self.collect(PictureLoader(), path, page: 1)
        let header = try #require(events.lazy.compactMap { if case .header(let h) = $0 { h } else { nil } }.first)
        #expect(header.page == 1 && header.pageCount == 3 && header.width == 32 && header.height == 40)
        guard case .loaded(let picture) = events.last else {
            Issue.record("page 2 did not load: \(Self.shape(events))")
            return
        }
        #expect(picture.page == 1 && picture.width == 32)
        let past = Self.collect(PictureLoader(), path, page: 3)
        #expect(Self.shape(past) == ["progress", "failed: tiff-pages.tif: no page 4: the file has 3 pages"])
    }
}
