// The card a page shows instead of its picture when the file cannot be shown (and the gallery
// when there is nothing to show): a rounded panel naming the file, with the reason below.
import Foundation
import Raster
import ScrollKit

/// A rounded panel with the file's name and the reason, in labels that wrap at words.
///
/// Lay it out with `layout(maxWidth:maxHeight:)`: it sizes itself to its text, up to that
/// size in points. The name is shown in full wherever the window leaves room for it (text
/// shrinks on narrow cards); only when even the name does not fit the height is it cut in the
/// middle, keeping its extension, and the reason before it with an ellipsis at the end.
public final class CardView: View, PlateView {
    /// 17 pt semibold title and 15 pt message on cards 400 pt wide or more: UIKit's headline
    /// and subheadline sizes, readable on a 1080p screen and on a kiosk at arm's length (decision).
    public static let titleFont = Font.systemFont(ofSize: 17, weight: .semibold)
    public static let messageFont = Font.systemFont(ofSize: 15)
    /// Cards narrower than 400 pt set their text smaller in proportion, down to 70 % (12 pt
    /// titles), so that a 160×120 window still names the file in full (decision).
    public static let fullTextWidth: CGFloat = 400
    public static let minimumTextScale = 0.7
    /// 24 pt between the panel's edge and its text, 1/16 of the width on narrower cards but at
    /// least 8 pt (decision).
    public static let padding: CGFloat = 24
    /// 12 pt: the panel's corner radius (decision, close to iOS alert corners).
    public static let cornerRadius: CGFloat = 12
    /// 2 pt: the panel's border (decision).
    public static let borderWidth: CGFloat = 2
    /// 640 pt: the widest panel, so long messages wrap into readable lines (decision).
    public static let maximumWidth: CGFloat = 640

    /// The panel: a dark grey that stands out on the black page, bordered in a muted red that
    /// says "problem" without shouting.
    static let panel = RoundedBackground(color: Color(rgb: 0x2C2C30), cornerRadius: cornerRadius,
                                         borderColor: Color(rgb: 0xB03A3A), borderWidth: borderWidth)
    /// Title text: white.
    static let titleColor = Color.white
    /// Message text: light grey.
    static let messageColor = Color(rgb: 0xC8C8C8)

    /// The first line: the file's name.
    public let title: String
    /// The rest: why it cannot be shown.
    public let message: String

    private let titleLabel = Label()
    private let messageLabel = Label()

    /// A card for `title` and `message`; call `layout(maxWidth:maxHeight:)` to size it.
    public init(title: String, message: String) {
        self.title = title
        self.message = message
        super.init(frame: .zero)
        titleLabel.text = title
        titleLabel.textColor = Self.titleColor
        // A name cut for height keeps its start and its extension.
        titleLabel.lineBreakMode = .byTruncatingMiddle
        messageLabel.text = message
        messageLabel.textColor = Self.messageColor
        for label in [titleLabel, messageLabel] {
            label.numberOfLines = 0
            addSubview(label)
        }
        layout(maxWidth: Self.maximumWidth)
    }

    /// Wraps the text for a panel at most `maxWidth` × `maxHeight` points (and never wider than
    /// `maximumWidth`), then sets the bounds' size to fit it; the caller positions the frame.
    public func layout(maxWidth: CGFloat, maxHeight: CGFloat = .infinity) {
        let width = min(max(maxWidth, 0), Self.maximumWidth)
        let padding = min(Self.padding, max((width / 16).rounded(), 8))
        let textScale = min(max(Double(width / Self.fullTextWidth), Self.minimumTextScale), 1)
        titleLabel.font = Self.titleFont.withSize(Self.titleFont.size * textScale)
        messageLabel.font = Self.messageFont.withSize(Self.messageFont.size * textScale)
        let gap = (padding / 2).rounded()
        let room = CGSize(width: max(width - 2 * padding, 1), height: 0)
        let titleSize = titleLabel.sizeThatFits(room)
        let messageSize = message.isEmpty ? .zero : messageLabel.sizeThatFits(room)
        // Height: the title first, then as many message lines as are left room for.
        let height = maxHeight.isFinite ? max(maxHeight - 2 * padding, 0) : .infinity
        let titleHeight = min(titleSize.height, max(height, CGFloat(Self.titleFont.lineHeight * textScale).rounded(.up)))
        let messageRoom = height - titleHeight - gap
        let messageLine = CGFloat(Self.messageFont.lineHeight * textScale)
        let messageHeight = messageSize.height > 0 && messageRoom >= messageLine ? min(messageSize.height, messageRoom) : 0
        titleLabel.frame = CGRect(x: padding, y: padding, width: room.width, height: titleHeight)
        messageLabel.frame = CGRect(x: padding, y: padding + titleHeight + gap, width: room.width, height: messageHeight)
        messageLabel.isHidden = messageHeight == 0
        let textWidth = max(titleSize.width, messageHeight > 0 ? messageSize.width : 0)
        let size = CGSize(width: min(textWidth + 2 * padding, max(width, 2 * padding)).rounded(.up),
                          height: (2 * padding + titleHeight + (messageHeight > 0 ? gap + messageHeight : 0)).rounded(.up))
        // Lines align within the text's width, which may be narrower than the room.
        titleLabel.frame.size.width = size.width - 2 * padding
        messageLabel.frame.size.width = size.width - 2 * padding
        frame = CGRect(origin: frame.origin, size: size)
        setNeedsDisplay()
    }

    /// The lines as laid out: title lines, then message lines (for tests and logs).
    public var lines: [String] {
        let shown = messageLabel.isHidden ? [titleLabel] : [titleLabel, messageLabel]
        return shown.flatMap { $0.textLayout.lines.map(\.text) }
    }

    /// The font sizes in use, in points: the title's and the message's.
    public var fontSizes: (title: Double, message: Double) { (titleLabel.font.size, messageLabel.font.size) }

    /// The bordered panel (the labels draw the text).
    public var plate: RoundedBackground { Self.panel }
}
