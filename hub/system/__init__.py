"""The hub as a system service: systemd's readiness and watchdog notifications."""
