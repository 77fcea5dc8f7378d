# The one place the firmware reads time from: tests swap these for a fake
# clock (clock.ms = fake), so modules call clock.ms(), never ticks_ms directly.
import time

ms = time.ticks_ms
diff = time.ticks_diff
add = time.ticks_add
sleep_ms = time.sleep_ms
