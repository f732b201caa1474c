// The view tree: frames in the parent's coordinates, bounds in the view's own; scrolling
// changes bounds.origin only, so subviews' frames never move.
import Foundation

/// A rectangular node of the view tree (UIKit's `UIView`, drawing left to the renderer).
///
/// `frame` is in the superview's coordinate space, `bounds` in the view's own. A view shows
/// the part of its own space that starts at `bounds.origin`, so changing `bounds.origin`
/// scrolls every subview at once without touching their frames.
open class View {
    /// Position and size in the superview's coordinates, in points. Setting it keeps
    /// `bounds.origin` and sets `bounds.size` to `frame.size / transformScale`.
    public var frame: CGRect {
        get {
            CGRect(origin: frameOrigin,
                   size: CGSize(width: bounds.width * transformScale, height: bounds.height * transformScale))
        }
        set {
            frameOrigin = newValue.origin
            let s = transformScale == 0 ? 1 : transformScale
            bounds.size = CGSize(width: newValue.width / s, height: newValue.height / s)
            setNeedsComposite()
        }
    }

    /// The visible part of the view's own coordinate space, in points. `origin` is the scroll
    /// position (a scroll view's `contentOffset`).
    public var bounds: CGRect {
        didSet {
            if bounds != oldValue {
                boundsDidChange(from: oldValue)
                setNeedsComposite()
            }
        }
    }

    /// Uniform scale from bounds to frame (the zoom transform UIKit keeps in `transform`),
    /// anchored at the frame's origin. 1 means no scaling.
    public var transformScale: CGFloat = 1 {
        didSet { if transformScale != oldValue { setNeedsComposite() } }
    }

    private var frameOrigin: CGPoint

    /// The parent view, if any.
    public private(set) weak var superview: View?
    /// Child views, back to front.
    public private(set) var subviews: [View] = []

    /// Fill drawn under the view's content; nil draws nothing.
    public var backgroundColor: Color? {
        didSet { if backgroundColor != oldValue { setNeedsDisplay() } }
    }
    /// Hidden views are neither drawn nor hit.
    public var isHidden = false {
        didSet { if isHidden != oldValue { setNeedsComposite() } }
    }
    /// When false, `hitTest` skips the view and its subviews.
    public var isUserInteractionEnabled = true
    /// Whether subviews are clipped to the bounds when drawn (scroll views clip).
    public var clipsToBounds = false {
        didSet { if clipsToBounds != oldValue { setNeedsComposite() } }
    }
    /// A name for diagnostics and traces (the trace format's button `id`).
    public var identifier: String?

    /// Called on the root view whenever something in its tree needs a new frame: the
    /// host (a Wayland window or the offscreen display) schedules one in response.
    public var onNeedsFrame: (() -> Void)?

    /// Regions of the view's own space invalidated since the renderer last took them,
    /// in bounds coordinates; a nil entry means "everything". The renderer's business, not
    /// an app's: package access.
    package private(set) var pendingInvalidations: [CGRect?] = []
    /// Incremented whenever the view's drawn content (not its position) changes; renderers
    /// key cached pixels on it.
    package private(set) var contentVersion: UInt64 = 0

    /// Creates a view with `frame` in its future superview's coordinates.
    public init(frame: CGRect = .zero) {
        frameOrigin = frame.origin
        bounds = CGRect(origin: .zero, size: frame.size)
    }

    // MARK: Hierarchy

    /// Adds `view` on top of the other subviews, removing it from its old superview first.
    public func addSubview(_ view: View) {
        insertSubview(view, at: subviews.count)
    }

    /// Inserts `view` at `index` in the back-to-front order (clamped to the valid range).
    public func insertSubview(_ view: View, at index: Int) {
        precondition(view !== self, "a view cannot be its own subview")
        view.removeFromSuperview()
        subviews.insert(view, at: min(max(index, 0), subviews.count))
        view.superview = self
        view.didMoveToSuperview()
        setNeedsComposite()
    }

    /// Detaches the view from its superview.
    public func removeFromSuperview() {
        guard let parent = superview else { return }
        parent.subviews.removeAll { $0 === self }
        superview = nil
        didMoveToSuperview()
        parent.setNeedsComposite()
    }

    /// Override point: the view was added to or removed from a superview.
    open func didMoveToSuperview() {}

    /// Override point: `bounds` changed (scroll views report `contentOffset` changes here).
    open func boundsDidChange(from oldBounds: CGRect) {}

    /// The topmost ancestor (the window's root view).
    public var rootView: View {
        var v = self
        while let p = v.superview { v = p }
        return v
    }

    /// Whether `self` is `view` or one of its descendants.
    public func isDescendant(of view: View) -> Bool {
        var v: View? = self
        while let current = v {
            if current === view { return true }
            v = current.superview
        }
        return false
    }

    // MARK: Coordinates

    /// Converts a point in this view's bounds coordinates to the superview's coordinates.
    public func convertToSuperview(_ point: CGPoint) -> CGPoint {
        CGPoint(x: frameOrigin.x + (point.x - bounds.origin.x) * transformScale,
                y: frameOrigin.y + (point.y - bounds.origin.y) * transformScale)
    }

    /// Converts a point in the superview's coordinates to this view's bounds coordinates.
    public func convertFromSuperview(_ point: CGPoint) -> CGPoint {
        let s = transformScale == 0 ? 1 : transformScale
        return CGPoint(x: (point.x - frameOrigin.x) / s + bounds.origin.x,
                       y: (point.y - frameOrigin.y) / s + bounds.origin.y)
    }

    /// Converts `point` from this view's coordinates to `view`'s (nil: the root view's).
    public func convert(_ point: CGPoint, to view: View?) -> CGPoint {
        var p = point
        var v: View = self
        while let parent = v.superview, v !== view {
            p = v.convertToSuperview(p)
            v = parent
        }
        if let target = view, v !== target {
            // `view` is not an ancestor: go through the root.
            return target.convert(fromRoot: p)
        }
        return p
    }

    /// Converts `point` from `view`'s coordinates (nil: the root view's) to this view's.
    public func convert(_ point: CGPoint, from view: View?) -> CGPoint {
        let rootPoint = view.map { $0.convert(point, to: nil) } ?? point
        return convert(fromRoot: rootPoint)
    }

    private func convert(fromRoot point: CGPoint) -> CGPoint {
        var chain: [View] = []
        var v: View? = self
        while let current = v, current.superview != nil {
            chain.append(current)
            v = current.superview
        }
        var p = point
        for view in chain.reversed() { p = view.convertFromSuperview(p) }
        return p
    }

    // MARK: Hit testing

    /// Whether `point` (bounds coordinates) lies inside the view.
    open func point(inside point: CGPoint) -> Bool {
        bounds.contains(point)
    }

    /// The deepest visible, interactive descendant containing `point` (bounds coordinates),
    /// front to back; nil when the point is outside.
    open func hitTest(_ point: CGPoint) -> View? {
        guard !isHidden, isUserInteractionEnabled, self.point(inside: point) else { return nil }
        for child in subviews.reversed() {
            if let hit = child.hitTest(child.convertFromSuperview(point)) { return hit }
        }
        return self
    }

    // MARK: Display

    /// Marks the whole view's content as needing to be redrawn.
    public func setNeedsDisplay() {
        pendingInvalidations = [nil]
        contentVersion &+= 1
        requestFrame()
    }

    /// Marks `rect` (bounds coordinates) as needing to be redrawn; cached pixels there are stale.
    public func setNeedsDisplay(_ rect: CGRect) {
        guard !rect.isNull, !rect.isEmpty else { return }
        if pendingInvalidations.first != .some(nil) { pendingInvalidations.append(rect) }
        contentVersion &+= 1
        requestFrame()
    }

    /// Hands the pending invalidations to the renderer and clears them.
    package func takeInvalidations() -> [CGRect?] {
        defer { pendingInvalidations.removeAll() }
        return pendingInvalidations
    }

    /// Marks the arrangement (position, visibility, scroll) as changed: the frame must be
    /// composed again, but cached content stays valid.
    public func setNeedsComposite() {
        requestFrame()
    }

    private func requestFrame() {
        rootView.onNeedsFrame?()
    }
}
