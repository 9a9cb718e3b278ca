"""sensim.judge.progress: a text progress bar on stderr (no dependency).

Redrawn in place on a terminal; elsewhere (logs, ctest) one line per
about 10 % so that logs stay short.
"""

import sys
import time


class Progress:
    """Progress over `total` steps: update(n, **stats), then close()."""

    def __init__(self, total, label, stream=None, width=24):
        self.total = max(int(total), 1)
        self.label = label
        self.stream = stream if stream is not None else sys.stderr
        self.width = width
        self.done = 0
        self.t0 = time.monotonic()
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._last_decile = -1

    def update(self, n=1, **stats):
        self.done = min(self.done + n, self.total)
        frac = self.done / self.total
        decile = int(frac * 10)
        if not self.tty and decile == self._last_decile and self.done < self.total:
            return
        self._last_decile = decile
        fill = int(round(frac * self.width))
        rate = self.done / max(time.monotonic() - self.t0, 1e-9)
        extra = " ".join(f"{k} {v:.4g}" if isinstance(v, float) else f"{k} {v}" for k, v in stats.items())
        line = (f"{self.label} [{'#' * fill}{'.' * (self.width - fill)}] {self.done}/{self.total} "
                f"{rate:.1f}/s {extra}")
        if self.tty:
            self.stream.write("\r" + line)
        else:
            self.stream.write(line + "\n")
        self.stream.flush()

    def close(self):
        if self.tty:
            self.stream.write("\n")
            self.stream.flush()
