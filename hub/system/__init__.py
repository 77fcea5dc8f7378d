"""Running the hub as a program and a service: its log, its configuration file and (for
systemd, sdnotify.py and watchdog.py) its readiness and watchdog."""
