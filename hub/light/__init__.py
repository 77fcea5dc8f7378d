"""The table status light (a NeoPixel ring on the hub)."""
