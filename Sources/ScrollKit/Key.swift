// Keys as a type: what a key press means to a scroll view or an app, named once here from the
// keysym names xkbcommon and the trace format use, so nothing else matches key-name strings.
import Foundation

/// A key, as the keyboard layout produced it (the keysym, not the physical position).
///
/// Keypad keys fold into the keys they stand for (`KP_Up` is `.up`, `KP_Add` is
/// `.character("+")`), both Control keys are `.control`, and a printable key is its text. The
/// keysym name round-trips through `init(keysymName:)` and `keysymName`, which traces use.
public enum Key: Hashable, Sendable {
    /// Up arrow (`Up`): scrolls up by `ScrollView.arrowKeyDistance`.
    case up
    /// Down arrow (`Down`).
    case down
    /// Left arrow (`Left`).
    case left
    /// Right arrow (`Right`).
    case right
    /// Page Up (`Prior`): scrolls up by a page less `ScrollView.pageOverlap`.
    case pageUp
    /// Page Down (`Next`).
    case pageDown
    /// Home (`Home`): the scroll-to-top trigger, with or without Ctrl.
    case home
    /// End: scrolls to the bottom.
    case end
    /// The space bar (`space`): a page down, with Shift a page up.
    case space
    /// Return or keypad Enter (`Return`, `KP_Enter`).
    case enter
    /// Tab (`Tab`).
    case tab
    /// Backspace (`BackSpace`).
    case backspace
    /// Delete (`Delete`).
    case delete
    /// Insert (`Insert`).
    case insert
    /// Escape (`Escape`).
    case escape
    /// F1…F35.
    case function(Int)
    /// Either Control key.
    case control
    /// Either Shift key.
    case shift
    /// Either Alt (Meta) key.
    case alt
    /// Either logo (Super) key.
    case logo
    /// A printable key by the text it types: "q", "Q", "+", "[", "?", "0", "ä".
    case character(String)
    /// Any other key, by its keysym name.
    case other(String)

    /// The key a keysym name stands for. `text` is the keysym's text when the caller knows it
    /// (xkbcommon's `xkb_keysym_to_utf8`); without it, the names of ASCII and keypad keys
    /// are known here and anything else is `.other(name)`.
    public init(keysymName name: String, text: String? = nil) {
        if let key = Self.named[name] {
            self = key
            return
        }
        if name.hasPrefix("F"), let n = Int(name.dropFirst()), (1...35).contains(n) {
            self = .function(n)
            return
        }
        if let text = text ?? Self.asciiText[name] ?? Self.unicodeText(name), let scalar = text.unicodeScalars.first, text.unicodeScalars.count == 1,
           scalar.value >= 0x20, scalar.value != 0x7F, !(0x80..<0xA0).contains(scalar.value) {
            self = .character(text)
            return
        }
        self = .other(name)
    }

    /// The keysym name traces write for this key (the unshifted, non-keypad one).
    public var keysymName: String {
        switch self {
        case .up: "Up"
        case .down: "Down"
        case .left: "Left"
        case .right: "Right"
        case .pageUp: "Prior"
        case .pageDown: "Next"
        case .home: "Home"
        case .end: "End"
        case .space: "space"
        case .enter: "Return"
        case .tab: "Tab"
        case .backspace: "BackSpace"
        case .delete: "Delete"
        case .insert: "Insert"
        case .escape: "Escape"
        case .function(let n): "F\(n)"
        case .control: "Control_L"
        case .shift: "Shift_L"
        case .alt: "Alt_L"
        case .logo: "Super_L"
        case .character(let text): Self.asciiName[text] ?? Self.unicodeName(text)
        case .other(let name): name
        }
    }

    /// The modifier this key holds down, if it is one.
    public var modifier: InputEvent.Modifiers? {
        switch self {
        case .control: .ctrl
        case .shift: .shift
        case .alt: .alt
        case .logo: .logo
        default: nil
        }
    }

    /// Keysym names of the non-printing keys (xkbcommon-keysyms.h), keypad ones included.
    private static let named: [String: Key] = [
        "Up": .up, "KP_Up": .up, "Down": .down, "KP_Down": .down,
        "Left": .left, "KP_Left": .left, "Right": .right, "KP_Right": .right,
        "Prior": .pageUp, "Page_Up": .pageUp, "KP_Prior": .pageUp, "KP_Page_Up": .pageUp,
        "Next": .pageDown, "Page_Down": .pageDown, "KP_Next": .pageDown, "KP_Page_Down": .pageDown,
        "Home": .home, "KP_Home": .home, "End": .end, "KP_End": .end,
        "space": .space, "KP_Space": .space,
        "Return": .enter, "KP_Enter": .enter, "Tab": .tab, "KP_Tab": .tab, "ISO_Left_Tab": .tab,
        "BackSpace": .backspace, "Delete": .delete, "KP_Delete": .delete, "Insert": .insert, "KP_Insert": .insert,
        "Escape": .escape,
        "Control_L": .control, "Control_R": .control, "Shift_L": .shift, "Shift_R": .shift,
        "Alt_L": .alt, "Alt_R": .alt, "Meta_L": .alt, "Meta_R": .alt, "Super_L": .logo, "Super_R": .logo,
    ]

    /// The text of the printable ASCII and keypad keysyms by name (xkbcommon-keysyms.h: the
    /// Latin-1 keysyms are their characters' code points; letters and digits name themselves).
    private static let asciiText: [String: String] = {
        var table: [String: String] = [
            "exclam": "!", "quotedbl": "\"", "numbersign": "#", "dollar": "$", "percent": "%", "ampersand": "&",
            "apostrophe": "'", "parenleft": "(", "parenright": ")", "asterisk": "*", "plus": "+", "comma": ",",
            "minus": "-", "period": ".", "slash": "/", "colon": ":", "semicolon": ";", "less": "<", "equal": "=",
            "greater": ">", "question": "?", "at": "@", "bracketleft": "[", "backslash": "\\", "bracketright": "]",
            "asciicircum": "^", "underscore": "_", "grave": "`", "braceleft": "{", "bar": "|", "braceright": "}",
            "asciitilde": "~",
            "KP_Add": "+", "KP_Subtract": "-", "KP_Multiply": "*", "KP_Divide": "/", "KP_Decimal": ".",
            "KP_Separator": ",", "KP_Equal": "=",
        ]
        for scalar in Unicode.Scalar("a").value...Unicode.Scalar("z").value {
            let lower = String(UnicodeScalar(scalar)!)
            table[lower] = lower
            table[lower.uppercased()] = lower.uppercased()
        }
        for digit in 0...9 {
            table["\(digit)"] = "\(digit)"
            table["KP_\(digit)"] = "\(digit)"
        }
        return table
    }()

    /// The unshifted, non-keypad name for each ASCII text (the inverse of `asciiText`).
    private static let asciiName: [String: String] = {
        var table: [String: String] = [:]
        for (name, text) in asciiText where !name.hasPrefix("KP_") { table[text] = name }
        return table
    }()

    /// xkbcommon's name for a Unicode keysym: "U" and the code point in at least four hex digits.
    private static func unicodeName(_ text: String) -> String {
        guard let scalar = text.unicodeScalars.first else { return "" }
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    /// The text of a Unicode keysym name ("U00E4" is "ä"), nil for other names.
    private static func unicodeText(_ name: String) -> String? {
        guard name.count >= 5, name.count <= 9, name.hasPrefix("U"), let value = UInt32(name.dropFirst(), radix: 16),
              let scalar = Unicode.Scalar(value) else { return nil }
        return String(scalar)
    }
}
