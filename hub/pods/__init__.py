"""The pods: their serial links, the wire protocol, simulated pods and flashing."""
