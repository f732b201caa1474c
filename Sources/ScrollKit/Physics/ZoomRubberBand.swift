// How far a pinch may pull the zoom scale past its limits: the edge rubber band, applied to
// the logarithm of the scale so that zooming in and zooming out resist alike.
import Foundation

/// The scale a pinch shows for the scale its fingers ask for, when `bouncesZoom` lets it pass
/// the limits.
///
/// Scales multiply, so distances between them are ratios: a finger spread that asks for twice
/// the maximum is as far past it as one that asks for half the minimum is below it. The
/// overshoot is therefore measured as `ln(asked / limit)` and squeezed with `RubberBand`'s
/// curve into at most `logDimension`.
public enum ZoomRubberBand {
    /// ln 2 (dimensionless): the displayed overshoot approaches, but never reaches, twice the
    /// maximum scale (or half the minimum). Decision: iOS lets a pinch go visibly past the
    /// limits but never far; with RubberBand's 0.55 coefficient a pinch asking for 1.5 × the
    /// maximum shows about 1.18 × it.
    public static let logDimension = log(2.0)

    /// The scale shown for a pinch asking for `scale`, with `limits` the allowed scales
    /// (scale factors, positive). Inside the limits it is `scale` itself; outside it is
    /// continuous, monotonic and always closer to the limit than `scale`.
    public static func displayed(scale: Double, limits: ClosedRange<Double>) -> Double {
        guard scale.isFinite, scale > 0, limits.lowerBound > 0 else { return scale }
        if scale > limits.upperBound {
            let overshoot = log(scale / limits.upperBound)
            return limits.upperBound * exp(RubberBand.displayed(overshoot: overshoot, dimension: logDimension))
        }
        if scale < limits.lowerBound {
            let overshoot = log(limits.lowerBound / scale)
            return limits.lowerBound / exp(RubberBand.displayed(overshoot: overshoot, dimension: logDimension))
        }
        return scale
    }

    /// The inverse of `displayed(scale:limits:)`: the scale the fingers must ask for to show
    /// `displayed`. A pinch that starts while the scale is already past a limit (set by code)
    /// takes over from there without a jump.
    public static func asked(forDisplayed displayed: Double, limits: ClosedRange<Double>) -> Double {
        guard displayed.isFinite, displayed > 0, limits.lowerBound > 0 else { return displayed }
        if displayed > limits.upperBound {
            let shown = log(displayed / limits.upperBound)
            return limits.upperBound * exp(RubberBand.overshoot(forDisplayed: shown, dimension: logDimension))
        }
        if displayed < limits.lowerBound {
            let shown = log(limits.lowerBound / displayed)
            return limits.lowerBound / exp(RubberBand.overshoot(forDisplayed: shown, dimension: logDimension))
        }
        return displayed
    }
}
