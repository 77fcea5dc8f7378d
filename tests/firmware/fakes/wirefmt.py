# Payload layouts for the tests' side of the wire (docs/protocol.md). The pod
# itself packs/unpacks by position; these tables let tests name things.
FMT = {0x81: ">BHBBBB", 0x82: ">BBBBBBbHB", 0x83: ">BH", 0x84: "B", 0x85: ">Bbh", 0x86: "BB", 0x87: "BBB",
       0x88: "BB", 0x89: "B", 0x8A: "BBBB", 0x8B: "B", 0x8F: ">H", 0x00: ""}
POD_FMT = {1: ">BBBBHB8sBB", 2: "BB", 3: "BB", 4: "B", 5: ">Bh", 6: "", 7: "B", 8: "BBB", 9: "BBB", 0: ""}
NAMES = {0: "ping", 1: "hello", 2: "ready", 3: "answer", 4: "expired", 5: "adjust", 6: "claim", 7: "log",
         8: "ready_at", 9: "test"}
