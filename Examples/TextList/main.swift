// Example: a long list of text rows in many scripts, each row a label that wraps to the width.
// Labels are drawn in tiles like any content: only the rows on screen are drawn.
import Foundation
import Host
import Raster
import ScrollKit
import Wayland

let phrases = [
    "The quick brown fox jumps over the lazy dog.",
    "Ξεσκεπάζω την ψυχοφθόρα βδελυγμία.",
    "Съешь же ещё этих мягких французских булок.",
    "نص حكيم له سر قاطع وذو شأن عظيم مكتوب على ثوب أخضر.",
    "עטלף אבק נס דרך מזגן שהתפוצץ כי חם.",
    "ऋषियों को सताने वाले दुष्ट राक्षसों के राजा रावण का सर्वनाश करने वाले विष्णुवतार भगवान श्रीराम।",
    "いろはにほへと ちりぬるを わかよたれそ つねならむ",
    "天地玄黄，宇宙洪荒。日月盈昃，辰宿列张。",
    "다람쥐 헌 쳇바퀴에 타고파.",
    "Pchnąć w tę łódź jeża lub ośm skrzyń fig. 🦔⛵",
]

let root = View()
root.backgroundColor = .white
let list = ScrollView()
list.alwaysBounceVertical = true
root.addSubview(list)

var rows: [Label] = []
for index in 0..<500 {
    let row = Label(text: "\(index + 1). \(phrases[index % phrases.count])")
    row.numberOfLines = 0
    row.textInsets = EdgeInsets(top: 10, left: 16, bottom: 10, right: 16)
    row.backgroundColor = index.isMultiple(of: 2) ? .white : Color(rgb: 0xF2F2F2)
    list.addSubview(row)
    rows.append(row)
}

let scene = ViewScene(root: root)
scene.onLayout = { size in
    list.frame = CGRect(origin: .zero, size: size)
    // Each row is as tall as its text wrapped to the window's width.
    var y: CGFloat = 0
    for row in rows {
        let height = row.sizeThatFits(CGSize(width: size.width, height: 0)).height
        row.frame = CGRect(x: 0, y: y, width: size.width, height: height)
        y += height
    }
    list.contentSize = CGSize(width: size.width, height: y)
}

do {
    let app = try Application(scene: scene, title: "Text list", appID: "org.scrollkit.TextList")
    try app.run()
} catch {
    FileHandle.standardError.write(Data("text-list: \(error)\n".utf8))
    exit(1)
}
