#!/usr/bin/python3
# Screenshots and input for the live tests under headless mutter (GNOME's compositor), through
# its org.gnome.Mutter.RemoteDesktop and ScreenCast D-Bus interfaces. mutter ends a session when
# the D-Bus connection that made it closes, so this process holds one connection for a whole
# test and takes commands on standard input, one per line, answering each with one line:
#
#   screenshot PATH           one frame of the monitor as a PNG (PipeWire, gst-launch-1.0)
#   motion X Y                the pointer to (X, Y) in monitor pixels
#   button CODE 1|0           a Linux button code (272: BTN_LEFT) pressed or released
#   key KEYSYM 1|0            an X keysym (0xff53: Right) pressed or released
#   sleep MS                  waits, so a command list can pace a drag
#
# Answers are "ok" or "error: <why>"; "ready" is printed once the session streams.
# Environment: DBUS_SESSION_BUS_ADDRESS (mutter's bus), XDG_RUNTIME_DIR (PipeWire's socket).
import subprocess
import sys
import time

from gi.repository import Gio, GLib

MONITOR = "Meta-0"  # the connector name of mutter's first --virtual-monitor
SCREENCAST = "org.gnome.Mutter.ScreenCast"
REMOTE_DESKTOP = "org.gnome.Mutter.RemoteDesktop"
NAME_TIMEOUT = 30  # seconds mutter may take to own its D-Bus names on a loaded machine
STREAM_TIMEOUT = 30  # seconds it may take to announce the screen cast's PipeWire stream
# Seconds one frame may take: gst-launch waits until WirePlumber, started just before mutter,
# links its stream, and a loaded machine is slow at all of it.
SHOT_TIMEOUT = 60


def answer(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


class Session:
    def __init__(self):
        self.bus = Gio.bus_get_sync(Gio.BusType.SESSION, None)
        # mutter makes its Wayland socket before it takes its D-Bus names: wait for both.
        for name in (REMOTE_DESKTOP, SCREENCAST):
            self.await_owner(name, NAME_TIMEOUT)
        self.rd_session = self.call(REMOTE_DESKTOP, "/org/gnome/Mutter/RemoteDesktop", REMOTE_DESKTOP,
                                    "CreateSession", None, "(o)")[0]
        session_id = self.property(REMOTE_DESKTOP, self.rd_session, REMOTE_DESKTOP + ".Session", "SessionId")
        options = {"remote-desktop-session-id": GLib.Variant("s", session_id)}
        self.sc_session = self.call(SCREENCAST, "/org/gnome/Mutter/ScreenCast", SCREENCAST, "CreateSession",
                                    GLib.Variant("(a{sv})", (options,)), "(o)")[0]
        # Cursor mode 0: the cursor is not drawn into the frames, so screenshots show the windows only.
        stream_options = {"cursor-mode": GLib.Variant("u", 0)}
        self.stream = self.call(SCREENCAST, self.sc_session, SCREENCAST + ".Session", "RecordMonitor",
                                GLib.Variant("(sa{sv})", (MONITOR, stream_options)), "(o)")[0]
        self.node = None
        loop = GLib.MainLoop()

        def stream_added(_connection, _sender, _path, _interface, _signal, parameters):
            self.node = parameters.unpack()[0]
            loop.quit()

        self.bus.signal_subscribe(None, SCREENCAST + ".Stream", "PipeWireStreamAdded", self.stream, None,
                                  Gio.DBusSignalFlags.NONE, stream_added)
        self.call(REMOTE_DESKTOP, self.rd_session, REMOTE_DESKTOP + ".Session", "Start", None, None)
        GLib.timeout_add_seconds(STREAM_TIMEOUT, loop.quit)
        loop.run()
        if self.node is None:
            raise RuntimeError("mutter announced no PipeWire stream within %d s" % STREAM_TIMEOUT)

    def await_owner(self, name, timeout):
        deadline = time.monotonic() + timeout
        while not self.call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "NameHasOwner",
                            GLib.Variant("(s)", (name,)), "(b)")[0]:
            if time.monotonic() > deadline:
                raise RuntimeError("mutter did not take the D-Bus name %s within %d s" % (name, timeout))
            time.sleep(0.05)

    def call(self, name, path, interface, method, parameters, reply):
        result = self.bus.call_sync(name, path, interface, method, parameters,
                                    GLib.VariantType(reply) if reply else None, Gio.DBusCallFlags.NONE, 10000, None)
        return result.unpack() if result is not None else None

    def property(self, name, path, interface, key):
        value = self.call(name, path, "org.freedesktop.DBus.Properties", "Get",
                          GLib.Variant("(ss)", (interface, key)), "(v)")[0]
        return value

    def remote(self, method, parameters):
        self.call(REMOTE_DESKTOP, self.rd_session, REMOTE_DESKTOP + ".Session", method, parameters, None)

    def screenshot(self, path):
        # Frames are sent when the screen changes; a new link gets the latest one.
        result = subprocess.run(["gst-launch-1.0", "-q", "pipewiresrc", "path=%d" % self.node, "num-buffers=1", "!",
                                 "videoconvert", "!", "pngenc", "!", "filesink", "location=" + path],
                                capture_output=True, text=True, timeout=SHOT_TIMEOUT)
        if result.returncode != 0:
            raise RuntimeError("gst-launch-1.0 failed (%d): %s" % (result.returncode, result.stderr.strip()[-500:]))

    def run(self, words):
        command = words[0]
        if command == "screenshot" and len(words) == 2:
            self.screenshot(words[1])
        elif command == "motion" and len(words) == 3:
            self.remote("NotifyPointerMotionAbsolute",
                        GLib.Variant("(sdd)", (self.stream, float(words[1]), float(words[2]))))
        elif command == "button" and len(words) == 3:
            self.remote("NotifyPointerButton", GLib.Variant("(ib)", (int(words[1]), words[2] == "1")))
        elif command == "key" and len(words) == 3:
            self.remote("NotifyKeyboardKeysym", GLib.Variant("(ub)", (int(words[1], 0), words[2] == "1")))
        elif command == "sleep" and len(words) == 2:
            time.sleep(int(words[1]) / 1000)
        else:
            raise ValueError("unknown command: " + " ".join(words))


def main():
    try:
        session = Session()
    except Exception as error:  # noqa: BLE001 (every failure is reported the same way)
        answer("error: %s" % error)
        return 1
    answer("ready")
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        try:
            session.run(words)
            answer("ok")
        except Exception as error:  # noqa: BLE001
            answer("error: %s" % str(error).replace("\n", " "))
    return 0


if __name__ == "__main__":
    sys.exit(main())
