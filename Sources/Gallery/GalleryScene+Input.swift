// The gallery's input: keys are the viewer's commands; everything else goes to ScrollKit's
// InputRouter, which shares touches, the pointer, wheels and touchpads between the pager and
// its zooming pages as nested UIScrollViews share them on iOS.
import Foundation
import Pictures
import Raster
import ScrollKit

extension GalleryScene {
    /// Delivers one input frame: keys become commands, the rest is routed to the pager and
    /// the pages; the kiosk schedule hears of the activity.
    public func handle(frame events: [InputEvent]) {
        // Input acts on what has loaded so far, even before the next frame shows it.
        deliverLoadEvents()
        var routed: [InputEvent] = []
        var latest = now
        for event in events {
            if event.time.isFinite { latest = max(latest, event.time) }
            pointerLocation = event.pointerLocation
            guard case .key(let key, let pressed) = event.kind else {
                routed.append(event)
                continue
            }
            // Keys act in order with the rest of the frame.
            router.handle(frame: routed)
            routed.removeAll()
            self.key(key, pressed: pressed, modifiers: event.modifiers, event: event)
        }
        router.handle(frame: routed)
        now = latest
        let deadline = schedule.nextDeadline
        schedule.noteInput(at: now, touching: router.isTouching)
        // The host learns of the new deadline from the next `advance`: ask for one.
        if schedule.nextDeadline != deadline { onNeedsFrame?() }
    }

    /// The page under the pointer (the current page when the pointer is unknown).
    var pageUnderPointer: PageView? {
        guard let location = pointerLocation else { return currentPage }
        return slot(at: location).flatMap { pages[$0] } ?? currentPage
    }

    /// The pager slot under `location` (window coordinates).
    func slot(at location: CGPoint) -> Int? {
        guard !files.isEmpty, pageStride > 0 else { return nil }
        // Checked as a floating-point value first: a point far off the window would not fit an Int.
        let slot = (pager.convert(location, from: nil).x / pageStride).rounded(.down)
        guard slot.isFinite, slot >= 0, slot < CGFloat(slots.count) else { return nil }
        return Int(slot)
    }

    // MARK: Keyboard

    private func key(_ key: Key, pressed: Bool, modifiers: InputEvent.Modifiers, event: InputEvent) {
        guard pressed, let command = GalleryKeyBindings.command(forKey: key, modifiers: modifiers, context: keyContext) else {
            // Not a command (a modifier, a release): a recording keeps the key, whose modifiers
            // count for what follows.
            report(.input(event.kind, modifiers: modifiers))
            return
        }
        // Keys go to no scroll view: the pager's clock is brought to the key's time, so a
        // slide starts at the press rather than at the pager's last tick.
        pager.advance(to: event.time)
        perform(command, key: event)
    }

    /// Carries out a key's command.
    public func perform(_ command: GalleryCommand, key event: InputEvent? = nil) {
        let page = currentPage
        switch command {
        case .previous: step(by: -1)
        case .next: step(by: 1)
        case .first: show(page: 0, animated: true)
        case .last: show(page: files.count - 1, animated: true)
        case .arrow(let dx, let dy):
            if let page, let event, page.isZoomedIn, canPan(page, dx: dx, dy: dy) {
                page.handle(event)
                report(.input(event.kind, modifiers: event.modifiers, view: view(of: page)))
            } else if dx != 0 {
                step(by: dx)
            }
        case .zoomIn: zoom(page, to: page?.zoomRect(by: PageView.keyZoomFactor))
        case .zoomOut: zoom(page, to: page?.zoomRect(by: 1 / PageView.keyZoomFactor))
        case .zoomToFit:
            guard let page, page.imageSize != nil else { return }
            page.setZoomScale(page.fitScale, animated: true)
            report(.call(.setZoomScale(Double(page.fitScale), animated: true), view: view(of: page)))
        case .zoomToActualSize: zoom(page, to: page?.zoomRectToDetail())
        case .rotateLeft, .rotateRight, .flipHorizontal, .flipVertical: turnCurrentPage(command)
        case .showPageOverlay:
            overlays.showPageOverlay(at: now)
            onNeedsFrame?()
        case .toggleInfo: overlays.toggleInfo()
        case .toggleHelp: overlays.toggleHelp()
        case .toggleSlideshow:
            schedule.setPaused(!schedule.isPaused, at: now)
            onNeedsFrame?()  // the host learns the new deadline from the next advance
        case .toggleAnimation: toggleAnimationPause(at: event?.time ?? now)
        case .previousFilePage: turnFilePage(by: -1)
        case .nextFilePage: turnFilePage(by: 1)
        case .toggleFullscreen: onWindowRequest?(.toggleFullscreen)
        case .leaveFullscreen: onWindowRequest?(.leaveFullscreen)
        case .quit: onWindowRequest?(.quit)
        }
    }

    /// Zooms `page` to `rect` (its picture's coordinates), as a key asked; a recording gets the call.
    private func zoom(_ page: PageView?, to rect: CGRect?) {
        guard let page, let rect else { return }
        page.zoom(to: rect, animated: true)
        report(.call(.zoomToRect(rect, animated: true), view: view(of: page)))
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
