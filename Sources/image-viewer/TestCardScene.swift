// The viewer's test-card page: a ScrollView over the generated card, so drags, flings,
// the rubber band, the wheel and the keyboard behave as they will for pictures.
import Foundation
import Host
import Raster
import ScrollKit
import TestCardContent

/// Builds the scene that shows `TestCardView` (10 000 × 10 000 pt) in a full-window scroll view,
/// drawn with a tile cache of `cacheBudget` bytes.
func makeTestCardScene(cacheBudget: Int = Renderer.defaultBudget) -> ViewScene {
    let root = View()
    root.backgroundColor = .black
    let scrollView = ScrollView()
    let card = TestCardView(frame: CGRect(x: 0, y: 0, width: 10_000, height: 10_000))
    scrollView.addSubview(card)
    scrollView.contentSize = card.frame.size
    root.addSubview(scrollView)
    let scene = ViewScene(root: root, cacheBudget: cacheBudget)
    scene.onLayout = { size in scrollView.frame = CGRect(origin: .zero, size: size) }
    return scene
}
