// The window's still frames (Raster's `StillFrame`): a frame that is one colour with at most one
// picture is put together by the compositor from a small buffer of the colour, shown at the
// window's size by the surface's viewport, and the picture's own memory in a subsurface
// (`StillSurface`). The window then holds no buffer of its size: at 1920×1080 that is 8 MiB
// less while a drawing rests on screen, on top of its render, which it shows.
import Host
import Raster

/// Where a still frame's picture goes in the window's points, or nil when it cannot go exactly
/// where the frame has it (pure, for the tests).
struct StillPlacement: Equatable {
    /// Top-left corner in the window's points.
    var x: Int, y: Int
    /// Size in points.
    var size: SurfaceSize

    /// The placement of `rect` (device pixels) in a frame of `frameWidth`×`frameHeight` device
    /// pixels at `scale`: nil unless every edge falls on a whole point (the subsurface's
    /// position and the viewport's size are whole points) and the picture lies inside the frame
    /// (a subsurface outside it would widen the window's geometry).
    static func of(_ rect: PixelRect, scale: BufferScale, frameWidth: Int, frameHeight: Int) -> StillPlacement? {
        guard rect.width > 0, rect.height > 0, rect.x >= 0, rect.y >= 0,
              rect.x + rect.width <= frameWidth, rect.y + rect.height <= frameHeight,
              let x = points(rect.x, scale), let y = points(rect.y, scale),
              let right = points(rect.x + rect.width, scale), let bottom = points(rect.y + rect.height, scale) else { return nil }
        return StillPlacement(x: x, y: y, size: SurfaceSize(width: right - x, height: bottom - y))
    }

    /// `pixels` device pixels in points at `scale` when a whole number of them makes exactly
    /// that many pixels (as the compositor scales points back), else nil.
    static func points(_ pixels: Int, _ scale: BufferScale) -> Int? {
        switch scale {
        case .integer(let n):
            return n > 0 && pixels % n == 0 ? pixels / n : nil
        case .fractional(let v):
            guard v > 0, (pixels * 120) % v == 0 else { return nil }
            return pixels * 120 / v
        }
    }
}

/// The size of a still frame's background buffer, which the surface's viewport enlarges to
/// the frame (pure, for the tests).
enum StillBackground {
    /// For a frame of `width`×`height` pixels: each side n ≥ side² / 2^15 pixels (at most the
    /// side). A compositor that scales in 16.16 fixed point (wlroots' pixman renderer, which
    /// sway headless runs) rounds the scale's 1/side to 2^-17 of a source pixel per
    /// destination pixel, side · 2^-17 at the far edge, and that must stay below the half
    /// destination pixel's n / 2side of margin left there: side² / 2^16 < n, with a factor of
    /// two to spare. A 1×1 buffer left the bottom 6 rows of a 1920×1080 window to sway's
    /// background (1/1080 rounds up to 61/65536). 113×36 pixels at 1920×1080.
    static func size(width: Int, height: Int) -> (width: Int, height: Int) {
        func side(_ length: Int) -> Int { min(max(1, length), max(1, (length * length + (1 << 15) - 1) >> 15)) }
        return (side(width), side(height))
    }
}

extension Window {
    /// What a still frame shown sent, to tell whether the scene's next one differs.
    struct ShownStill: Equatable {
        let background: UInt32
        let picture: ObjectIdentifier?
        let placement: StillPlacement?
        /// The window's size in points when it was sent.
        let width: Int, height: Int
    }

    /// The scene's still frame and its picture's placement when this window can show it so:
    /// the scene rests (nothing follows input; the caller checks it asks for no next frame), a
    /// viewport enlarges the background's pixel, the frame is upright, and for a picture a
    /// subcompositor, a picture in shared memory and a placement on whole points. Frames that
    /// move are drawn: each switch between the two makes a buffer anew.
    var showableStill: (frame: StillFrame, placement: StillPlacement?)? {
        guard viewport != nil, preRotated == nil, display.globals.shm != nil, scene.isMotionPredictable,
              let frame = scene.stillFrame(width: bufferWidth, height: bufferHeight) else { return nil }
        guard let picture = frame.picture else { return (frame, nil) }
        guard display.globals.subcompositor != nil, display.globals.viewporter != nil, picture.sharedFile != nil,
              let placement = StillPlacement.of(frame.rect, scale: scale, frameWidth: bufferWidth, frameHeight: bufferHeight)
        else { return nil }
        return (frame, placement)
    }

    /// Whether `still` differs from what the window shows (or it shows a drawn frame).
    func stillDiffers(_ still: (frame: StillFrame, placement: StillPlacement?)) -> Bool {
        shownStill != ShownStill(background: still.frame.background, picture: still.frame.picture.map(ObjectIdentifier.init),
                                 placement: still.placement, width: width, height: height)
    }

    /// Shows `still`, or keeps it back while the scene's content is on its way (`ContentWait`,
    /// as a drawn placeholder is). Returns false when its picture could not be handed over
    /// (no buffer could be made of it): the caller draws the frame instead.
    func showStill(_ still: (frame: StillFrame, placement: StillPlacement?)) -> Bool {
        if contentWait.holds(at: monotonicMilliseconds(), awaitsContent: scene.awaitsContent,
                             sizeChosenByCompositor: sizeChosenByCompositor) {
            armContentWaitTimer()
            return true
        }
        let frame = still.frame
        guard let shm = display.globals.shm else { return false }
        if let picture = frame.picture, let placement = still.placement {
            if stillSurface == nil, let compositor = display.globals.compositor, let subcompositor = display.globals.subcompositor,
               let viewporter = display.globals.viewporter {
                stillSurface = StillSurface(compositor: compositor, subcompositor: subcompositor, viewporter: viewporter,
                                            shm: shm, parent: surface)
            }
            guard let stillSurface,
                  stillSurface.show(picture, origin: (placement.x, placement.y), size: placement.size) else { return false }
        } else {
            stillSurface?.hide()
        }
        let background: ShmBuffer
        let size = StillBackground.size(width: bufferWidth, height: bufferHeight)
        if let kept = stillBackground, kept.colour == frame.background,
           kept.buffer.framebuffer.width == size.width, kept.buffer.framebuffer.height == size.height {
            background = kept.buffer
        } else {
            // A new one rather than repainting it: the compositor may still read the old.
            guard let made = try? ShmBuffer(shm: shm, id: -1, width: size.width, height: size.height,
                                            opaque: true) else {
                stillSurface?.hide()
                return false
            }
            made.framebuffer.fill(made.framebuffer.bounds, with: 0xFF00_0000 | frame.background)
            stillBackground = (made, frame.background)
            background = made
        }
        discardHeldFrame()
        surface.attach(background.proxy)
        // Buffer scale 1 and the viewport to the window's size: the pixel covers the window.
        commitScaleState(halved: true)
        surface.damageBuffer((0, 0, size.width, size.height))
        scene.didShowStillFrame()
        shownStill = ShownStill(background: frame.background, picture: frame.picture.map(ObjectIdentifier.init),
                                placement: still.placement, width: width, height: height)
        unshownDrawing = false
        unshownDamage = PixelRegion()
        // No buffer of the window's size is needed while it shows still: the free ones go now,
        // the compositor's when it gives them back.
        buffers.resize(width: 0, height: 0)
        commitFrame(CommittedFrame(width: bufferWidth, height: bufferHeight, isStill: true), renderMilliseconds: 0,
                    drawnAhead: false, newBuffer: false, halved: false)
        return true
    }

    /// Leaves still frames for drawn ones: the picture's subsurface shows nothing from the
    /// commit of the drawn frame on.
    func leaveStill() {
        guard shownStill != nil else { return }
        shownStill = nil
        stillSurface?.hide()
    }
}
