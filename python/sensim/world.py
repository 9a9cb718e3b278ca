"""sensim.World: the C World with one creation method per sensor kind."""

import atexit
import inspect
import weakref

from . import _sensim
from . import sensors as _sensors

_live = weakref.WeakSet()


@_sensors.install
class World(_sensim.World):
    __doc__ = _sensim.World.__doc__ + """

    Sensors: World.camera(...), lidar(...), gnss(...), imu(...),
    magnetometer(...), cone(...), radar(...) (keyword arguments documented on each), or
    add_sensor(kind, ...). Use it as a context manager, or call close(), to
    free it deterministically; worlds still open when the interpreter exits
    are closed then."""

    __slots__ = ()
    __signature__ = inspect.signature(_sensim.World)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        _live.add(self)

    def __repr__(self):
        if self.closed:
            return "<sensim.World (closed)>"
        return "<sensim.World t=%g, %d sensors>" % (self.time, len(self.sensors))


_sensim._register_world_class(World)


@atexit.register
def _close_all():
    # Python filters and callbacks need the interpreter; close the worlds
    # that run them while it is still whole.
    for w in list(_live):
        try:
            w.close()
        except _sensim.Error:
            pass
