// Where a window's surface is, as far as turning its buffers and keeping the screen on go: the
// transforms (wl_output.geometry) of the outputs it is on, checked, and whether it is on none
// after having been on one (hidden). Pure; the window feeds it protocol events.
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
