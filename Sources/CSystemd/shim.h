// Umbrella header for the CSystemd system library (flags from pkg-config libsystemd): the
// service manager's notification calls, sd_notify(3) and sd_watchdog_enabled(3).
#include <systemd/sd-daemon.h>
