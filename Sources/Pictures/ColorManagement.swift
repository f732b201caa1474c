// Converting decoded pixels from the colour space their file declares to sRGB with LittleCMS.
import CLCMS
import Foundation

/// How a file describes its colours, when it says anything beyond "sRGB".
enum ColorDescription: Sendable, Equatable {
    /// An embedded ICC profile (JPEG APP2, PNG iCCP, WebP ICCP, TIFF tag 34675, HEIF colr
    /// "prof"/"rICC", JPEG XL), as its bytes.
    case icc([UInt8])
    /// PNG gAMA (the encoding exponent, 0.45455 for a 2.2 display) with cHRM's white point
    /// and red, green, blue primaries as CIE xy when present (sRGB's otherwise).
    case gamma(Double, chromaticities: [Double]?)
    /// ITU-T H.273 colour primaries and transfer characteristics codes (HEIF/AVIF nclx).
    case cicp(primaries: Int, transfer: Int)
}

/// sRGB's chromaticities as CIE xy: white D65, then red, green, blue (IEC 61966-2-1).
private let sRGBChromaticities = [0.3127, 0.3290, 0.64, 0.33, 0.30, 0.60, 0.15, 0.06]

/// A LittleCMS transform from a file's colour space into sRGB, applied in place; immutable
/// once made, and usable from any thread (see `apply(row:count:)`).
///
/// Made only when the file's description differs from sRGB; nil for descriptions that are
/// sRGB already, unusable (a malformed profile, a device link) or out of scope (HDR
/// transfer functions, which need tone mapping), and when LittleCMS cannot be loaded.
/// Pictures with such descriptions are shown with their values taken as sRGB, as browsers do
/// for broken profiles.
final class ColorTransform: @unchecked Sendable {
    /// What the transform reads: the decoded layout it is applied to.
    enum Input {
        /// B, G, R, A bytes (little-endian ARGB), straight or premultiplied alpha.
        case bgra(premultiplied: Bool)
        /// Gray in every colour byte of B, G, R, A (gray files decode so): a gray profile.
        case grayInBGRA
        /// CMYK bytes with 255 meaning no ink (Adobe JPEGs, as libjpeg delivers them).
        case invertedCMYK
    }

    private let transform: cmsHTRANSFORM
    private let input: Input

    /// LittleCMS, opened for the first picture with colours to convert or a profile to name: nil
    /// when ready, else why not. Without it colours are taken as sRGB, as for a profile that
    /// cannot be used, and the reason goes once to stderr (no picture fails for it). Swift runs
    /// this exactly once.
    private static let library: String? = {
        guard let problem = scrollkit_lcms_open().map({ String(cString: $0) }) else { return nil }
        let line = "scrollkit: colour profiles are not applied: \(problem) (Scripts/install-deps.sh installs it)\n"
        FileHandle.standardError.write(Data(line.utf8))
        return problem
    }()

    /// Opens LittleCMS on first use: nil when ready, else why it cannot be used.
    static func openLibrary() -> String? { library }

    /// The profile a description stands for, or nil when it is sRGB or unusable.
    private static func profile(_ description: ColorDescription) -> cmsHPROFILE? {
        switch description {
        case .icc(let bytes):
            guard !bytes.isEmpty, openLibrary() == nil,
                  let p = bytes.withUnsafeBytes({ scrollkit_cmsOpenProfileFromMem($0.baseAddress, UInt32($0.count)) }) else {
                return nil
            }
            let usable: Set<UInt32> = [cmsSigInputClass.rawValue, cmsSigDisplayClass.rawValue,
                                       cmsSigOutputClass.rawValue, cmsSigColorSpaceClass.rawValue]
            guard usable.contains(scrollkit_cmsGetDeviceClass(p).rawValue) else { scrollkit_cmsCloseProfile(p); return nil }
            return p
        case .gamma(let gamma, let chromaticities):
            // gAMA 0.45455 with sRGB's primaries is what sRGB files declare (PNG 3rd ed. §11.3.3.2);
            // libpng treats gamma within 5% as matching, and so does this.
            let xy = chromaticities ?? sRGBChromaticities
            guard gamma > 0, gamma.isFinite, xy.count == 8, xy.allSatisfy({ $0 > 0 && $0 < 1 }) else { return nil }
            let nearSRGB = abs(gamma * 2.2 - 1) < 0.05 && zip(xy, sRGBChromaticities).allSatisfy { abs($0 - $1) < 0.01 }
            if nearSRGB { return nil }
            return rgbProfile(xy) { scrollkit_cmsBuildGamma(nil, 1 / gamma) }
        case .cicp(let primaries, let transfer):
            return cicpProfile(primaries: primaries, transfer: transfer)
        }
    }

    /// Primaries and white point (H.273 Table 2) with a transfer curve (Table 3), for the
    /// codes HEIF/AVIF files use; nil for sRGB itself, unspecified codes and HDR curves.
    private static func cicpProfile(primaries: Int, transfer: Int) -> cmsHPROFILE? {
        let xy: [Double]
        switch primaries {
        case 1, 2: xy = sRGBChromaticities  // BT.709 (= sRGB) or unspecified
        case 9: xy = [0.3127, 0.3290, 0.708, 0.292, 0.170, 0.797, 0.131, 0.046]  // BT.2020
        case 12: xy = [0.3127, 0.3290, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060]  // Display P3 (D65)
        case 11: xy = [0.314, 0.351, 0.680, 0.320, 0.265, 0.690, 0.150, 0.060]    // DCI-P3
        default: return nil
        }
        let curve: () -> OpaquePointer?
        switch transfer {
        case 13, 2:
            // sRGB (IEC 61966-2-1) or unspecified, taken as sRGB: parametric type 4,
            // Y = ((X + 0.055) / 1.055)^2.4 above 0.04045, X / 12.92 below.
            if primaries == 1 || primaries == 2 { return nil }
            curve = { parametric(4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]) }
        case 1, 6, 14, 15:
            // BT.709 / BT.601 / BT.2020 camera curve, inverted: V = 1.099 L^0.45 − 0.099 above 0.081.
            curve = { parametric(4, [1 / 0.45, 1 / 1.099, 0.099 / 1.099, 1 / 4.5, 0.081]) }
        case 8: curve = { scrollkit_cmsBuildGamma(nil, 1) }  // linear
        case 4: curve = { scrollkit_cmsBuildGamma(nil, 2.2) }
        case 5: curve = { scrollkit_cmsBuildGamma(nil, 2.8) }
        default: return nil  // PQ (16) and HLG (18) need tone mapping, not a profile
        }
        return rgbProfile(xy, curve: curve)
    }

    private static func parametric(_ type: Int32, _ params: [Double]) -> OpaquePointer? {
        params.withUnsafeBufferPointer { scrollkit_cmsBuildParametricToneCurve(nil, type, $0.baseAddress) }
    }

    /// A matrix-shaper RGB profile from xy chromaticities (white, red, green, blue) and the
    /// transfer curve `makeCurve` builds, once LittleCMS is open.
    private static func rgbProfile(_ xy: [Double], curve makeCurve: () -> OpaquePointer?) -> cmsHPROFILE? {
        guard openLibrary() == nil, let curve = makeCurve() else { return nil }
        defer { scrollkit_cmsFreeToneCurve(curve) }
        var white = cmsCIExyY(x: xy[0], y: xy[1], Y: 1)
        var primaries = cmsCIExyYTRIPLE(Red: cmsCIExyY(x: xy[2], y: xy[3], Y: 1),
                                        Green: cmsCIExyY(x: xy[4], y: xy[5], Y: 1),
                                        Blue: cmsCIExyY(x: xy[6], y: xy[7], Y: 1))
        var curves: [OpaquePointer?] = [curve, curve, curve]
        return curves.withUnsafeMutableBufferPointer { scrollkit_cmsCreateRGBProfile(&white, &primaries, $0.baseAddress) }
    }

    // LittleCMS pixel formats, built as lcms2.h's TYPE_* macros build them (Swift does not
    // import function-like macros): colour space << 16, swap-first << 14, flavour << 13,
    // do-swap << 10, extra channels << 7, channels << 3, bytes per sample, premultiplied << 23.
    private static func format(space: UInt32, channels: UInt32, extra: UInt32 = 0, swap: Bool = false,
                               swapFirst: Bool = false, inverted: Bool = false, premultiplied: Bool = false) -> UInt32 {
        space << 16 | (swapFirst ? 1 << 14 : 0) | (inverted ? 1 << 13 : 0) | (swap ? 1 << 10 : 0)
            | extra << 7 | channels << 3 | 1 | (premultiplied ? 1 << 23 : 0)
    }
    /// PT_GRAY, PT_RGB, PT_CMYK (lcms2.h).
    private static let gray: UInt32 = 3, rgb: UInt32 = 4, cmyk: UInt32 = 6

    /// A transform for `description` reading `input`, or nil when nothing needs converting
    /// (sRGB, or a description that cannot be used: see the type's comment).
    init?(_ description: ColorDescription, input: Input) {
        // LittleCMS is opened by `profile`, once the description is known to differ from sRGB.
        guard let source = Self.profile(description) else { return nil }
        defer { scrollkit_cmsCloseProfile(source) }
        let space = scrollkit_cmsGetColorSpace(source).rawValue
        // The profile must describe the samples the decoder produced.
        switch input {
        case .bgra: guard space == cmsSigRgbData.rawValue else { return nil }
        case .grayInBGRA: guard space == cmsSigGrayData.rawValue else { return nil }
        case .invertedCMYK: guard space == cmsSigCmykData.rawValue else { return nil }
        }
        guard let srgb = scrollkit_cmsCreate_sRGBProfile() else { return nil }
        defer { scrollkit_cmsCloseProfile(srgb) }
        let inFormat: UInt32, outFormat: UInt32
        var flags = UInt32(cmsFLAGS_NOCACHE)
        switch input {
        case .bgra(let premultiplied):
            // TYPE_BGRA_8(_PREMUL): alpha is copied, not transformed.
            inFormat = Self.format(space: Self.rgb, channels: 3, extra: 1, swap: true, swapFirst: true, premultiplied: premultiplied)
            outFormat = inFormat
            flags |= UInt32(cmsFLAGS_COPY_ALPHA)
        case .grayInBGRA:
            // TYPE_GRAY_8 from a row of gray bytes into TYPE_BGR_8; alpha is put back after.
            inFormat = Self.format(space: Self.gray, channels: 1)
            outFormat = Self.format(space: Self.rgb, channels: 3, swap: true)
        case .invertedCMYK:
            // TYPE_CMYK_8_REV into TYPE_BGRA_8, in place (4 bytes a pixel either way).
            inFormat = Self.format(space: Self.cmyk, channels: 4, inverted: true)
            outFormat = Self.format(space: Self.rgb, channels: 3, extra: 1, swap: true, swapFirst: true)
        }
        // Perceptual: what a matrix-shaper profile turns into relative colorimetric, and what
        // a table-based (print) profile provides for viewing.
        guard let t = scrollkit_cmsCreateTransform(source, inFormat, srgb, outFormat, UInt32(INTENT_PERCEPTUAL), flags) else {
            return nil
        }
        transform = t
        self.input = input
    }

    deinit { scrollkit_cmsDeleteTransform(transform) }

    /// Converts `pixels` in place; afterwards they are B, G, R, A in sRGB (alpha as before,
    /// 255 for CMYK input).
    func apply(to pixels: ARGBPixels) {
        for y in 0..<pixels.height { apply(row: pixels.rawBytes + y * pixels.width * 4, count: pixels.width) }
    }

    /// Converts `count` pixels (4 bytes each) at `row` in place. Safe to call from several
    /// threads at once: the transform has no cache (cmsFLAGS_NOCACHE), which is what makes
    /// LittleCMS transforms reentrant.
    func apply(row: UnsafeMutablePointer<UInt8>, count: Int) {
        guard count > 0 else { return }
        switch input {
        case .bgra:
            scrollkit_cmsDoTransform(transform, row, row, UInt32(count))
        case .grayInBGRA:
            let grayRow = UnsafeMutablePointer<UInt8>.allocate(capacity: count)
            let rgbRow = UnsafeMutablePointer<UInt8>.allocate(capacity: count * 3)
            defer { grayRow.deallocate(); rgbRow.deallocate() }
            for x in 0..<count { grayRow[x] = row[4 * x] }
            scrollkit_cmsDoTransform(transform, grayRow, rgbRow, UInt32(count))
            for x in 0..<count {
                row[4 * x] = rgbRow[3 * x]; row[4 * x + 1] = rgbRow[3 * x + 1]; row[4 * x + 2] = rgbRow[3 * x + 2]
            }
        case .invertedCMYK:
            scrollkit_cmsDoTransform(transform, row, row, UInt32(count))
            for x in 0..<count { row[4 * x + 3] = 255 }
        }
    }
}
