// The window's title says what is shown ("sunset.png (2/5) — ScrollKit"): the file's name as a
// title bar can show it, with control characters and bytes that are not UTF-8 escaped and a long
// name shortened in the middle.
import SafeOutput

/// Titles of the viewer's window.
public enum WindowTitle {
    /// The application's name, which ends every title.
    public static let application = "ScrollKit"
    /// " — ": between what is shown and the application, as GNOME's apps write it.
    public static let separator = " \u{2014} "
    /// 80 characters: the most of a file name a title keeps (decision). Title bars and task lists
    /// show far fewer; the middle goes, so the start and the extension stay readable.
    public static let maxNameLength = 80

    /// The title for page `index` (from 0) of `count`, showing `file` (a path): "name (i/n) —
    /// ScrollKit", without the count when there is one page, "No pictures — ScrollKit" for none.
    public static func gallery(file: String?, index: Int, count: Int) -> String {
        guard let file, count > 0 else { return "No pictures" + separator + application }
        let name = displayName(ofPath: file)
        let position = count > 1 ? " (\(index + 1)/\(count))" : ""
        return name + position + separator + application
    }

    /// The title for something shown that is not a file (the test card): "what — ScrollKit".
    public static func showing(_ what: String) -> String { what + separator + application }

    /// The last component of `path` as a title shows it: control characters as `\x1B`, bytes
    /// that are not UTF-8 as `\xE9` (a name the viewer reached through an alias is escaped
    /// already and stays as it is), at most `maxNameLength` characters.
    public static func displayName(ofPath path: String) -> String {
        shortened(TerminalText.escaped(bytes: RawPath(path).lastComponent), to: maxNameLength)
    }

    /// `name` when it has at most `limit` characters; otherwise its start and end around "…",
    /// `limit` characters in all.
    static func shortened(_ name: String, to limit: Int) -> String {
        guard name.count > limit, limit >= 3 else { return name }
        let kept = limit - 1
        let head = (kept + 1) / 2
        return String(name.prefix(head)) + "\u{2026}" + String(name.suffix(kept - head))
    }
}
