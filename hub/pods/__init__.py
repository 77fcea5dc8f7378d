"""The pods: serial links, the wire protocol, transports, simulated pods and flashing (docs/hub.md)."""
