# Runs at power-up on the board. In simulation (unix port), from the .mpy
# build that hub/podsim.py makes:
#   micropython -X heapsize=80K -m main --port PATH [--ctl PATH]
import app

app.run()
