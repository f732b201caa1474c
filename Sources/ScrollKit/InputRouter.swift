// A window's input to its scroll views, nested ones included, the UIKit way: a touch goes to
// the scroll views under it, and the innermost one that can move in the drag's direction takes
// it once it passes the slop; a pinch goes to the zooming view; an inner view resting on its
// edge hands a continuing drag to the outer one; wheels, touchpads and keys go to the scroll
// view under the pointer that can move their way.
import Foundation

/// Routes the input frames of one window to the scroll views of its view tree.
///
/// Apple's Scroll View Programming Guide ("Nesting Scroll Views") promises nesting with no app
/// code, across directions (a horizontal pager of vertically scrolling pages) and in the same
/// direction; this is that arbitration:
///
/// - A finger (or the pointer's left button) that touches down goes to every scroll view that
///   contains the view under it, and each starts tracking. A scroll view that is moving (momentum,
///   an animation) takes the touch alone, at once: the touch stops it (tap-to-stop).
/// - When the first finger has moved past the slop (`PanGestureRecognizer.defaultMinimumDistance`),
///   one of them takes the drag and the others let go without a word: the innermost that can still
///   move the content the way the drag goes on its main axis; when none can, the outermost that
///   can be dragged on that axis (it rubber-bands, as a paging strip pulled past its first page);
///   then the innermost that can be dragged at all.
/// - A second finger makes a pinch for the innermost scroll view that can zoom; a scroll view
///   already dragging keeps the touch (pages turning do not pinch).
/// - A scroll view dragged onto its edge that the finger keeps pushing past hands the drag to the
///   nearest outer scroll view that can move that way, once the push passes the slop: the inner
///   content springs back and the outer one follows the finger from the point where the edge was
///   reached (a zoomed photo panned to its side turns the page).
/// - Wheel notches, touchpad scrolling, touchpad pinches and holds go to the scroll views under
///   the pointer (`InputEvent.pointerLocation`): the innermost that can move that way, the
///   innermost that can zoom for Ctrl+wheel and pinches. A wheel stays with the scroll view that
///   took its first notch while it keeps turning (`wheelLatch`), and a touchpad scroll until its
///   fingers lift.
/// - Keys go to the scroll view under the pointer (or the first in the tree) that can move the
///   way the key points.
///
/// Events reach each scroll view as they are, in window coordinates; letting go of a touch or
/// handing it over is done through the scroll view's own cancel, never with made-up events.
public final class InputRouter {
    /// 400 ms: a wheel keeps scrolling the view its first notch went to while notches keep
    /// coming this close together (decision: browsers latch a wheel gesture to one scroller the
    /// same way, so a picture panned to its edge does not start turning pages mid-spin).
    public static let wheelLatch = 400.0

    /// The window's root view.
    public let root: View

    /// A finger or the pointer's left button.
    enum Contact: Hashable {
        case touch(Int)
        case pointer
    }

    /// One touch sequence: from the first finger down (or the button press) to the last lift.
    struct Sequence {
        /// The scroll views under the first contact, innermost first.
        var chain: [ScrollView]
        /// Who receives the sequence: all candidates until the drag is decided, then one view.
        var receivers: [ScrollView]
        var decided: Bool
        /// Where each contact is, window points.
        var contacts: [Contact: CGPoint]
        /// The first contact and where it went down.
        var primary: Contact
        var start: CGPoint
        /// Where the receiving view reached its edge under a finger that kept pushing outward:
        /// the point, the axis and the finger's direction on it (−1 or 1).
        var edge: (point: CGPoint, axis: ScrollAxis, sign: CGFloat)?
    }

    private var touches: Sequence?
    private var pointer: Sequence?
    /// The pointer button went down where the pointer was unknown: it presses at the next position.
    private var pendingPress: InputEvent?
    /// The scroll view a touchpad scroll goes to until its `axisStop`.
    private var touchpadTarget: ScrollView?
    /// The scroll view a touchpad pinch goes to until it ends.
    private var pinchTarget: ScrollView?
    /// The scroll view the wheel is latched to, and until when (ms).
    private var wheelTarget: (view: ScrollView, until: Double)?
    /// The scroll views that received events in the frame being routed.
    private var receivedThisFrame: [ScrollView] = []

    /// Routes the input of the window whose root view is `root`.
    public init(root: View) {
        self.root = root
    }

    /// Whether a finger or the pointer button is down on a scroll view.
    public var isTouching: Bool { touches != nil || pointer != nil }

    /// Whether the pointer button is dragging (or about to drag) content.
    public var isPointerDragging: Bool { pointer != nil }

    /// The scroll view that owns the running touch or pointer drag once it is decided, nil
    /// before or without one.
    public var draggingScrollView: ScrollView? {
        if let touches, touches.decided { return touches.receivers.first }
        if let pointer, pointer.decided { return pointer.receivers.first }
        return nil
    }

    /// Routes the events of one input frame (stamped by the seat, window points).
    public func handle(frame events: [InputEvent]) {
        for event in events { route(event) }
        let views = receivedThisFrame
        receivedThisFrame.removeAll()
        for view in views { view.finishFrame() }
    }

    // MARK: Routing one event

    private func route(_ event: InputEvent) {
        switch event.kind {
        case .touchDown(let id, let location):
            contactDown(.touch(id), at: location, event: event, sequence: &touches)
        case .touchMotion(let id, let location):
            contactMoved(.touch(id), to: location, event: event, sequence: &touches)
        case .touchUp(let id):
            contactUp(.touch(id), event: event, sequence: &touches)
        case .touchCancel:
            // The compositor took the touches away, or the pointer device vanished mid-drag
            // (the seat reports that as a cancel too): whatever owns a sequence ends without a fling.
            for view in (touches?.receivers ?? []) + (pointer?.receivers ?? []) { deliver(event, to: view) }
            touches = nil
            pointer = nil
            pendingPress = nil
        case .pointerEnter(let location), .pointerMotion(let location):
            if pointer != nil {
                contactMoved(.pointer, to: location, event: event, sequence: &pointer)
            } else if let press = pendingPress {
                pendingPress = nil
                var placed = press
                placed.pointerLocation = location
                contactDown(.pointer, at: location, event: placed, sequence: &pointer)
            }
        case .pointerLeave:
            // An implicit grab keeps a drag going outside the window; the views only forget hovering.
            for view in pointer?.receivers ?? [] { deliver(event, to: view) }
        case .pointerButton(let button, let pressed):
            guard button == .left else { return }
            if pressed {
                guard pointer == nil else { return }
                if let location = event.pointerLocation {
                    contactDown(.pointer, at: location, event: event, sequence: &pointer)
                } else {
                    pendingPress = event
                }
            } else {
                pendingPress = nil
                contactUp(.pointer, event: event, sequence: &pointer)
            }
        case .pointerAxis(let source, let dx, let dy, _, _):
            guard dx.isFinite, dy.isFinite else { return }
            if event.modifiers.contains(.ctrl) {
                // Ctrl+wheel zooms the innermost zooming view under the pointer.
                if let view = underPointer(event).first(where: { $0.canZoom && $0.isScrollEnabled }) { deliver(event, to: view) }
                return
            }
            switch source {
            case .finger:
                if touchpadTarget == nil {
                    // The fingers move opposite to the scroll amounts.
                    touchpadTarget = Self.taker(of: CGPoint(x: -dx, y: -dy), among: underPointer(event))
                }
                if let view = touchpadTarget { deliver(event, to: view) }
            case .wheel, .wheelTilt, .continuous:
                wheel(event)
            }
        case .axisStop:
            if let view = touchpadTarget { deliver(event, to: view) }
            touchpadTarget = nil
        case .pinch(let phase, _, _, _):
            if phase == .begin {
                pinchTarget = underPointer(event).first { $0.canZoom && $0.isScrollEnabled }
            }
            if let view = pinchTarget { deliver(event, to: view) }
            if phase == .end || phase == .cancel { pinchTarget = nil }
        case .hold:
            // Resting fingers stop whatever moves under the pointer.
            for view in underPointer(event) { deliver(event, to: view) }
        case .key(let key, _):
            if let view = keyTarget(key, event: event) { deliver(event, to: view) }
        }
    }

    private func deliver(_ event: InputEvent, to view: ScrollView) {
        if !receivedThisFrame.contains(where: { $0 === view }) { receivedThisFrame.append(view) }
        view.receive(event)
    }

    /// Lets go of a touch sequence for `view` (it lost the drag, or handed it on): whatever the
    /// frame gave it so far takes effect first.
    private func release(_ view: ScrollView) {
        view.finishFrame()
        view.cancelRoutedTouches()
    }

    // MARK: Touch sequences

    private func contactDown(_ contact: Contact, at location: CGPoint, event: InputEvent, sequence: inout Sequence?) {
        guard location.x.isFinite, location.y.isFinite else { return }
        if var running = sequence {
            // Another finger of the running sequence.
            running.contacts[contact] = location
            if !running.decided, let zoomer = running.receivers.first(where: { $0.canZoom && $0.isScrollEnabled }) {
                // Two fingers: a pinch, for the innermost view that can zoom.
                for view in running.receivers where view !== zoomer { release(view) }
                running.receivers = [zoomer]
                running.decided = true
            }
            for view in running.receivers { deliver(event, to: view) }
            sequence = running
            return
        }
        let chain = scrollViews(at: location)
        guard !chain.isEmpty else { return }
        var started = Sequence(chain: chain, receivers: chain, decided: false, contacts: [contact: location],
                               primary: contact, start: location)
        if let moving = chain.first(where: \.isMoving) {
            // Moving content is stopped by the touch, and that view has it from the start.
            started.receivers = [moving]
            started.decided = true
        }
        for view in started.receivers { deliver(event, to: view) }
        sequence = started
    }

    private func contactMoved(_ contact: Contact, to location: CGPoint, event: InputEvent, sequence: inout Sequence?) {
        guard var running = sequence, let previous = running.contacts[contact], location.x.isFinite,
              location.y.isFinite else { return }
        running.contacts[contact] = location
        defer { sequence = running }
        if !running.decided {
            let translation = location - running.start
            if contact == running.primary, hypot(translation.x, translation.y) > PanGestureRecognizer.defaultMinimumDistance {
                // The drag is recognised on this move: one view takes it, before it sees the move.
                let taker = Self.taker(of: translation, among: running.receivers) ?? running.receivers[0]
                for view in running.receivers where view !== taker { release(view) }
                running.receivers = [taker]
                running.decided = true
            }
            for view in running.receivers { deliver(event, to: view) }
            return
        }
        guard let view = running.receivers.first else { return }
        if handOff(&running, from: view, previous: previous, to: location, event: event) { return }
        deliver(event, to: view)
    }

    private func contactUp(_ contact: Contact, event: InputEvent, sequence: inout Sequence?) {
        guard var running = sequence, running.contacts[contact] != nil else { return }
        for view in running.receivers { deliver(event, to: view) }
        running.contacts[contact] = nil
        sequence = running.contacts.isEmpty ? nil : running
    }

    /// The edge hand-over: `view` drags under one contact; once its content rests on an edge and
    /// the contact keeps pushing past it by more than the slop (and more than it moves across),
    /// the nearest outer scroll view that can move that way takes the drag from the point where
    /// the edge was reached. Returns true when the move went to the outer view.
    private func handOff(_ running: inout Sequence, from view: ScrollView, previous: CGPoint, to location: CGPoint,
                         event: InputEvent) -> Bool {
        guard running.contacts.count == 1, view.isDragging, !view.isZooming,
              let index = running.chain.firstIndex(where: { $0 === view }), index + 1 < running.chain.count else {
            running.edge = nil
            return false
        }
        let outer = running.chain[(index + 1)...]
        if let edge = running.edge {
            let push = (location[edge.axis] - edge.point[edge.axis]) * edge.sign
            guard push > 0 else {
                running.edge = nil
                return false
            }
            let across = abs(location[edge.axis.other] - edge.point[edge.axis.other])
            // Fingers moving one way move the content the other.
            guard push > PanGestureRecognizer.defaultMinimumDistance, push > across,
                  let taker = outer.first(where: { $0.hasRoom(edge.axis, toward: -edge.sign) }) else { return false }
            release(view)
            running.receivers = [taker]
            running.edge = nil
            deliver(event, to: taker, startingAt: edge.point)
            return true
        }
        let delta = location - previous
        for axis in ScrollAxis.allCases where delta[axis] != 0 {
            let sign: CGFloat = delta[axis] < 0 ? -1 : 1
            if !view.hasRoom(axis, toward: -sign), outer.contains(where: { $0.canDragContent(axis) }) {
                running.edge = (previous, axis, sign)
                break
            }
        }
        return false
    }

    /// Starts `view` on a drag handed over at `point` (window points), then gives it `event`.
    private func deliver(_ event: InputEvent, to view: ScrollView, startingAt point: CGPoint) {
        if !receivedThisFrame.contains(where: { $0 === view }) { receivedThisFrame.append(view) }
        view.beginHandedOverTouch(event, at: point)
        view.receive(event)
    }

    /// Who takes a drag that has moved by `translation` (window points): the first of
    /// `candidates` (innermost first) that can still move the content that way on the main
    /// axis, else the outermost that can be dragged on that axis, else the innermost that can be
    /// dragged at all.
    static func taker(of translation: CGPoint, among candidates: [ScrollView]) -> ScrollView? {
        let axis: ScrollAxis = abs(translation.x) >= abs(translation.y) ? .horizontal : .vertical
        let toward: CGFloat = translation[axis] < 0 ? 1 : -1
        if let view = candidates.first(where: { $0.hasRoom(axis, toward: toward) }) { return view }
        if let view = candidates.last(where: { $0.canDragContent(axis) }) { return view }
        return candidates.first { $0.canDragContent(.horizontal) || $0.canDragContent(.vertical) } ?? candidates.last
    }

    // MARK: Wheel and keys

    private func wheel(_ event: InputEvent) {
        guard let notches = event.wheelNotches, notches != .zero else { return }
        if let latched = wheelTarget, event.time <= latched.until, latched.view.rootView === root {
            wheelTarget = (latched.view, event.time + Self.wheelLatch)
            deliver(event, to: latched.view)
            return
        }
        let chain = underPointer(event)
        let view = chain.first { $0.hasRoom(forWheel: notches) } ?? chain.first { $0.wheelAxis(for: notches) != nil } ?? chain.first
        guard let view else { return }
        wheelTarget = (view, event.time + Self.wheelLatch)
        deliver(event, to: view)
    }

    private func keyTarget(_ key: Key, event: InputEvent) -> ScrollView? {
        let chain = underPointer(event)
        let direction: (ScrollAxis, CGFloat)?
        switch key {
        case .up, .pageUp, .home: direction = (.vertical, -1)
        case .down, .pageDown, .end: direction = (.vertical, 1)
        case .space: direction = (.vertical, event.modifiers.contains(.shift) ? -1 : 1)
        case .left: direction = (.horizontal, -1)
        case .right: direction = (.horizontal, 1)
        default: direction = nil
        }
        if let (axis, toward) = direction, let view = chain.first(where: { $0.hasRoom(axis, toward: toward) }) { return view }
        return chain.first
    }

    // MARK: Finding scroll views

    /// The scroll views containing the view under `location` (window points), innermost first.
    func scrollViews(at location: CGPoint) -> [ScrollView] {
        guard location.x.isFinite, location.y.isFinite else { return [] }
        var view = root.hitTest(root.convertFromSuperview(location))
        var chain: [ScrollView] = []
        while let current = view {
            if let scrollView = current as? ScrollView { chain.append(scrollView) }
            view = current.superview
        }
        return chain
    }

    /// The scroll views under the pointer, innermost first; without a pointer position (or
    /// with none under it), the first scroll view of the tree and those inside it that contain
    /// its middle.
    private func underPointer(_ event: InputEvent) -> [ScrollView] {
        if let location = event.pointerLocation {
            // Over no scroll view (a window only partly filled by one), the first one still
            // takes the wheel and the keys, as a window's only scroll view always did.
            let chain = scrollViews(at: location)
            if !chain.isEmpty { return chain }
        }
        guard let first = Self.firstScrollView(in: root) else { return [] }
        let middle = first.convert(CGPoint(x: first.bounds.midX, y: first.bounds.midY), to: nil)
        let chain = scrollViews(at: middle)
        return chain.isEmpty ? [first] : chain
    }

    /// The first scroll view of the tree, depth first.
    static func firstScrollView(in view: View) -> ScrollView? {
        if let scrollView = view as? ScrollView { return scrollView }
        for child in view.subviews { if let found = firstScrollView(in: child) { return found } }
        return nil
    }
}

extension ScrollView {
    /// Whether something is moving the content on its own (momentum, bounce, paging, an
    /// animation): a touch then stops it and belongs to it.
    var isMoving: Bool {
        switch motion {
        case .decelerating, .animating, .zoomAnimating: true
        default: false
        }
    }

    /// Whether input can drag the content on `axis` (scrolling on, and a range or an
    /// always-bouncing axis).
    func canDragContent(_ axis: ScrollAxis) -> Bool { isScrollEnabled && canDrag(axis) }

    /// Whether the content can still move on `axis` toward larger (`toward` 1) or smaller (−1)
    /// offsets without going past its edge (half a point counts as there).
    func hasRoom(_ axis: ScrollAxis, toward: CGFloat) -> Bool {
        guard isScrollEnabled, hasScrollableRange(axis) else { return false }
        let range = scrollRange(axis)
        return toward > 0 ? contentOffset[axis] < range.upperBound - 0.5 : contentOffset[axis] > range.lowerBound + 0.5
    }

    /// The axis wheel `notches` scroll here: the main axis of the notches, or sideways for a
    /// plain wheel on content that only scrolls sideways; nil when that axis cannot scroll.
    func wheelAxis(for notches: CGPoint) -> ScrollAxis? {
        guard isScrollEnabled else { return nil }
        if notches.x == 0, !hasScrollableRange(.vertical), hasScrollableRange(.horizontal) { return .horizontal }
        let axis: ScrollAxis = abs(notches.x) > abs(notches.y) ? .horizontal : .vertical
        return hasScrollableRange(axis) ? axis : nil
    }

    /// Whether wheel `notches` (positive toward the end) can still move the content.
    func hasRoom(forWheel notches: CGPoint) -> Bool {
        guard let axis = wheelAxis(for: notches) else { return false }
        let amount = notches.x == 0 && axis == .horizontal ? notches.y : notches[axis]
        return hasRoom(axis, toward: amount > 0 ? 1 : -1)
    }

    /// The router takes the touch sequence away (the drag went to another scroll view, or was
    /// handed on): a drag ends without a fling, controls get `touchCancel`.
    func cancelRoutedTouches() {
        touchesCancelled()
    }

    /// A drag handed over at `point` (window points): the touch of `event`'s contact starts there,
    /// so the move `event` carries scrolls from that point on.
    func beginHandedOverTouch(_ event: InputEvent, at point: CGPoint) {
        let time = event.time.isFinite ? event.time : currentTime
        currentTime = Swift.max(currentTime, time)
        let source: DragSession.Source
        switch event.kind {
        case .touchMotion(let id, _): source = .touch(id: id)
        case .pointerMotion, .pointerEnter: source = .pointer
        default: return
        }
        pointerLocation = local(point)
        touchBegan(source, at: local(point), time: time, event: event)
    }
}

extension ScrollAxis {
    /// The other axis.
    var other: ScrollAxis { self == .horizontal ? .vertical : .horizontal }
}
