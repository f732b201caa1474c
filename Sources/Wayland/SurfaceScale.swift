// Which scale a window draws at, as pure values: the integer scales of the outputs its surface
// is on, or the fractional scale the compositor prefers; hostile values checked before any
// buffer size is derived from them.
import Foundation

/// How a window's buffers map onto its surface.
public enum BufferScale: Hashable, Sendable, CustomStringConvertible {
    /// `wl_surface.set_buffer_scale(n)`: buffers have n device pixels per surface point.
    case integer(Int)
    /// `wp_fractional_scale_v1`: the scale in 120ths (180 is 1.5). Buffers have
    /// round(size × scale) pixels and buffer scale 1; a `wp_viewport` shows them at the
    /// surface size.
    case fractional(Int)

    /// Device pixels per surface point.
    public var factor: Double {
        switch self {
        case .integer(let n): Double(n)
        case .fractional(let v): Double(v) / 120
        }
    }

    /// The buffer's pixels for a surface of `width`×`height` points. Fractional sizes are
    /// rounded half away from zero, as wp_fractional_scale_v1 asks, in integers so that no
    /// floating-point error can make the buffer one pixel off.
    public func bufferSize(width: Int, height: Int) -> (width: Int, height: Int) {
        switch self {
        case .integer(let n): return (width * n, height * n)
        case .fractional(let v): return (Self.scaled(width, v), Self.scaled(height, v))
        }
    }

    /// round(points × v / 120) for points, v ≥ 0.
    static func scaled(_ points: Int, _ v: Int) -> Int { (points * v + 60) / 120 }

    /// "2" or "1.5".
    public var description: String {
        switch self {
        case .integer(let n): return "\(n)"
        case .fractional(let v):
            // 120ths as a short decimal: 180 → 1.5, 150 → 1.25, 140 → 1.167.
            let text = String(format: "%.3f", Double(v) / 120)
            return text.replacingOccurrences(of: #"\.?0+$"#, with: "", options: .regularExpression)
        }
    }
}

/// The scales a window accepts and the checks that keep hostile ones out.
public enum ScaleLimits {
    /// Integer output scales accepted: 1…8. wl_output.scale is at least 1 by the protocol;
    /// no screen made is near 8 (the densest phone panels are about 4×), and the bound keeps a
    /// buffer within 64 times the window's points.
    public static let integer = 1...8
    /// Fractional scales accepted, in 120ths: 0.5…8 (60…960). Below half a device pixel per
    /// point text cannot be read (decision); the top matches `integer`.
    public static let fractional120 = 60...960
    /// Largest buffer edge, in device pixels: 16384, the edge a window accepts in points
    /// (`Window.maxEdge`). A window whose buffer would be larger draws at a lower scale.
    public static let maxBufferEdge = 16384

    /// A `wl_output.scale` checked: below 1 is ignored (the output counts as 1), above 8 is
    /// clamped to 8; `warning` says which, nil for a valid value.
    public static func outputScale(_ raw: Int32) -> (scale: Int, warning: String?) {
        if raw < integer.lowerBound {
            return (1, "ignoring output scale \(raw) from the compositor (a scale is at least 1): using 1")
        }
        if raw > integer.upperBound {
            return (integer.upperBound,
                    "output scale \(raw) from the compositor is above \(integer.upperBound): using \(integer.upperBound)")
        }
        return (Int(raw), nil)
    }

    /// A `wp_fractional_scale_v1.preferred_scale` (120ths) checked: below 0.5 (0 included) is
    /// ignored (nil: the outputs' integer scale stays in use), above 8 is clamped to 8.
    public static func fractionalScale(_ value120: UInt32) -> (value120: Int?, warning: String?) {
        let shown = BufferScale.fractional(Int(min(value120, 1_000_000))).description
        if value120 < UInt32(fractional120.lowerBound) {
            return (nil, "ignoring preferred fractional scale \(value120)/120 (\(shown)) from the compositor, below 0.5: keeping the output scale")
        }
        if value120 > UInt32(fractional120.upperBound) {
            return (fractional120.upperBound,
                    "preferred fractional scale \(value120)/120 (\(shown)) from the compositor is above 8: using 8")
        }
        return (Int(value120), nil)
    }

    /// `scale`, lowered when a `width`×`height`-point surface at it would need a buffer edge
    /// above `maxEdge` pixels: the largest scale of the same kind that fits (at least 1 for a
    /// surface within `maxEdge` points). `warning` says so, nil when `scale` fits.
    public static func limited(_ scale: BufferScale, width: Int, height: Int,
                               maxEdge: Int = maxBufferEdge) -> (scale: BufferScale, warning: String?) {
        let edge = max(width, height, 1)
        let size = scale.bufferSize(width: width, height: height)
        guard size.width > maxEdge || size.height > maxEdge else { return (scale, nil) }
        let fitting: BufferScale
        switch scale {
        case .integer:
            fitting = .integer(max(maxEdge / edge, 1))
        case .fractional:
            // round(edge × v / 120) ≤ maxEdge ⇔ edge × v + 60 < 120 × (maxEdge + 1).
            fitting = .fractional(max((120 * maxEdge + 59) / edge, 1))
        }
        let warning = "a \(width)×\(height)-point window at scale \(scale) needs a \(size.width)×\(size.height)-pixel buffer, "
            + "more than \(maxEdge) pixels a side: drawing at scale \(fitting)"
        return (fitting, warning)
    }
}

/// What a window knows about its scale: the outputs its surface is on and their scales, and the
/// fractional scale the compositor prefers for it. Pure; the window feeds it protocol events.
public struct SurfaceScaleState: Equatable, Sendable {
    /// Checked scales of the outputs the surface has entered, by output registry name.
    public private(set) var outputs: [UInt32: Int] = [:]
    /// The compositor's preferred fractional scale in 120ths, nil until a valid one arrives.
    public private(set) var preferred120: Int?
    /// Whether fractional scaling can be used: wp_fractional_scale_manager_v1 and
    /// wp_viewporter are both bound.
    public let fractionalAvailable: Bool
    /// The integer scale used while the surface is on no output (before its first
    /// `wl_surface.enter`): the largest scale of all outputs, so that on a single HiDPI screen
    /// the first frame is already sharp instead of being drawn twice.
    public var unplacedScale = 1

    /// A surface on no output yet.
    public init(fractionalAvailable: Bool) {
        self.fractionalAvailable = fractionalAvailable
    }

    /// The surface entered output `name`, whose checked scale is `scale`.
    public mutating func enter(output name: UInt32, scale: Int) { outputs[name] = scale }

    /// The surface left output `name`.
    public mutating func leave(output name: UInt32) { outputs[name] = nil }

    /// The outputs' scales changed or outputs went away: `scales` are the checked scales of
    /// every output bound now; entered outputs missing from it are dropped.
    public mutating func refresh(outputScales scales: [UInt32: Int]) {
        for name in outputs.keys {
            outputs[name] = scales[name]
        }
    }

    /// A `preferred_scale` event: returns a warning for a hostile value, which is ignored or
    /// clamped (see `ScaleLimits.fractionalScale`).
    public mutating func preferredScale(_ value120: UInt32) -> String? {
        let checked = ScaleLimits.fractionalScale(value120)
        if let v = checked.value120 { preferred120 = v }
        return checked.warning
    }

    /// The scale to draw at: the compositor's preferred fractional scale when fractional
    /// scaling is available and one has arrived; otherwise the largest scale of the outputs the
    /// surface is on (`unplacedScale` while on none), so it is sharp on the densest screen it
    /// shows on.
    public var scale: BufferScale {
        if fractionalAvailable, let v = preferred120 { return .fractional(v) }
        return .integer(outputs.values.max() ?? unplacedScale)
    }
}
