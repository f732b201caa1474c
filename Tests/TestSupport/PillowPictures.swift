// Test pictures the gallery tests need in formats the project only decodes (transparent PNGs,
// animated GIFs, multi-page TIFFs), written by Pillow at test time (Debian's python3-pil, which
// Scripts/install-deps.sh installs), so that no binary is committed.
import CompositorHarness
import Foundation

public enum PillowPictures {
    /// Python or Pillow failed; the description holds its standard error.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs `script` with Debian's python3, `Image` and `ImageDraw` imported from Pillow and
    /// `out` naming `folder`; a failure to run is the test's failure.
    public static func make(_ script: String, in folder: String) throws {
        let program = "import os, sys\nfrom PIL import Image, ImageDraw\nout = sys.argv[1]\n" + script
        let result = try runProcess(URL(fileURLWithPath: "/usr/bin/python3"), ["-c", program, folder])
        guard result.status == 0 else {
            throw Failure(description: "python3 with Pillow failed (\(result.status)): \(result.stderr)")
        }
    }

    /// A `size`×`size` RGBA PNG, transparent but for a black square of half the side in its
    /// middle: a black logo on nothing.
    public static func blackLogo(_ name: String = "logo.png", size: Int = 40, in folder: String) throws -> String {
        try make("""
            im = Image.new("RGBA", (\(size), \(size)), (0, 0, 0, 0))
            ImageDraw.Draw(im).rectangle([\(size / 4), \(size / 4), \(size * 3 / 4 - 1), \(size * 3 / 4 - 1)], fill=(0, 0, 0, 255))
            im.save(os.path.join(out, "\(name)"))
            """, in: folder)
        return folder + "/" + name
    }

    /// An animated GIF of `width`×`height` whose frames are flat `colors` ((r, g, b) each), shown
    /// `delays` ms each, played `loops` times (0: forever).
    public static func animatedGIF(_ name: String = "animated.gif", width: Int, height: Int, colors: [(Int, Int, Int)],
                                   delays: [Int], loops: Int = 0, in folder: String) throws -> String {
        let frames = colors.map { "Image.new(\"RGB\", (\(width), \(height)), (\($0.0), \($0.1), \($0.2)))" }
        // Pillow writes `loop` as the NETSCAPE2.0 count, repetitions after the first play (0:
        // forever); one play is the block left out.
        let loop = loops == 0 ? "loop=0" : loops == 1 ? "" : "loop=\(loops - 1)"
        try make("""
            frames = [\(frames.joined(separator: ", "))]
            frames[0].save(os.path.join(out, "\(name)"), save_all=True, append_images=frames[1:], duration=\(delays),
                           disposal=1, optimize=False\(loop.isEmpty ? "" : ", " + loop))
            """, in: folder)
        return folder + "/" + name
    }

    /// A TIFF with one page per entry of `pages` (width, height, (r, g, b)), each flat.
    public static func multiPageTIFF(_ name: String = "pages.tif", pages: [(Int, Int, (Int, Int, Int))],
                                     in folder: String) throws -> String {
        let images = pages.map { "Image.new(\"RGB\", (\($0.0), \($0.1)), (\($0.2.0), \($0.2.1), \($0.2.2)))" }
        try make("""
            pages = [\(images.joined(separator: ", "))]
            pages[0].save(os.path.join(out, "\(name)"), save_all=True, append_images=pages[1:])
            """, in: folder)
        return folder + "/" + name
    }

    /// The colour of block (`column`, `row`) of `blockPicture`: one of 251, never the same
    /// as a neighbour's, so a GIF keeps them all and each level down to a block a pixel is
    /// known exactly.
    public static func blockColor(_ column: Int, _ row: Int) -> (Int, Int, Int) {
        let k = (column * 7 + row * 13) % 251
        return ((k * 37 + 11) & 0xFF, (k * 53 + 7) & 0xFF, (k * 11 + 5) & 0xFF)
    }

    /// Every format `blockPicture` writes, with how far a pixel inside a block may stray from
    /// its colour: lossless ones not at all, lossy ones by their coding (decision, measured on
    /// 64- and 8-pixel blocks).
    public static let blockFormats: [(String, Int)] = [
        ("png", 0), ("gif", 0), ("tiff", 0), ("bmp", 0), ("webp-lossless", 0), ("webp", 10), ("jpeg", 10), ("jxl", 16),
        ("heif", 12), ("avif", 12),
    ]

    /// Writes a `width`×`height` picture of `block`-pixel squares coloured by `blockColor` as
    /// `name` in `folder`, in `format`: png, gif, tiff, bmp, jpeg, webp (lossy), webp-lossless
    /// (Pillow), jxl (cjxl, lossy), heif or avif (heif-enc, at their fastest settings).
    public static func blockPicture(_ format: String, width: Int, height: Int, block: Int, name: String,
                                    in folder: String) throws -> String {
        let path = folder + "/" + name
        let png = folder + "/.blocks-\(width)x\(height).png"
        try make("""
            w, h, b = \(width), \(height), \(block)
            row = lambda j: b"".join(bytes((((k * 37 + 11) & 255), ((k * 53 + 7) & 255), ((k * 11 + 5) & 255))) * b
                                    for k in ((i * 7 + j * 13) % 251 for i in range((w + b - 1) // b)))[:3 * w]
            im = Image.frombytes("RGB", (w, h), b"".join(row(y // b) for y in range(h)))
            im.save("\(png)")
            kind = "\(format)"
            if kind == "gif": im.convert("P", palette=Image.Palette.ADAPTIVE, colors=256).save("\(path)", "GIF")
            elif kind == "tiff": im.save("\(path)", "TIFF", compression="tiff_lzw")
            elif kind == "bmp": im.save("\(path)", "BMP")
            elif kind == "jpeg": im.save("\(path)", "JPEG", quality=95)
            elif kind == "webp": im.save("\(path)", "WEBP", quality=90)
            elif kind == "webp-lossless": im.save("\(path)", "WEBP", lossless=True)
            elif kind == "png": im.save("\(path)", "PNG")
            """, in: folder)
        let tool: (String, [String])?
        switch format {
        case "jxl": tool = ("/usr/bin/cjxl", ["--quiet", "-d", "1", "-e", "1", png, path])
        case "heif": tool = ("/usr/bin/heif-enc", ["-q", "90", "-p", "preset=ultrafast", png, "-o", path])
        case "avif": tool = ("/usr/bin/heif-enc", ["-A", "-q", "90", "-p", "speed=9", png, "-o", path])
        default: tool = nil
        }
        if let (executable, arguments) = tool {
            let result = try runProcess(URL(fileURLWithPath: executable), arguments)
            guard result.status == 0 else {
                throw Failure(description: "\(executable) failed (\(result.status)): \(result.stderr)")
            }
        }
        try? FileManager.default.removeItem(atPath: png)
        return path
    }
}
