// UIScrollView's rubber band: how far content follows a finger that pulls past an edge.
import Foundation

/// The rubber-band curve `b = (1 − 1 / (x · c / d + 1)) · d` and its inverse.
public enum RubberBand {
    /// c = 0.55: UIScrollView's constant (reported by Grant Paul, 2013; dimensionless).
    public static let coefficient = 0.55

    /// The displayed overshoot, in points, for a finger that is `overshoot` points past the
    /// edge of a viewport `dimension` points long on that axis. Continuous, odd, monotonic,
    /// always smaller in magnitude than `overshoot`, and never reaches `dimension`.
    public static func displayed(overshoot: Double, dimension: Double) -> Double {
        guard dimension > 0 else { return 0 }
        let x = abs(overshoot)
        let b = (1 - 1 / (x * coefficient / dimension + 1)) * dimension
        return overshoot < 0 ? -b : b
    }

    /// The finger overshoot that displays as `displayed` points: used when a drag catches
    /// content that is already past an edge, so the finger takes over without a jump.
    /// Displayed values at or beyond `dimension` are unreachable and map to a large finite
    /// overshoot (1000 viewports).
    public static func overshoot(forDisplayed displayed: Double, dimension: Double) -> Double {
        guard dimension > 0 else { return 0 }
        let b = abs(displayed)
        let fraction = b / dimension
        let x = fraction < 1 ? b / (coefficient * (1 - fraction)) : 1000 * dimension
        let finite = min(x, 1000 * dimension)
        return displayed < 0 ? -finite : finite
    }
}
