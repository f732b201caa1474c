// Where a window's surface is, as far as turning its buffers, keeping the screen on and pacing
// frames go: the transforms (wl_output.geometry) of the outputs it is on, checked, whether it is
// on none after having been on one (hidden), and how often they refresh. Pure; the window feeds
// it protocol events.
import Raster

extension FrameTransform {
    /// A `wl_output.transform` from the compositor checked: values outside 0…7 are ignored
    /// (nil, with a warning), so a hostile compositor cannot pick a buffer layout we do not have.
    static func checked(outputTransform raw: Int32) -> (transform: FrameTransform?, warning: String?) {
        guard let transform = FrameTransform(rawValue: Int(raw)) else {
            return (nil, "ignoring output transform \(raw) from the compositor (a transform is 0…7): keeping the previous one")
        }
        return (transform, nil)
    }
}

/// The outputs a surface is on, by registry name, with their transforms.
public struct SurfacePlacement: Equatable, Sendable {
    /// Transforms of the outputs the surface has entered.
    public private(set) var entered: [UInt32: FrameTransform] = [:]
    /// Transforms of every output bound, for a surface on none yet.
    public private(set) var outputs: [UInt32: FrameTransform] = [:]
    /// Whether the surface has entered an output at least once. Some compositors never say
    /// (cage 0.1.4 sends no `wl_surface.enter`): until one does, the surface counts as shown.
    public private(set) var hasEntered = false

    /// A surface on no output yet.
    public init() {}

    /// The surface entered output `name`.
    public mutating func enter(output name: UInt32) {
        entered[name] = outputs[name] ?? .normal
        hasEntered = true
    }

    /// The surface left output `name`.
    public mutating func leave(output name: UInt32) { entered[name] = nil }

    /// Outputs appeared, went or turned: `transforms` are those of every output bound now;
    /// entered outputs missing from it are dropped.
    public mutating func refresh(outputTransforms transforms: [UInt32: FrameTransform]) {
        outputs = transforms
        for name in entered.keys { entered[name] = transforms[name] }
    }

    /// Whether the surface is on no output after having been on one: on another workspace, or
    /// its only output unplugged or disabled.
    public var isHidden: Bool { hasEntered && entered.isEmpty }

    /// How to turn buffers: the transform shared by the outputs the surface is on (while on
    /// none, by every output: a kiosk's single screen, before the first enter or on a
    /// compositor that never sends one), so the compositor can show the buffer as it is.
    /// Outputs turned differently, or none: upright, and the compositor turns.
    public var transform: FrameTransform {
        let shown = entered.isEmpty ? outputs : entered
        let transforms = Set(shown.values)
        return transforms.count == 1 ? transforms.first! : .normal
    }
}

extension SurfacePlacement {
    /// Refresh rates accepted from `wl_output.mode`, in mHz: 1 Hz to 1000 Hz. 0 means unknown
    /// (virtual outputs may send it); beyond 1000 Hz no screen refreshes, and a rate far below
    /// 1 Hz would have frames drawn ahead for a moment seconds away.
    public static let refreshRange = 1_000...1_000_000

    /// A `wl_output.mode` refresh (mHz) from the compositor checked: nil for 0 (unknown) and
    /// for values outside `refreshRange` (those with a warning).
    public static func checked(refresh raw: Int32) -> (refresh: Int?, warning: String?) {
        if raw == 0 { return (nil, nil) }
        guard refreshRange.contains(Int(raw)) else {
            return (nil, "ignoring output refresh \(raw) mHz from the compositor (a refresh is 1000…1000000 mHz): assuming 60 Hz")
        }
        return (Int(raw), nil)
    }

    /// The refresh interval in ms of the fastest output the surface is on (of any output while
    /// it is on none), given every bound output's checked refresh in mHz by registry name; nil
    /// when none is known. The compositor paces the surface's frame callbacks by an output it
    /// is on, and on several the fastest asks for frames soonest.
    public func refreshInterval(refreshes: [UInt32: Int]) -> Double? {
        let shown = entered.isEmpty ? Array(refreshes.values) : entered.keys.compactMap { refreshes[$0] }
        return shown.max().map { 1_000_000 / Double($0) }
    }
}
