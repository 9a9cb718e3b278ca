"""sensim.World: the C World with one creation method per sensor kind."""

from __future__ import annotations

import atexit
import inspect
import weakref
from typing import TYPE_CHECKING, Any

from . import _sensim
from . import sensors as _sensors

_live: weakref.WeakSet[World] = weakref.WeakSet()


@_sensors.install
class World(_sensim.World):
    __doc__ = (_sensim.World.__doc__ or "") + """

    Sensors: World.camera(...), lidar(...), gnss(...), imu(...),
    magnetometer(...), cone(...), radar(...) (keyword arguments documented on each), or
    add_sensor(kind, ...). Use it as a context manager, or call close(), to
    free it deterministically; worlds still open when the interpreter exits
    are closed then."""

    __slots__ = ()
    __signature__ = inspect.signature(_sensim.World)

    if not TYPE_CHECKING:  # type checkers see _sensim.World's typed __init__
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)
            _live.add(self)

    if TYPE_CHECKING:
        # Made at import by sensors.install, one per kind, with every key of
        # the kind as a keyword (help(sensim.World.camera) lists them);
        # type checkers see the keywords as **keys.
        def camera(self, name: str | None = None, **keys: Any) -> _sensim.Sensor: ...
        def lidar(self, name: str | None = None, **keys: Any) -> _sensim.Sensor: ...
        def gnss(self, name: str | None = None, **keys: Any) -> _sensim.Sensor: ...
        def imu(self, name: str | None = None, **keys: Any) -> _sensim.Sensor: ...
        def magnetometer(self, name: str | None = None, **keys: Any) -> _sensim.Sensor: ...
        def cone(self, name: str | None = None, **keys: Any) -> _sensim.Sensor: ...
        def radar(self, name: str | None = None, **keys: Any) -> _sensim.Sensor: ...

    def __repr__(self) -> str:
        if self.closed:
            return "<sensim.World (closed)>"
        return "<sensim.World t=%g, %d sensors>" % (self.time, len(self.sensors))


_sensim._register_world_class(World)


@atexit.register
def _close_all() -> None:
    # Python filters and callbacks need the interpreter; close the worlds
    # that run them while it is still whole.
    for w in list(_live):
        try:
            w.close()
        except _sensim.Error:
            pass
