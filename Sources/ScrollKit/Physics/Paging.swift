// Where a paging scroll view rests after a drag: a page boundary, at most one page per fling.
import Foundation

/// Chooses the page a paging scroll view settles on (pages are multiples of the bounds size).
public enum Paging {
    /// 0.3 pt/ms (300 pt/s): a release at least this fast is a flick and turns the page in its
    /// direction even when the drag covered less than half a page (decision; quick thumb
    /// flicks on iOS are well above it, a slow drag-and-let-go is below).
    public static let flickVelocity = 0.3

    /// Fraction of a page treated as "already on the boundary", so float noise in an offset
    /// does not turn a page (decision, 0.1 % of a page).
    static let boundarySlack = 0.001

    /// The resting offset, in points, for content at `offset` (points) released with
    /// `velocity` (points per millisecond) when pages are `pageSize` points long and the
    /// scrollable range is `range`. A flick goes to the next page boundary in its direction,
    /// which is always less than one page away; anything slower goes to the nearest page.
    public static func target(offset: Double, velocity: Double, pageSize: Double,
                              range: ClosedRange<Double>) -> Double {
        guard pageSize > 0, pageSize.isFinite, offset.isFinite else {
            return min(max(offset.isFinite ? offset : range.lowerBound, range.lowerBound), range.upperBound)
        }
        let position = offset / pageSize
        let page: Double
        if velocity >= flickVelocity {
            page = (position - boundarySlack).rounded(.up)
        } else if velocity <= -flickVelocity {
            page = (position + boundarySlack).rounded(.down)
        } else {
            page = position.rounded()
        }
        return min(max(page * pageSize, range.lowerBound), range.upperBound)
    }
}
