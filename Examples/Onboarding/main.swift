// Example: a paged onboarding, four pages swiped one at a time, with page dots and a button
// on each page that turns to the next (a control inside a scroll view: see content touches).
import Foundation
import Host
import Raster
import ScrollKit
import Wayland

let pages: [(title: String, text: String, color: UInt32)] = [
    ("Welcome", "Swipe left to see what this app does.", 0x2E6FD8),
    ("Fling", "Content glides after a fling and stops where iOS would stop it.", 0x1E9E6A),
    ("Pages", "A paging scroll view rests on whole pages: a quick flick turns one.", 0xC2572B),
    ("Ready", "That is all. Every page here is a label on a scroll view.", 0x7A3FC0),
]

/// A button: a control whose label darkens while it is pressed and which calls `action` on a tap.
final class Button: Control {
    let title: Label
    private let normal = RoundedBackground(color: Color(rgb: 0xFFFFFF, alpha: 0.25), cornerRadius: 22)
    private let pressed = RoundedBackground(color: Color(rgb: 0x000000, alpha: 0.25), cornerRadius: 22)

    init(title text: String, action: @escaping () -> Void) {
        title = Label(text: text)
        super.init()
        title.font = .boldSystemFont(ofSize: 17)
        title.textColor = .white
        title.textAlignment = .center
        title.roundedBackground = normal
        addSubview(title)
        addAction(for: [.touchDown, .touchUpInside, .touchUpOutside, .touchCancel]) { [unowned self] _, event in
            title.roundedBackground = event == .touchDown ? pressed : normal
        }
        addAction(for: .touchUpInside) { _, _ in action() }
    }
}

/// Keeps the page dots in step with the pager.
final class PagerDelegate: ScrollViewDelegate {
    let dots: Label
    init(dots: Label) { self.dots = dots }

    func scrollViewDidScroll(_ scrollView: ScrollView) {
        let width = max(scrollView.bounds.width, 1)
        let page = min(max(Int((scrollView.contentOffset.x / width).rounded()), 0), pages.count - 1)
        dots.text = pages.indices.map { $0 == page ? "●" : "○" }.joined(separator: " ")
    }
}

/// The pager: a drag that starts on a button still turns the page (UIKit's default keeps the
/// touch with a control once it has it).
final class Pager: ScrollView {
    override func touchesShouldCancel(in view: View) -> Bool { true }
}

let root = View()
let pager = Pager()
pager.isPagingEnabled = true
pager.showsHorizontalScrollIndicator = false
root.addSubview(pager)

var views: [(page: View, title: Label, text: Label, button: Button)] = []
for (index, content) in pages.enumerated() {
    let page = View()
    page.backgroundColor = Color(rgb: content.color)
    let title = Label(text: content.title)
    title.font = .boldSystemFont(ofSize: 34)
    title.textColor = .white
    title.textAlignment = .center
    let text = Label(text: content.text)
    text.textColor = .white
    text.textAlignment = .center
    text.numberOfLines = 0
    let isLast = index == pages.count - 1
    let button = Button(title: isLast ? "Start again" : "Next") {
        // Code scrolls the same pager a swipe does, with the same delegate calls.
        let target = isLast ? 0 : CGFloat(index + 1) * pager.bounds.width
        pager.setContentOffset(CGPoint(x: target, y: 0), animated: true)
    }
    for view in [title, text, button] as [View] { page.addSubview(view) }
    pager.addSubview(page)
    views.append((page, title, text, button))
}

let dots = Label()
dots.textColor = .white
dots.textAlignment = .center
root.addSubview(dots)
let delegate = PagerDelegate(dots: dots)
pager.delegate = delegate
delegate.scrollViewDidScroll(pager)

let scene = ViewScene(root: root)
scene.onLayout = { size in
    let page = pager.contentOffset.x / max(pager.bounds.width, 1)
    pager.frame = CGRect(origin: .zero, size: size)
    pager.contentSize = CGSize(width: size.width * CGFloat(pages.count), height: size.height)
    let column = min(size.width - 40, 480)
    let x = (size.width - column) / 2
    for (index, view) in views.enumerated() {
        view.page.frame = CGRect(x: size.width * CGFloat(index), y: 0, width: size.width, height: size.height)
        view.title.frame = CGRect(x: x, y: size.height * 0.25, width: column, height: 48)
        view.text.frame = CGRect(x: x, y: size.height * 0.25 + 64, width: column, height: 120)
        view.button.frame = CGRect(x: (size.width - 180) / 2, y: size.height - 140, width: 180, height: 44)
        view.button.title.frame = view.button.bounds
    }
    dots.frame = CGRect(x: 0, y: size.height - 60, width: size.width, height: 30)
    // Stay on the same page when the window is resized.
    pager.contentOffset = CGPoint(x: page.rounded() * size.width, y: 0)
}

do {
    let app = try Application(scene: scene, title: "Onboarding", appID: "org.scrollkit.Onboarding")
    try app.run()
} catch {
    FileHandle.standardError.write(Data("onboarding: \(error)\n".utf8))
    exit(1)
}
