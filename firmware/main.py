# Runs at power-up on the board. In simulation (unix port), from the .mpy
# build that hub/pods/sim.py makes:
#   micropython -X heapsize=80K -m main --port PATH [--ctl PATH]
import app

app.run()
