// Decoding within the memory budget: PNG row by row into levels, the other raster formats whole
// and then halved into levels, JPEG reduced by DCT scaling; refused when even that would not fit.
import CTurboJPEG
#if canImport(Glibc)
import Glibc
#endif

/// Where a decode's levels stop.
enum LevelFloor {
    /// At the level a view of the whole picture on the screen of `DecodeLimits` draws from.
    case screen
    /// At the first level of at most this many pixels (`decodePreview`).
    case pixels(Int)
}

extension ImageDecoder {
    /// What the budget leaves for pixels beside the encoded bytes held, in bytes.
    private var pixelBudget: Int { limits.memoryBudget == .max ? .max : max(0, limits.memoryBudget - data.count) }

    /// Refuses a decode that would hold more than `limits.memoryBudget` bytes with the
    /// encoded bytes (`needed` is the rest).
    func checkBudget(_ needed: Int, _ header: PictureHeader) throws(PictureError) {
        guard needed > pixelBudget else { return }
        throw PictureError(file: file, kind: .overBudget(width: header.width, height: header.height,
                                                         needed: needed + data.count, budget: limits.memoryBudget))
    }

    /// The screen level of a picture stored as `width`×`height`.
    private func screenLevel(width: Int, height: Int) -> Int {
        LevelPlan.screenLevel(width: width, height: height, screenWidth: limits.screenWidth, screenHeight: limits.screenHeight)
    }

    /// The levels `detail` keeps of a picture stored as `width`×`height` down to `last`, with
    /// the level folder made only when the plan writes to it; without one, the finer levels
    /// are left out.
    private func plan(width: Int, height: Int, last: Int, detail: PictureDetail) -> (LevelPlan, folder: String?) {
        let plan = LevelPlan.make(width: width, height: height, last: last, detail: detail,
                                  memoryBudget: pixelBudget, canUseFile: true)
        guard plan.fileBytes > 0 else { return (plan, nil) }
        if let folder = limits.levelFolder() { return (plan, folder) }
        return (LevelPlan.make(width: width, height: height, last: last, detail: detail,
                               memoryBudget: pixelBudget, canUseFile: false), nil)
    }

    /// Decodes a raster format other than JPEG with `detail`, its levels down to `floor`.
    /// Non-interlaced PNG streams its rows into the levels; the other formats (and interlaced
    /// PNG, whose last pass completes every row) are decoded whole, which must fit the
    /// budget, then halved.
    func decodeLevels(_ i: Inspection, detail: PictureDetail, floor: LevelFloor, acceptsDamage: Bool,
                      isCancelled: () -> Bool = { false }) throws(PictureError) -> Picture {
        let header = i.header
        guard let codec = i.codec else { preconditionFailure("decodeLevels without a codec header") }
        let (w, h) = (header.storedWidth, header.storedHeight)
        let last: Int
        switch floor {
        case .screen: last = screenLevel(width: w, height: h)
        case .pixels(let count): last = LevelPlan.level(width: w, height: h, maxPixels: count)
        }
        if header.format == .png, !header.isProgressive {
            let (plan, folder) = plan(width: w, height: h, last: last, detail: detail)
            try checkMemory(plan.memoryBytes + codec.workingTotal, header)
            let (pyramid, damage) = try PNGCodec.decodeLevels(data, file: file, header: codec, plan: plan,
                                                              folder: folder, isCancelled: isCancelled)
            if let damage, !acceptsDamage { throw damage.error }
            return Picture(storage: .pyramid(pyramid), header: header, isOpaque: !header.hasAlpha, damage: damage)
        }
        // The whole picture, and beside it the coarser levels kept (the whole one is level 0).
        let whole = header.pixelCount * 4 + codec.workingTotal
        let coarser = LevelPlan.make(width: w, height: h, last: last, detail: detail, memoryBudget: .max, canUseFile: false)
        let levels = (1..<coarser.places.count).filter { coarser.places[$0] == .memory }.reduce(0) { $0 + coarser.bytes($1) }
        try checkBudget(whole + levels, header)
        try checkMemory(whole + levels, header)
        let output = try codecDecode(i)
        if let damage = output.damage, !acceptsDamage { throw damage.error }
        let picture = finish(output, header: header)
        guard case .argb(let pixels) = picture.storage else { preconditionFailure("codecs decode to ARGB") }
        return levelPicture(pixels, header: header, detail: detail, last: last, damage: output.damage)
    }

    /// `pixels` (the decoded picture, premultiplied, stored orientation, perhaps already
    /// reduced) as a picture with the levels `detail` keeps down to `last`: the pixels alone
    /// when they are the screen level themselves.
    func levelPicture(_ pixels: ARGBPixels, header: PictureHeader, detail: PictureDetail, last: Int,
                      damage: PictureDamage?) -> Picture {
        let (plan, folder) = plan(width: pixels.width, height: pixels.height, last: last, detail: detail)
        let opaque = !header.hasAlpha
        guard plan.places.count > 1,
              let builder = LevelBuilder(plan: plan, orientation: header.orientation, folder: folder, adopting: pixels) else {
            return Picture(storage: .argb(pixels), header: header, isOpaque: opaque, damage: damage)
        }
        builder.commitRows(of: pixels)
        return Picture(storage: .pyramid(builder.finish(complete: true)), header: header, isOpaque: opaque, damage: damage)
    }

    /// A JPEG for a view of the whole picture: DCT-scaled to the smallest factor (n/8) that
    /// still covers the screen level, then halved down to it.
    func decodeJPEGForScreen(_ i: Inspection, acceptsDamage: Bool) throws(PictureError) -> Picture {
        guard let jpeg = i.jpeg else { preconditionFailure("JPEG inspection without its header") }
        let level = screenLevel(width: jpeg.width, height: jpeg.height)
        let wanted = 1 / Double(1 << min(level, 30))
        let scale = JPEGCodec.scale(atLeast: wanted)
        let w = JPEGCodec.scaled(jpeg.width, scale), h = JPEGCodec.scaled(jpeg.height, scale)
        let needed = w * h * 4 + coefficientBytes(i)
        try checkBudget(needed, i.header)
        try checkMemory(needed, i.header)
        let (pixels, damage) = try JPEGCodec.decodeARGB(data, file: file, header: jpeg, scale: scale,
                                                        transform: JPEGCodec.transform(i.icc, header: jpeg))
        if let damage, !acceptsDamage { throw damage.error }
        // Halvings of the scaled pixels that keep at least the screen level's scale.
        let factor = Double(scale.num) / Double(scale.denom)
        let halvings = max(0, Int((log2(factor / wanted) + 1e-9).rounded(.down)))
        return levelPicture(pixels, header: i.header, detail: .screen, last: halvings, damage: damage)
    }

    /// A JPEG whose full decode would pass the budget, at the largest DCT scale (n/8) that
    /// fits it: a reduction (`Picture.isPreview`), drawn enlarged when zoomed in closer.
    /// A progressive file keeps coefficients for every block whatever the scale, so one whose
    /// coefficients alone pass the budget is refused.
    func decodeJPEGWithinBudget(_ i: Inspection, acceptsDamage: Bool) throws(PictureError) -> Picture {
        guard let jpeg = i.jpeg else { preconditionFailure("JPEG inspection without its header") }
        let coefficients = coefficientBytes(i)
        let room = pixelBudget - coefficients
        let scale = JPEGCodec.previewScale(width: jpeg.width, height: jpeg.height, maxPixels: max(1, room / 4))
        let w = JPEGCodec.scaled(jpeg.width, scale), h = JPEGCodec.scaled(jpeg.height, scale)
        try checkBudget(w * h * 4 + coefficients, i.header)
        try checkMemory(w * h * 4 + coefficients, i.header)
        let (pixels, damage) = try JPEGCodec.decodeARGB(data, file: file, header: jpeg, scale: scale,
                                                        transform: JPEGCodec.transform(i.icc, header: jpeg))
        if let damage, !acceptsDamage { throw damage.error }
        return Picture(storage: .argb(pixels), header: i.header, isOpaque: true, damage: damage)
    }
}

extension JPEGCodec {
    /// The smallest DCT scaling factor libjpeg-turbo offers (n/8, at most 1) that is at least
    /// `scale`; the smallest of all when none is.
    static func scale(atLeast scale: Double) -> (num: Int, denom: Int) {
        var count: Int32 = 0
        var best: (num: Int, denom: Int) = (1, 1)
        var smallest: (num: Int, denom: Int) = (1, 1)
        if let factors = tjGetScalingFactors(&count) {
            for f in UnsafeBufferPointer(start: factors, count: Int(count)) where f.num <= f.denom {
                let factor = (num: Int(f.num), denom: Int(f.denom))
                let value = Double(factor.num) / Double(factor.denom)
                if value < Double(smallest.num) / Double(smallest.denom) { smallest = factor }
                if value >= scale - 1e-12, value < Double(best.num) / Double(best.denom) { best = factor }
            }
        }
        return Double(best.num) / Double(best.denom) >= scale - 1e-12 ? best : smallest
    }
}
