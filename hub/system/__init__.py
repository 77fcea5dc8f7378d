"""Running the hub as a program and a service: its log, its configuration file and (for
systemd) its readiness and watchdog."""
