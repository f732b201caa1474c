// The picture corpus Scripts/make-corpus.py writes at test time (every format in its main
// variants, with reference pixels from decoders that are not ours), shared by the decoder tests
// and the viewer's screenshot tests.
import CompositorHarness
import Foundation

/// One file of the generated corpus, as manifest.json lists it.
public struct CorpusEntry: Decodable, CustomStringConvertible, Sendable {
    /// One reference picture: a page and frame of the file, as straight RGBA bytes.
    public struct Reference: Decodable, Sendable {
        public let page: Int
        public let frame: Int
        /// The reference file's name in the corpus folder.
        public let rgba: String
        /// Its size, in pixels.
        public let width: Int
        public let height: Int
    }
    /// The file's name in the corpus folder.
    public let file: String
    /// The format's short name (png, jpeg, webp, gif, tiff, heif, avif, jxl, svg, bmp).
    public let format: String
    /// What variant of the format it is, in words.
    public let variant: String
    public let pages: Int
    public let frames: Int
    /// The frames' delays as a viewer shows them, in ms (animations only).
    public let delays: [Int]?
    /// Largest difference allowed in any channel of any pixel, in 8-bit levels.
    public let tolerance: Int
    public let references: [Reference]

    public var description: String { "\(file) (\(variant))" }

    /// The reference bytes (straight RGBA) of `page` and `frame`, read from `folder`.
    public func referencePixels(in folder: URL, page: Int = 0, frame: Int = 0) throws -> [UInt8] {
        guard let reference = references.first(where: { $0.page == page && $0.frame == frame }) else {
            throw GeneratedCorpus.CorpusError(message: "\(file) has no reference for page \(page), frame \(frame)")
        }
        return [UInt8](try Data(contentsOf: folder.appendingPathComponent(reference.rgba)))
    }
}

/// The corpus, generated once per test process into a private folder.
public enum GeneratedCorpus {
    static let script = PackagePaths.packageRoot().appendingPathComponent("Scripts/make-corpus.py")

    /// The folder and its manifest; a failure to generate is a test failure, never a skip.
    public static let generated: Result<(URL, [CorpusEntry]), CorpusError> = {
        do {
            // A folder only this user can enter (mkdtemp, 0700), kept for the whole test
            // process and removed when it ends (atexit takes no closure context: the path goes
            // through a global).
            var template = Array((NSTemporaryDirectory() + "/pictures-corpus.XXXXXX").utf8CString)
            guard let made = mkdtemp(&template) else {
                throw CorpusError(message: "cannot make a folder for the corpus: \(String(cString: strerror(errno)))")
            }
            let folder = URL(fileURLWithPath: String(cString: made))
            corpusFolderToRemove = folder.path
            atexit { if let path = corpusFolderToRemove { try? FileManager.default.removeItem(atPath: path) } }
            // Debian's interpreter, where python3-pil is installed (a PATH python may lack it).
            let result = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), [script.path, folder.path])
            guard result.status == 0 else {
                throw CorpusError(message: "make-corpus.py failed (\(result.status)): \(result.stderr)")
            }
            let manifest = try Data(contentsOf: folder.appendingPathComponent("manifest.json"))
            return .success((folder, try JSONDecoder().decode([CorpusEntry].self, from: manifest)))
        } catch let error as CorpusError {
            return .failure(error)
        } catch {
            return .failure(CorpusError(message: "\(error)"))
        }
    }()

    /// Why the corpus could not be made.
    public struct CorpusError: Error, CustomStringConvertible {
        public let message: String
        public var description: String { message }
    }

    /// The entries of `format` (all when nil); none when the corpus could not be made (tests
    /// that iterate them also check `generated`).
    public static func entries(_ format: String? = nil) -> [CorpusEntry] {
        guard case .success(let (_, entries)) = generated else { return [] }
        return entries.filter { format == nil || $0.format == format }
    }
}

/// The generated corpus's folder, for the exit handler that removes it.
nonisolated(unsafe) private var corpusFolderToRemove: String?
