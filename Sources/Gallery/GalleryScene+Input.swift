// Routing input between the pager and the page under the finger, as nested UIScrollViews
// share it on iOS: the zoomed image pans until its edge, then the pages turn.
import Foundation
import Pictures
import Raster
import ScrollKit

/// A finger or the pointer's left button: what one touch sequence is made of.
enum Contact: Hashable {
    case touch(Int)
    case pointer
}

/// Who receives a touch sequence.
enum Route: Equatable {
    /// Both the pager and the page (index, if any is under the contact) track it until it
    /// moves past the slop; then one of them gets it and the other a cancel.
    case undecided(page: Int?)
    /// The pager (turning pages).
    case pager
    /// The page (panning or pinching its image).
    case page(Int)
}

/// The routing state of the scene's input.
struct RoutingState {
    /// The route of the touch sequence (all fingers), nil when no finger is down.
    var touchRoute: Route?
    /// Where each finger is, window coordinates.
    var touches: [Int: CGPoint] = [:]
    /// The first finger of the sequence and where it touched down.
    var primaryTouch: Int?
    var touchStart: CGPoint = .zero
    /// The route of the pointer-button sequence, nil while the button is up.
    var pointerRoute: Route?
    var pointerStart: CGPoint = .zero
    /// The pointer's position, window coordinates, once known.
    var pointerLocation: CGPoint?
    /// Where the page reached its edge during a drag that keeps pushing outward (window
    /// coordinates), and the direction (−1 left, 1 right) of that push.
    var edgeAnchor: (point: CGPoint, direction: CGFloat)?
    /// The receiver of the touchpad scroll in progress.
    var touchpadRoute: Route?
    /// Wheel notches not yet turned into page turns (an unzoomed page turns pages).
    var wheelNotches: CGFloat = 0

    /// Whether a finger or the pointer button is down.
    var isTouching: Bool { !touches.isEmpty || pointerRoute != nil }
}

extension GalleryScene {
    /// Delivers one input frame: routes each event, tells the kiosk schedule about the activity
    /// and keeps the pager resting on a page.
    public func handle(frame events: [InputEvent]) {
        for event in events { handleEvent(event) }
    }

    private func handleEvent(_ event: InputEvent) {
        let time = event.time.isFinite ? event.time : now
        now = max(now, time)
        // Input acts on what has loaded so far, even before the next frame shows it.
        deliverLoadEvents()
        switch event.kind {
        case .touchDown(let id, let location):
            routing.touches[id] = location
            contactBegan(.touch(id), at: location, time: time)
        case .touchMotion(let id, let location):
            guard routing.touches[id] != nil else { break }
            let previous = routing.touches[id] ?? location
            routing.touches[id] = location
            contactMoved(.touch(id), from: previous, to: location, time: time)
        case .touchUp(let id):
            guard routing.touches[id] != nil else { break }
            contactEnded(.touch(id), time: time)
            routing.touches[id] = nil
            if routing.touches.isEmpty { sequenceEnded(touch: true) }
        case .touchCancel:
            cancelTouches(time: time)
        case .pointerEnter(let location), .pointerMotion(let location):
            let previous = routing.pointerLocation ?? location
            routing.pointerLocation = location
            if routing.pointerRoute != nil {
                contactMoved(.pointer, from: previous, to: location, time: time)
            } else {
                hover(event.kind, at: location, time: time)
            }
        case .pointerLeave:
            if routing.pointerRoute == nil {
                for view in allScrollViews { view.handle(InputEvent(time: time, kind: .pointerLeave)) }
                routing.pointerLocation = nil
            }
        case .pointerButton(let button, let pressed):
            guard button == .left else { break }
            if pressed, routing.pointerRoute == nil, let location = routing.pointerLocation {
                contactBegan(.pointer, at: location, time: time)
            } else if !pressed, routing.pointerRoute != nil {
                contactEnded(.pointer, time: time)
                routing.pointerRoute = nil
                routing.edgeAnchor = nil
                sequenceEnded(touch: false)
            }
        case .pointerAxis(let source, let dx, let dy, _, _):
            scroll(event, source: source, dx: dx, dy: dy)
        case .axisStop:
            if let route = routing.touchpadRoute {
                for view in receivers(of: route) { view.handle(event) }
            }
            routing.touchpadRoute = nil
        case .pinch:
            guard let page = pageUnderPointer else { break }
            page.handle(event)
        case .hold:
            // Resting fingers stop whatever moves: the pager's paging and the page's momentum.
            pager.handle(event)
            currentPage?.handle(event)
        case .key(let key, let pressed):
            self.key(key, pressed: pressed, modifiers: event.modifiers, event: event)
        }
        let deadline = schedule.nextDeadline
        schedule.noteInput(at: time, touching: routing.isTouching)
        // The host learns of the new deadline from the next `advance`: ask for one.
        if schedule.nextDeadline != deadline { onNeedsFrame?() }
    }

    /// The pager and the pages that exist.
    var allScrollViews: [ScrollView] { [pager] + pages.keys.sorted().compactMap { pages[$0] } }

    /// The page under the pointer (the current page when the pointer is unknown).
    var pageUnderPointer: PageView? {
        guard let location = routing.pointerLocation else { return currentPage }
        return pageIndex(at: location).flatMap { pages[$0] } ?? currentPage
    }

    /// The index of the page slot under `location` (window coordinates).
    func pageIndex(at location: CGPoint) -> Int? {
        guard !files.isEmpty, pageStride > 0 else { return nil }
        // Checked as a floating-point value first: a point far off the window would not fit an Int.
        let slot = (pager.convert(location, from: nil).x / pageStride).rounded(.down)
        guard slot.isFinite, slot >= 0, slot < CGFloat(files.count) else { return nil }
        return Int(slot)
    }

    /// Whether the pager is between pages (sliding, paging after a fling, or left there).
    private var pagerIsMoving: Bool {
        if pager.isDecelerating || pager.isDragging { return true }
        guard pageStride > 0 else { return false }
        let position = pager.contentOffset.x / pageStride
        return abs(position - position.rounded()) > 1e-6
    }

    // MARK: Contacts

    private func contactBegan(_ contact: Contact, at location: CGPoint, time: Double) {
        if let route = route(of: contact) {
            // Another finger of a running sequence (never the pointer: it has one button).
            guard case .touch(let id) = contact else { return }
            switch route {
            case .undecided(let index):
                // Two fingers on the image: a pinch, the page's.
                guard let index, let page = pages[index] else { return }
                pager.handle(InputEvent(time: time, kind: .touchCancel))
                setRoute(.page(index), for: contact)
                page.handle(InputEvent(time: time, kind: .touchDown(id: id, location: location)))
            case .page(let index):
                pages[index]?.handle(InputEvent(time: time, kind: .touchDown(id: id, location: inPager(location))))
            case .pager:
                break  // the pages are turning: a second finger does not pinch
            }
            return
        }
        routing.edgeAnchor = nil
        let route: Route = pagerIsMoving ? .pager : .undecided(page: pageIndex(at: location))
        if case .touch = contact {
            routing.primaryTouch = contactID(contact)
            routing.touchStart = location
        } else {
            routing.pointerStart = location
        }
        setRoute(route, for: contact)
        for view in receivers(of: route) {
            // The button presses where the pointer is now, whatever motion went elsewhere.
            if contact == .pointer { view.handle(InputEvent(time: time, kind: .pointerMotion(location: local(location, for: view)))) }
            view.handle(beginEvent(contact, at: view, location: location, time: time))
        }
    }

    private func contactMoved(_ contact: Contact, from previous: CGPoint, to location: CGPoint, time: Double) {
        guard let route = route(of: contact) else { return }
        switch route {
        case .undecided(let index):
            let start = contact == .pointer ? routing.pointerStart : routing.touchStart
            let translation = location - start
            let isPrimary = contact == .pointer || contactID(contact) == routing.primaryTouch
            if isPrimary, hypot(translation.x, translation.y) > PanGestureRecognizer.defaultMinimumDistance {
                // The drag is recognised on this move: one receiver takes it, the other lets go.
                let page = index.flatMap { pages[$0] }
                if let page, let index, pageWants(page, translation: translation) {
                    pager.handle(InputEvent(time: time, kind: .touchCancel))
                    setRoute(.page(index), for: contact)
                } else {
                    page?.handle(InputEvent(time: time, kind: .touchCancel))
                    setRoute(.pager, for: contact)
                }
            }
            for view in receivers(of: self.route(of: contact) ?? route) {
                view.handle(moveEvent(contact, at: view, location: location, time: time))
            }
        case .page(let index):
            guard let page = pages[index] else { return }
            if handOffAtEdge(contact, page: page, from: previous, to: location, time: time) { return }
            page.handle(moveEvent(contact, at: page, location: location, time: time))
        case .pager:
            pager.handle(moveEvent(contact, at: pager, location: location, time: time))
        }
    }

    private func contactEnded(_ contact: Contact, time: Double) {
        guard let route = route(of: contact) else { return }
        for view in receivers(of: route) { view.handle(endEvent(contact, time: time)) }
    }

    private func cancelTouches(time: Double) {
        if let route = routing.touchRoute {
            for view in receivers(of: route) { view.handle(InputEvent(time: time, kind: .touchCancel)) }
        }
        routing.touches.removeAll()
        sequenceEnded(touch: true)
    }

    /// The last finger lifted (or the button was released): forget the route and make sure
    /// the pager rests on a page even if a touch stopped it between two.
    private func sequenceEnded(touch: Bool) {
        if touch {
            routing.touchRoute = nil
            routing.primaryTouch = nil
        }
        routing.edgeAnchor = nil
        if !pager.isDragging, !pager.isDecelerating, targetPage == nil, pagerIsMoving {
            show(page: currentIndex, animated: true)
        }
    }

    /// Whether the page takes a drag that has moved by `translation`: a zoomed image pans,
    /// except sideways toward an edge it already rests on, which turns the page instead.
    func pageWants(_ page: PageView, translation: CGPoint) -> Bool {
        guard page.canPan(.horizontal) || page.canPan(.vertical) else { return false }
        if abs(translation.x) >= abs(translation.y) {
            guard page.canPan(.horizontal) else { return false }
            let range = page.scrollRange(.horizontal)
            let x = page.contentOffset.x
            // A finger moving left scrolls toward larger offsets.
            return translation.x < 0 ? x < range.upperBound - 0.5 : x > range.lowerBound + 0.5
        }
        return true
    }

    /// The hand-over in the middle of a drag: once the page's image rests on its left or right
    /// edge and the finger keeps pushing outward past the slop, the page lets go (its rubber
    /// band springs back) and the pager takes the drag from the point where the edge was
    /// reached. Returns true when the move went to the pager.
    private func handOffAtEdge(_ contact: Contact, page: PageView, from previous: CGPoint, to location: CGPoint,
                               time: Double) -> Bool {
        guard files.count > 1, page.isDragging, !page.isZooming, routing.touches.count <= 1,
              page.canPan(.horizontal) else {
            routing.edgeAnchor = nil
            return false
        }
        if let anchor = routing.edgeAnchor {
            let push = (location.x - anchor.point.x) * anchor.direction
            if push <= 0 {
                routing.edgeAnchor = nil
                return false
            }
            let across = abs(location.y - anchor.point.y)
            guard push > PanGestureRecognizer.defaultMinimumDistance, push > across else { return false }
            page.handle(InputEvent(time: time, kind: .touchCancel))
            setRoute(.pager, for: contact)
            routing.edgeAnchor = nil
            if contact == .pointer {
                pager.handle(InputEvent(time: time, kind: .pointerMotion(location: anchor.point)))
            }
            pager.handle(beginEvent(contact, at: pager, location: anchor.point, time: time))
            pager.handle(moveEvent(contact, at: pager, location: location, time: time))
            return true
        }
        let dx = location.x - previous.x
        guard dx != 0 else { return false }
        let range = page.scrollRange(.horizontal)
        let x = page.contentOffset.x
        if (dx < 0 && x >= range.upperBound - 0.5) || (dx > 0 && x <= range.lowerBound + 0.5) {
            routing.edgeAnchor = (previous, dx < 0 ? -1 : 1)
        }
        return false
    }

    // MARK: Events for one receiver

    private func route(of contact: Contact) -> Route? {
        contact == .pointer ? routing.pointerRoute : routing.touchRoute
    }

    private func setRoute(_ route: Route, for contact: Contact) {
        if contact == .pointer { routing.pointerRoute = route } else { routing.touchRoute = route }
    }

    private func contactID(_ contact: Contact) -> Int? {
        if case .touch(let id) = contact { return id }
        return nil
    }

    /// The scroll views a route delivers to.
    func receivers(of route: Route) -> [ScrollView] {
        switch route {
        case .undecided(let index): return [pager] + (index.flatMap { pages[$0] }.map { [$0] } ?? [])
        case .pager: return [pager]
        case .page(let index): return pages[index].map { [$0] } ?? []
        }
    }

    /// `location` (window coordinates) in the pager's content, where pages take their input.
    func inPager(_ location: CGPoint) -> CGPoint { pager.convert(location, from: nil) }

    /// `location` (window coordinates) as `view.handle` expects it: scroll views take window
    /// coordinates and convert them themselves.
    private func local(_ location: CGPoint, for view: ScrollView) -> CGPoint { location }

    private func beginEvent(_ contact: Contact, at view: ScrollView, location: CGPoint, time: Double) -> InputEvent {
        switch contact {
        case .touch(let id): return InputEvent(time: time, kind: .touchDown(id: id, location: local(location, for: view)))
        case .pointer: return InputEvent(time: time, kind: .pointerButton(button: .left, pressed: true))
        }
    }

    private func moveEvent(_ contact: Contact, at view: ScrollView, location: CGPoint, time: Double) -> InputEvent {
        switch contact {
        case .touch(let id): return InputEvent(time: time, kind: .touchMotion(id: id, location: local(location, for: view)))
        case .pointer: return InputEvent(time: time, kind: .pointerMotion(location: local(location, for: view)))
        }
    }

    private func endEvent(_ contact: Contact, time: Double) -> InputEvent {
        switch contact {
        case .touch(let id): return InputEvent(time: time, kind: .touchUp(id: id))
        case .pointer: return InputEvent(time: time, kind: .pointerButton(button: .left, pressed: false))
        }
    }

    /// The pointer moved with no button down: every scroll view learns where it is (Ctrl+wheel
    /// and touchpad pinches zoom around it).
    private func hover(_ kind: InputEvent.Kind, at location: CGPoint, time: Double) {
        for view in allScrollViews {
            let local = local(location, for: view)
            let moved: InputEvent.Kind
            if case .pointerEnter = kind { moved = .pointerEnter(location: local) } else { moved = .pointerMotion(location: local) }
            view.handle(InputEvent(time: time, kind: moved))
        }
    }

    // MARK: Wheel and touchpad

    private func scroll(_ event: InputEvent, source: InputEvent.AxisSource, dx: CGFloat, dy: CGFloat) {
        guard dx.isFinite, dy.isFinite, let notches = event.wheelNotches else { return }
        if event.modifiers.contains(.ctrl) {
            // Ctrl+wheel zooms the image under the pointer (the event says Ctrl is held).
            guard let page = pageUnderPointer else { return }
            page.handle(event)
            return
        }
        switch source {
        case .finger:
            if routing.touchpadRoute == nil {
                // The fingers move opposite to the scroll amounts.
                let translation = CGPoint(x: -dx, y: -dy)
                if let page = pageUnderPointer, pageWants(page, translation: translation) {
                    routing.touchpadRoute = .page(page.index)
                } else {
                    routing.touchpadRoute = .pager
                }
            }
            if let route = routing.touchpadRoute {
                for view in receivers(of: route) { view.handle(event) }
            }
        case .wheel, .wheelTilt:
            if let page = pageUnderPointer, page.canPan(.horizontal) || page.canPan(.vertical) {
                routing.wheelNotches = 0
                page.handle(event)
                return
            }
            // An unzoomed image: each notch turns a page, down or right for the next
            // (decision: as most desktop image viewers do).
            routing.wheelNotches += abs(notches.y) >= abs(notches.x) ? notches.y : notches.x
            while routing.wheelNotches >= 1 {
                routing.wheelNotches -= 1
                show(page: basePage + 1, animated: true)
            }
            while routing.wheelNotches <= -1 {
                routing.wheelNotches += 1
                show(page: basePage - 1, animated: true)
            }
        case .continuous:
            if let page = pageUnderPointer, page.canPan(.horizontal) || page.canPan(.vertical) { page.handle(event) }
        }
    }

    // MARK: Keyboard

    private func key(_ key: Key, pressed: Bool, modifiers: InputEvent.Modifiers, event: InputEvent) {
        guard pressed, let command = GalleryKeyMap.command(forKey: key, modifiers: modifiers, kiosk: options.isKiosk) else {
            return
        }
        perform(command, key: event)
    }

    /// Carries out a key's command.
    public func perform(_ command: GalleryCommand, key event: InputEvent? = nil) {
        let page = currentPage
        switch command {
        case .previous: show(page: basePage - 1, animated: true)
        case .next: show(page: basePage + 1, animated: true)
        case .first: show(page: 0, animated: true)
        case .last: show(page: files.count - 1, animated: true)
        case .arrow(let dx, let dy):
            if let page, let event, page.isZoomedIn, canPan(page, dx: dx, dy: dy) {
                page.handle(event)
            } else if dx != 0 {
                show(page: basePage + dx, animated: true)
            }
        case .zoomIn: page?.zoomIn()
        case .zoomOut: page?.zoomOut()
        case .zoomToFit: page?.zoomToFit()
        case .zoomToActualSize: page?.zoomToActualSize()
        case .toggleFullscreen: onWindowRequest?(.toggleFullscreen)
        case .leaveFullscreen: onWindowRequest?(.leaveFullscreen)
        case .quit: onWindowRequest?(.quit)
        }
    }

    /// Whether a zoomed page can still pan the way an arrow points.
    private func canPan(_ page: PageView, dx: Int, dy: Int) -> Bool {
        let x = page.contentOffset.x, y = page.contentOffset.y
        let h = page.scrollRange(.horizontal), v = page.scrollRange(.vertical)
        if dx < 0 { return x > h.lowerBound + 0.5 }
        if dx > 0 { return x < h.upperBound - 0.5 }
        if dy < 0 { return y > v.lowerBound + 0.5 }
        if dy > 0 { return y < v.upperBound - 0.5 }
        return false
    }
}
