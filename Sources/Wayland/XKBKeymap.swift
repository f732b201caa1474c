// xkbcommon behind a Swift type: the compositor's keymap fd mapped and compiled, the key
// state fed with modifier masks, and keysym names looked up. Every raw pointer lives here.
import CXKBCommon
import Foundation
import ScrollKit
import SystemPackage

/// Why a keymap from the compositor could not be used; `description` is the one-line warning.
public enum KeymapError: Error, Equatable, CustomStringConvertible {
    /// `wl_keyboard.keymap` announced a format other than xkb text v1 (0 is "no keymap").
    case unsupportedFormat(UInt32)
    /// The announced size is zero or beyond `XKBKeymap.maxSize`.
    case badSize(UInt32)
    /// The fd is not a regular file (memfd or shm) of at least the announced size.
    case badFile(size: UInt32, reason: String)
    /// `mmap` refused the fd.
    case mapFailed(reason: String)
    /// xkbcommon could not compile the text.
    case compileFailed

    /// The one-line warning, naming the event and the problem.
    public var description: String {
        switch self {
        case .unsupportedFormat(let format):
            return "wl_keyboard.keymap: format \(format) is not xkb text v1 (1); keyboard input is ignored"
        case .badSize(let size):
            return "wl_keyboard.keymap: size \(size) bytes is outside 1...\(XKBKeymap.maxSize); keyboard input is ignored"
        case .badFile(let size, let reason):
            return "wl_keyboard.keymap: the fd cannot hold \(size) bytes (\(reason)); keyboard input is ignored"
        case .mapFailed(let reason):
            return "wl_keyboard.keymap: mmap of the fd failed (\(reason)); keyboard input is ignored"
        case .compileFailed:
            return "wl_keyboard.keymap: xkbcommon could not compile the keymap text; keyboard input is ignored"
        }
    }
}

/// A compiled xkb keymap and its key state.
public final class XKBKeymap {
    /// 16 MiB: the largest keymap accepted. A full desktop keymap is about 60 KiB; the limit
    /// is checked before anything is mapped.
    public static let maxSize: UInt32 = 16 << 20
    /// evdev key codes are xkb key codes minus 8 (the X11 offset the protocol keeps).
    static let evdevOffset: UInt32 = 8

    private let context: OpaquePointer
    private let keymap: OpaquePointer
    private let state: OpaquePointer

    /// Maps `size` bytes of `fd` (MAP_PRIVATE, as wl_keyboard v7 requires) and compiles them.
    /// `format` is the event's format. The fd is always closed, whatever happens.
    public convenience init(fd: Int32, size: UInt32, format: UInt32) throws(KeymapError) {
        let file = FileDescriptor(rawValue: fd)
        defer { if fd >= 0 { try? file.close() } }
        // wl_keyboard.keymap_format.xkb_v1 = 1.
        guard format == 1 else { throw .unsupportedFormat(format) }
        guard size > 0, size <= Self.maxSize else { throw .badSize(size) }
        // Reading past the end of a mapped file raises SIGBUS: check the file is at least
        // as large as announced before mapping, and refuse devices, pipes and sockets.
        let info: Stat
        do {
            info = try file.stat()
        } catch {
            throw .badFile(size: size, reason: error.description)
        }
        guard info.type == .regular else { throw .badFile(size: size, reason: "not a regular file") }
        guard info.size >= Int64(size) else {
            throw .badFile(size: size, reason: "the file has only \(info.size) bytes")
        }
        let mapped: UnsafeMutableRawPointer
        do {
            mapped = try SystemCalls.map(file, byteCount: Int(size), .privateReadOnly)
        } catch {
            throw .mapFailed(reason: error.errno.description)
        }
        defer { SystemCalls.unmap(mapped, byteCount: Int(size)) }
        // Copy the text out so the mapping lives only as long as this call.
        var text = Array(UnsafeRawBufferPointer(start: mapped, count: Int(size)))
        // Compositors send the text with its terminating NUL; xkbcommon wants the text alone.
        while text.last == 0 { text.removeLast() }
        try self.init(text: text)
    }

    /// Compiles keymap text (xkb text v1), e.g. from `XKBKeymap.text(layout:)` in tests.
    public convenience init(string: String) throws(KeymapError) {
        try self.init(text: Array(string.utf8))
    }

    private init(text: [UInt8]) throws(KeymapError) {
        guard !text.isEmpty else { throw .compileFailed }
        guard text.count <= Int(Self.maxSize) else { throw .badSize(UInt32(clamping: text.count)) }
        // No environment names: a compositor's keymap is complete; RMLVO defaults do not apply.
        guard let context = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES) else { throw .compileFailed }
        // A bad keymap is reported as one warning line (KeymapError), not xkbcommon's own chatter.
        xkb_context_set_log_level(context, XKB_LOG_LEVEL_CRITICAL)
        let compiled = text.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { chars in
                xkb_keymap_new_from_buffer(context, chars.baseAddress, chars.count,
                                           XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
            }
        }
        guard let keymap = compiled else {
            xkb_context_unref(context)
            throw .compileFailed
        }
        guard let state = xkb_state_new(keymap) else {
            xkb_keymap_unref(keymap)
            xkb_context_unref(context)
            throw .compileFailed
        }
        self.context = context
        self.keymap = keymap
        self.state = state
    }

    deinit {
        xkb_state_unref(state)
        xkb_keymap_unref(keymap)
        xkb_context_unref(context)
    }

    /// The keysym name and repeat flag of evdev key `code` in the current state, nil when
    /// the keymap has no symbol for it.
    public func describe(_ code: UInt32) -> KeyDescription? {
        guard code <= UInt32.max - Self.evdevOffset else { return nil }
        let xkbCode = code + Self.evdevOffset
        let sym = xkb_state_key_get_one_sym(state, xkbCode)
        guard sym != 0 else { return nil }  // XKB_KEY_NoSymbol
        var buffer = [CChar](repeating: 0, count: 64)
        let written = xkb_keysym_get_name(sym, &buffer, buffer.count)
        guard written > 0, written < buffer.count else { return nil }
        let name = String(decoding: buffer[0..<Int(written)].map { UInt8(bitPattern: $0) }, as: UTF8.self)
        // The keysym's text (nothing for non-printing keys) makes a printable key a character.
        var text = [CChar](repeating: 0, count: 16)
        let length = xkb_keysym_to_utf8(sym, &text, text.count)
        let utf8 = length > 1 ? String(decoding: text[0..<Int(length - 1)].map { UInt8(bitPattern: $0) }, as: UTF8.self) : nil
        return KeyDescription(name: name, text: utf8, repeats: xkb_keymap_key_repeats(keymap, xkbCode) != 0)
    }

    /// `wl_keyboard.modifiers`: the serialised masks and layout group.
    public func updateModifiers(depressed: UInt32, latched: UInt32, locked: UInt32, group: UInt32) {
        _ = xkb_state_update_mask(state, depressed, latched, locked, 0, 0, group)
    }

    /// The effective modifiers ScrollKit distinguishes.
    public var modifiers: InputEvent.Modifiers {
        var result: InputEvent.Modifiers = []
        // xkbcommon-names.h: XKB_MOD_NAME_SHIFT "Shift", _CTRL "Control", _ALT "Mod1", _LOGO "Mod4".
        let names: [(String, InputEvent.Modifiers)] = [("Shift", .shift), ("Control", .ctrl), ("Mod1", .alt), ("Mod4", .logo)]
        for (name, modifier) in names where xkb_state_mod_name_is_active(state, name, XKB_STATE_MODS_EFFECTIVE) > 0 {
            result.insert(modifier)
        }
        return result
    }

    /// The keymap text xkbcommon builds from RMLVO names (`layout` such as "us" or "de"),
    /// nil when the system's xkb data is missing. For tests and tools, which need a
    /// keymap as a compositor would send it.
    public static func text(layout: String) -> String? {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES) else { return nil }
        defer { xkb_context_unref(context) }
        return layout.withCString { layoutName -> String? in
            var names = xkb_rule_names(rules: nil, model: nil, layout: layoutName, variant: nil, options: nil)
            guard let keymap = xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS) else { return nil }
            defer { xkb_keymap_unref(keymap) }
            guard let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else { return nil }
            defer { free(text) }
            return String(cString: text)
        }
    }
}
