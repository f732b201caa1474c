// The injector's own xkb keymap (us layout): keysym names → keycodes, the keymap text the
// wlr virtual keyboard uploads, and the modifier state that goes with the keys sent.
import CXKBCommon
import Glibc

/// Serialized xkb modifier state, as `zwp_virtual_keyboard_v1.modifiers` takes it.
struct ModifierState: Equatable {
    var depressed: UInt32
    var latched: UInt32
    var locked: UInt32
    var group: UInt32
}

/// An xkb context, a us keymap and a state tracking the keys the injector has sent.
final class InjectorKeymap {
    private let context: OpaquePointer
    private let keymap: OpaquePointer
    private let state: OpaquePointer

    /// Compiles the us layout with fixed rules, ignoring XKB_DEFAULT_* so that a test run
    /// does not depend on the environment it was started from.
    init() throws(InjectorKeymapError) {
        guard let context = xkb_context_new(XKB_CONTEXT_NO_ENVIRONMENT_NAMES) else {
            throw InjectorKeymapError(message: "xkbcommon could not create a context")
        }
        // evdev/pc105/us: the rules KWin and wlroots fall back to when nothing is configured.
        // The name strings need only live through the compile call.
        let compiled: OpaquePointer? = "evdev".withCString { rules in
            "pc105".withCString { model in
                "us".withCString { layout in
                    var names = xkb_rule_names(rules: rules, model: model, layout: layout, variant: nil, options: nil)
                    return xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
                }
            }
        }
        guard let keymap = compiled else {
            xkb_context_unref(context)
            throw InjectorKeymapError(message: "xkbcommon could not compile the us keymap (is xkb-data installed?)")
        }
        guard let state = xkb_state_new(keymap) else {
            xkb_keymap_unref(keymap)
            xkb_context_unref(context)
            throw InjectorKeymapError(message: "xkbcommon could not create a keyboard state")
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

    /// The keymap as XKB_V1 text including its terminating NUL, as the keymap request
    /// expects it.
    func text() -> [UInt8] {
        guard let string = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else { return [] }
        defer { free(string) }
        return Array(String(cString: string).utf8) + [0]
    }

    /// The key that types the keysym `name`: the lowest level wins (no modifier over
    /// Shift), then the lowest keycode. Levels needing modifiers other than Shift are not
    /// used: the injector would have to invent key presses for them.
    func resolve(_ name: String) -> Result<KeyStroke, KeyLookupError> {
        let keysym = xkb_keysym_from_name(name, XKB_KEYSYM_NO_FLAGS)
        guard keysym != 0 else {
            // Names are case-sensitive (q and Q differ); suggest the spelling when only case is off.
            let folded = xkb_keysym_from_name(name, XKB_KEYSYM_CASE_INSENSITIVE)
            let canonical = folded != 0 ? keysymName(folded) : ""
            let hint = !canonical.isEmpty && canonical.lowercased() == name.lowercased()
                ? " (names are case-sensitive: did you mean '\(canonical)'?)"
                : " (names are case-sensitive xkbcommon keysyms: Page_Down, Home, q, plus, Control_L…)"
            return .failure(KeyLookupError(message: "unknown keysym '\(name)'\(hint)"))
        }
        let shift = modifierMask("Shift")
        var best: (keycode: UInt32, shifted: Bool)?
        for keycode in xkb_keymap_min_keycode(keymap)...xkb_keymap_max_keycode(keymap) {
            let levels = xkb_keymap_num_levels_for_key(keymap, keycode, 0)
            for level in 0..<levels where symbols(keycode: keycode, level: level).contains(keysym) {
                let masks = modifierMasks(keycode: keycode, level: level)
                let shifted: Bool
                if masks.contains(0) { shifted = false } else if masks.contains(shift) { shifted = true } else { continue }
                if best == nil || (best!.shifted && !shifted) { best = (keycode, shifted) }
                break
            }
            if let best, !best.shifted { break }
        }
        guard let best else {
            return .failure(KeyLookupError(message: "keysym '\(name)' cannot be typed on the us keymap without modifiers other than Shift"))
        }
        return .success(KeyStroke(name: name, keycode: best.keycode, needsShift: best.shifted))
    }

    /// Records a key sent to the compositor; returns the new modifier state when the key
    /// changed it (a modifier key), nil otherwise.
    func update(keycode: UInt32, pressed: Bool) -> ModifierState? {
        let changed = xkb_state_update_key(state, keycode, pressed ? XKB_KEY_DOWN : XKB_KEY_UP)
        let modifierComponents = XKB_STATE_MODS_DEPRESSED.rawValue | XKB_STATE_MODS_LATCHED.rawValue
            | XKB_STATE_MODS_LOCKED.rawValue | XKB_STATE_LAYOUT_EFFECTIVE.rawValue
        guard changed.rawValue & modifierComponents != 0 else { return nil }
        return ModifierState(
            depressed: xkb_state_serialize_mods(state, XKB_STATE_MODS_DEPRESSED),
            latched: xkb_state_serialize_mods(state, XKB_STATE_MODS_LATCHED),
            locked: xkb_state_serialize_mods(state, XKB_STATE_MODS_LOCKED),
            group: xkb_state_serialize_layout(state, XKB_STATE_LAYOUT_EFFECTIVE))
    }

    private func keysymName(_ keysym: xkb_keysym_t) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let n = xkb_keysym_get_name(keysym, &buffer, buffer.count)
        guard n > 0 else { return "?" }
        return String(decoding: buffer.prefix(Int(n)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private func modifierMask(_ name: String) -> UInt32 {
        let index = xkb_keymap_mod_get_index(keymap, name)
        return index == XKB_MOD_INVALID ? 0 : 1 << index
    }

    private func symbols(keycode: UInt32, level: UInt32) -> [xkb_keysym_t] {
        var syms: UnsafePointer<xkb_keysym_t>?
        let count = xkb_keymap_key_get_syms_by_level(keymap, keycode, 0, level, &syms)
        guard count > 0, let syms else { return [] }
        return Array(UnsafeBufferPointer(start: syms, count: Int(count)))
    }

    private func modifierMasks(keycode: UInt32, level: UInt32) -> [UInt32] {
        // 8 masks: more than any key type of the us keymap lists for one level.
        var masks = [xkb_mod_mask_t](repeating: 0, count: 8)
        let count = xkb_keymap_key_get_mods_for_level(keymap, keycode, 0, level, &masks, masks.count)
        return Array(masks.prefix(count))
    }
}

/// xkbcommon could not build the injector's keymap.
struct InjectorKeymapError: Error {
    var message: String
}
