// Getting started: a window with a column of 100 rows that scrolls, flings and bounces.
import Foundation
import Host
import Raster
import ScrollKit
import Wayland

let root = View()
root.backgroundColor = .white
let scrollView = ScrollView()
root.addSubview(scrollView)

let rowHeight: CGFloat = 64
var rows: [Label] = []
for number in 1...100 {
    let row = Label(text: "Row \(number)")
    row.textInsets = EdgeInsets(top: 0, left: 20, bottom: 0, right: 20)
    row.backgroundColor = number.isMultiple(of: 2) ? Color(rgb: 0xEEF3FB) : .white
    scrollView.addSubview(row)
    rows.append(row)
}

let scene = ViewScene(root: root)
// Called with the window's size in points when it opens and whenever it changes.
scene.onLayout = { size in
    scrollView.frame = CGRect(origin: .zero, size: size)
    scrollView.contentSize = CGSize(width: size.width, height: rowHeight * CGFloat(rows.count))
    for (index, row) in rows.enumerated() {
        row.frame = CGRect(x: 0, y: rowHeight * CGFloat(index), width: size.width, height: rowHeight)
    }
}

do {
    let app = try Application(scene: scene, title: "Hello, ScrollKit", appID: "org.scrollkit.HelloScroll")
    try app.run()
} catch {
    FileHandle.standardError.write(Data("hello-scroll: \(error)\n".utf8))
    exit(1)
}
