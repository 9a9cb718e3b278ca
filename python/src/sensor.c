/* python/src/sensor.c: Sensor: creation from keyword arguments (the kind's
 * scenario keys, through sensim_sensor_create_json), filters, polling
 * (zero-copy: each frame is taken from the library with sensim_sensor_take
 * and owned by its Frame object), frame callbacks and counters. */
#include "module.h"
#include <string.h>

sensim_sensor *sp_sensor_ptr(PyObject *o) {
  if (!PyObject_TypeCheck(o, &sp_SensorType)) {
    PyErr_Format(PyExc_TypeError, "expected a sensim.Sensor, got %.80s", Py_TYPE(o)->tp_name);
    return NULL;
  }
  sp_sensor *s = (sp_sensor *)o;
  if (!s->world) {
    sp_state_error("sensor %s: its world is closed", PyUnicode_AsUTF8(s->name));
    return NULL;
  }
  if (sp_world_check(s->world) < 0) return NULL;
  return s->sensor;
}

static PyObject *sensor_new_obj(sp_world *w, sensim_sensor *s) {
  sp_sensor *o = PyObject_GC_New(sp_sensor, &sp_SensorType);
  if (!o) return NULL;
  o->world = (sp_world *)Py_NewRef(w);
  o->sensor = s;
  o->callback = NULL;
  o->name = PyUnicode_FromString(sensim_sensor_name(s));
  if (!o->name) {
    Py_DECREF(o);
    return NULL;
  }
  PyObject_GC_Track(o);
  return (PyObject *)o;
}

int sp_world_sync_sensors(sp_world *w) {
  if (!w->world || !w->sensors) return 0;
  size_t n = sensim_world_sensor_count(w->world);
  for (size_t i = (size_t)PyList_GET_SIZE(w->sensors); i < n; i++) {
    PyObject *o = sensor_new_obj(w, sensim_world_sensor(w->world, i));
    if (!o || PyList_Append(w->sensors, o) < 0) {
      Py_XDECREF(o);
      return -1;
    }
    Py_DECREF(o);
  }
  return 0;
}

/* ---- filters ------------------------------------------------------------------------ */

/* Append one filter to a sensor's chain (s) or to a standalone chain (c):
 * a built-in by name with params (dict, JSON text or None), or a Python
 * callable taking `in` (default: what the chain gives so far). */
static int add_one(sp_world *w, sensim_sensor *s, sensim_filter_chain *c, PyObject *what, PyObject *params,
                   PyObject *in, PyObject *out, PyObject *name) {
  sensim_status st;
  if (PyUnicode_Check(what)) {
    const char *fname = PyUnicode_AsUTF8(what);
    PyObject *holder = NULL;
    const char *json = NULL;
    if (!fname || sp_json_dumps(params, &holder, &json) < 0) return -1;
    st = s ? sensim_sensor_add_filter(s, fname, json) : sensim_filter_chain_add(c, fname, json);
    Py_XDECREF(holder);
    return st ? sp_raise_int(st) : 0;
  }
  if (!PyCallable_Check(what)) {
    PyErr_Format(PyExc_TypeError, "add_filter: expected a filter name or a callable, got %.80s",
                 Py_TYPE(what)->tp_name);
    return -1;
  }
  if (params && params != Py_None) {
    PyErr_SetString(PyExc_TypeError, "add_filter: a Python filter takes no params (use a closure)");
    return -1;
  }
  if (in && in != Py_None) {
    Py_INCREF(in);
  } else {
    sensim_payload so_far = s ? sensim_sensor_output_type(s) : sensim_filter_chain_output(c);
    if (!(in = PyUnicode_FromString(sensim_payload_name(so_far)))) return -1;
  }
  sensim_filter_def def;
  void *user = NULL;
  int rc = sp_user_filter_make(what, in, out, name, w ? w->filter_errors : NULL, &def, &user);
  Py_DECREF(in);
  if (rc < 0) return -1;
  st = s ? sensim_sensor_add_user_filter(s, &def, user) : sensim_filter_chain_add_user(c, &def, user);
  if (st) {
    sp_user_filter_discard(user);
    return sp_raise_int(st);
  }
  return 0;
}

static PyObject *sensor_add_filter(sp_sensor *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"filter", "params", "input", "output", "name", NULL};
  PyObject *what, *params = Py_None, *in = Py_None, *out = Py_None, *name = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOOO:add_filter", kwlist, &what, &params, &in, &out,
                                   &name))
    return NULL;
  sensim_sensor *s = sp_sensor_ptr((PyObject *)self);
  if (!s || add_one(self->world, s, NULL, what, params, in, out, name) < 0) return NULL;
  Py_RETURN_NONE;
}

/* Each item of `filters` (a name, a (name, params) pair or a callable)
 * onto a sensor (s) or a standalone chain (c); an error names the item. */
static int add_filters(sp_world *w, sensim_sensor *s, sensim_filter_chain *c, PyObject *filters) {
  if (!filters || filters == Py_None) return 0;
  PyObject *fast = PySequence_Fast(filters, "filters must be a sequence");
  if (!fast) return -1;
  int rc = 0;
  for (Py_ssize_t i = 0; rc == 0 && i < PySequence_Fast_GET_SIZE(fast); i++) {
    PyObject *f = PySequence_Fast_GET_ITEM(fast, i);
    if (PyTuple_Check(f) && PyTuple_GET_SIZE(f) == 2)
      rc = add_one(w, s, c, PyTuple_GET_ITEM(f, 0), PyTuple_GET_ITEM(f, 1), NULL, NULL, NULL);
    else
      rc = add_one(w, s, c, f, NULL, NULL, NULL, NULL);
    if (rc < 0) {
      PyObject *type, *value, *tb;
      PyErr_Fetch(&type, &value, &tb);
      PyErr_NormalizeException(&type, &value, &tb);
      PyObject *msg = value ? PyObject_Str(value) : NULL;
      if (msg && PyErr_GivenExceptionMatches(type, sp_Error)) {
        sensim_error_set(SENSIM_EINVAL, "filters[%zd]: %s", i, PyUnicode_AsUTF8(msg));
        Py_DECREF(msg);
        PyObject *status = PyObject_GetAttrString(value, "status");
        long code = status ? PyLong_AsLong(status) : SENSIM_EINVAL;
        Py_XDECREF(status);
        PyErr_Clear();
        Py_XDECREF(type), Py_XDECREF(value), Py_XDECREF(tb);
        sp_raise((sensim_status)code);
      } else {
        Py_XDECREF(msg);
        PyErr_Restore(type, value, tb);
      }
    }
  }
  Py_DECREF(fast);
  return rc;
}

/* The filters checked on a standalone chain of the kind's raw payload,
 * so that a bad list refuses the sensor before it exists. A radar's raw
 * payload follows its output_mode key (radar.h). */
static int check_filters(const char *kind, PyObject *filters, PyObject *keys) {
  sensim_payload raw = sensim_sensor_kind_payload(kind);
  PyObject *mode = strcmp(kind, "radar") == 0 ? PyDict_GetItemString(keys, "output_mode") : NULL;
  const char *m = mode && PyUnicode_Check(mode) ? PyUnicode_AsUTF8(mode) : NULL;
  if (m && strcmp(m, "adc") == 0) raw = SENSIM_PAYLOAD_RADAR_CUBE;
  if (m && strcmp(m, "range_doppler") == 0) raw = SENSIM_PAYLOAD_RADAR_RD;
  if (!filters || filters == Py_None || raw == SENSIM_PAYLOAD_NONE) return 0;
  sensim_filter_chain *c = NULL;
  sensim_status st = sensim_filter_chain_create(raw, &c);
  if (st) return sp_raise_int(st);
  int rc = add_filters(NULL, NULL, c, filters);
  sensim_filter_chain_destroy(c);
  return rc;
}

/* ---- creation ----------------------------------------------------------------------- */

PyObject *sp_world_add_sensor(sp_world *w, PyObject *args, PyObject *kw) {
  static const char *const sched[] = {"name", "body", "mount", "rate", "phase", "lag", "window",
                                      "filters", NULL};
  const char *kind;
  if (!PyArg_ParseTuple(args, "s:add_sensor", &kind)) return NULL;
  if (sp_world_check(w) < 0) return NULL;
  sensim_sensor_params sp;
  sensim_sensor_params_init(&sp);
  PyObject *keys = PyDict_New(); /* the kind's own keys */
  if (!keys) return NULL;
  PyObject *k, *v, *filters = NULL, *name_obj = NULL, *result = NULL;
  Py_ssize_t pos = 0;
  while (kw && PyDict_Next(kw, &pos, &k, &v)) {
    const char *key = PyUnicode_AsUTF8(k);
    if (!key) goto done;
    int which = -1;
    for (int i = 0; sched[i]; i++)
      if (strcmp(key, sched[i]) == 0) which = i;
    if (which < 0) {
      if (v != Py_None && PyDict_SetItem(keys, k, v) < 0) goto done;
      continue;
    }
    double d;
    switch (which) {
      case 0:
        if (v == Py_None) break; /* the default */
        if (!PyUnicode_Check(v)) {
          PyErr_SetString(PyExc_TypeError, "name must be a str");
          goto done;
        }
        name_obj = v;
        break;
      case 1:
        sp.body = sp_handle_ptr(v, &sp_BodyType, w, 1, "body");
        if (!sp.body && PyErr_Occurred()) goto done;
        break;
      case 2:
        if (sp_pose_from(v, &sp.mount, "mount") < 0) goto done;
        break;
      case 7:
        filters = v;
        break;
      default:
        if (v == Py_None) break; /* the default */
        d = PyFloat_AsDouble(v);
        if (d == -1.0 && PyErr_Occurred()) goto done;
        if (which == 3) sp.rate = d;
        if (which == 4) sp.phase = d;
        if (which == 5) sp.lag = d;
        if (which == 6) sp.window = d;
    }
  }
  /* No name: the kind's, numbered from the second sensor of a kind on
   * (camera, camera_2, camera_3, ...), so that unnamed sensors never clash. */
  char auto_name[80];
  if (name_obj) {
    sp.name = PyUnicode_AsUTF8(name_obj);
  } else {
    snprintf(auto_name, sizeof auto_name, "%.60s", kind);
    for (int k = 2; sensim_world_sensor_by_name(w->world, auto_name); k++)
      snprintf(auto_name, sizeof auto_name, "%.60s_%d", kind, k);
    sp.name = auto_name;
  }
  if (check_filters(kind, filters, keys) < 0) goto done;
  PyObject *holder = NULL;
  const char *json = NULL;
  if (sp_json_dumps(keys, &holder, &json) < 0) goto done;
  sensim_sensor *s = NULL;
  sensim_status st = sensim_sensor_create_json(w->world, kind, &sp, json, &s);
  Py_XDECREF(holder);
  if (st) {
    sp_raise(st);
    goto done;
  }
  if (sp_world_sync_sensors(w) < 0) goto done;
  result = Py_NewRef(PyList_GET_ITEM(w->sensors, sensim_sensor_id(s)));
  if (add_filters(w, s, NULL, filters) < 0) Py_CLEAR(result);
done:
  Py_DECREF(keys);
  return result;
}

/* ---- polling ------------------------------------------------------------------------ */

static PyObject *take(sp_sensor *self, sensim_sensor *s) {
  sensim_frame f;
  int got = 0;
  sensim_status st = sensim_sensor_take(s, &f, &got);
  if (st) return sp_raise(st);
  if (!got) Py_RETURN_NONE;
  return sp_frame_adopt_taken(&f, self->name, (PyObject *)self->world, s);
}

static PyObject *sensor_poll(sp_sensor *self, PyObject *noargs) {
  (void)noargs;
  sensim_sensor *s = sp_sensor_ptr((PyObject *)self);
  return s ? take(self, s) : NULL;
}

static PyObject *sensor_poll_all(sp_sensor *self, PyObject *noargs) {
  (void)noargs;
  sensim_sensor *s = sp_sensor_ptr((PyObject *)self);
  if (!s) return NULL;
  PyObject *l = PyList_New(0);
  while (l) {
    PyObject *f = take(self, s);
    if (!f) Py_CLEAR(l);
    else if (f == Py_None) {
      Py_DECREF(f);
      break;
    } else if (PyList_Append(l, f) < 0) {
      Py_CLEAR(l);
    }
    Py_XDECREF(f);
  }
  return l;
}

static PyObject *sensor_latest(sp_sensor *self, PyObject *noargs) {
  (void)noargs;
  sensim_sensor *s = sp_sensor_ptr((PyObject *)self);
  if (!s) return NULL;
  PyObject *last = Py_NewRef(Py_None);
  for (;;) {
    PyObject *f = take(self, s);
    if (!f) {
      Py_DECREF(last);
      return NULL;
    }
    if (f == Py_None) {
      Py_DECREF(f);
      return last;
    }
    Py_DECREF(last);
    last = f;
  }
}

/* ---- callbacks ---------------------------------------------------------------------- */

/* Runs on the host thread inside sensim_world_advance, whose caller has
 * released the GIL. The frame is the library's until we return: the
 * callable gets a copy it may keep. An exception is kept on the world and
 * raised by advance(). */
static void frame_callback(sensim_sensor *sensor, const sensim_frame *frame, void *user) {
  (void)sensor;
  sp_sensor *self = user;
  PyGILState_STATE g = PyGILState_Ensure();
  sensim_frame copy;
  sensim_status st = sensim_frame_copy(frame, &copy);
  PyObject *r = NULL;
  if (st) {
    sp_raise(st);
  } else {
    PyObject *f = sp_frame_adopt(&copy, self->name);
    if (f) {
      r = self->callback ? PyObject_CallFunctionObjArgs(self->callback, (PyObject *)self, f, NULL)
                         : Py_NewRef(Py_None);
      Py_DECREF(f);
    }
  }
  if (!r) {
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (value && tb) PyException_SetTraceback(value, tb);
    if (self->world && !self->world->pending && value) self->world->pending = Py_NewRef(value);
    Py_XDECREF(type), Py_XDECREF(value), Py_XDECREF(tb);
  }
  Py_XDECREF(r);
  PyGILState_Release(g);
}

static PyObject *sensor_set_callback(sp_sensor *self, PyObject *fn) {
  sensim_sensor *s = sp_sensor_ptr((PyObject *)self);
  if (!s) return NULL;
  if (fn != Py_None && !PyCallable_Check(fn)) {
    PyErr_SetString(PyExc_TypeError, "set_callback: expected a callable fn(sensor, frame) or None");
    return NULL;
  }
  sensim_status st = sensim_sensor_set_callback(s, fn == Py_None ? NULL : frame_callback,
                                                fn == Py_None ? NULL : self);
  if (st) return sp_raise(st);
  Py_XSETREF(self->callback, fn == Py_None ? NULL : Py_NewRef(fn));
  Py_RETURN_NONE;
}

static PyObject *sensor_set_overrun(sp_sensor *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"max_inflight", "policy", NULL};
  int max = 0;
  const char *policy = "wait";
  if (!PyArg_ParseTupleAndKeywords(args, kw, "i|s:set_overrun", kwlist, &max, &policy)) return NULL;
  sensim_sensor *s = sp_sensor_ptr((PyObject *)self);
  if (!s) return NULL;
  sensim_overrun p;
  if (strcmp(policy, "wait") == 0) p = SENSIM_OVERRUN_WAIT;
  else if (strcmp(policy, "skip") == 0) p = SENSIM_OVERRUN_SKIP;
  else {
    sensim_error_set(SENSIM_EINVAL, "set_overrun: unknown policy '%s' (wait, skip)", policy);
    return sp_raise(SENSIM_EINVAL);
  }
  sensim_status st = sensim_sensor_set_overrun(s, max, p);
  if (st) return sp_raise(st);
  Py_RETURN_NONE;
}

/* ---- accessors ---------------------------------------------------------------------- */

static PyObject *sensor_name(sp_sensor *self, void *c) {
  (void)c;
  return Py_NewRef(self->name);
}

static PyObject *sensor_id(sp_sensor *self, void *c) {
  (void)c;
  sensim_sensor *s = sp_sensor_ptr((PyObject *)self);
  return s ? PyLong_FromLong(sensim_sensor_id(s)) : NULL;
}

static PyObject *sensor_kind(sp_sensor *self, void *c) {
  (void)c;
  sensim_sensor *s = sp_sensor_ptr((PyObject *)self);
  return s ? PyUnicode_FromString(sensim_sensor_kind_name(s)) : NULL;
}

static PyObject *sensor_output_type(sp_sensor *self, void *c) {
  (void)c;
  sensim_sensor *s = sp_sensor_ptr((PyObject *)self);
  return s ? PyUnicode_FromString(sensim_payload_name(sensim_sensor_output_type(s))) : NULL;
}

static PyObject *sensor_params(sp_sensor *self, void *c) {
  (void)c;
  sensim_sensor *s = sp_sensor_ptr((PyObject *)self);
  if (!s) return NULL;
  const sensim_sensor_params *p = sensim_sensor_params_get(s);
  PyObject *mount = sp_pose_to(&p->mount);
  if (!mount) return NULL;
  return Py_BuildValue("{s:s,s:N,s:d,s:d,s:d,s:d}", "name", p->name, "mount", mount, "rate", p->rate,
                       "phase", p->phase, "lag", p->lag, "window", p->window);
}

#define COUNTER(fname, call, conv)                                 \
  static PyObject *sensor_##fname(sp_sensor *self, void *c) {      \
    (void)c;                                                       \
    sensim_sensor *s = sp_sensor_ptr((PyObject *)self);            \
    return s ? conv(call(s)) : NULL;                               \
  }
COUNTER(captured, sensim_sensor_frames_captured, PyLong_FromUnsignedLongLong)
COUNTER(delivered, sensim_sensor_frames_delivered, PyLong_FromUnsignedLongLong)
COUNTER(skipped, sensim_sensor_frames_skipped, PyLong_FromUnsignedLongLong)
COUNTER(failed, sensim_sensor_frames_failed, PyLong_FromUnsignedLongLong)
COUNTER(queued, sensim_sensor_frames_queued, PyLong_FromSize_t)
COUNTER(unfinished, sensim_sensor_frames_unfinished, PyLong_FromLong)
#undef COUNTER

static PyObject *sensor_world(sp_sensor *self, void *c) {
  (void)c;
  return Py_NewRef(self->world ? (PyObject *)self->world : Py_None);
}

static PyObject *sensor_repr(sp_sensor *self) {
  const char *kind = self->world && self->world->world ? sensim_sensor_kind_name(self->sensor) : "closed";
  return PyUnicode_FromFormat("<sensim.Sensor %R (%s)>", self->name, kind);
}

static int sensor_traverse(sp_sensor *self, visitproc visit, void *arg) {
  Py_VISIT(self->world);
  Py_VISIT(self->callback);
  return 0;
}

static int sensor_clear(sp_sensor *self) {
  Py_CLEAR(self->world);
  Py_CLEAR(self->callback);
  return 0;
}

static void sensor_dealloc(sp_sensor *self) {
  PyObject_GC_UnTrack(self);
  sensor_clear(self);
  Py_XDECREF(self->name);
  PyObject_GC_Del(self);
}

static PyMethodDef sensor_methods[] = {
    {"add_filter", (PyCFunction)(void (*)(void))sensor_add_filter, METH_VARARGS | METH_KEYWORDS,
     "add_filter($self, filter, params=None, input=None, output=None, name=None)\n--\n\n"
     "add_filter(filter, params=None, input=None, output=None, name=None): append a built-in "
     "filter by name with its parameters as a dict (filter.h, docs/), or a Python callable "
     "fn(frame) that changes the frame in place (frame.data is writable; frame.alloc(type, w, h) "
     "changes the payload). input/output: payload names a callable takes and gives (default: "
     "what the chain gives so far, unchanged). Only before the sensor's first capture."},
    {"poll", (PyCFunction)sensor_poll, METH_NOARGS,
     "poll($self, /)\n--\n\n"
     "poll() -> the oldest delivered Frame not yet taken, or None. No copy: the Frame owns the "
     "frame's memory, and its arrays stay valid for as long as they exist."},
    {"poll_all", (PyCFunction)sensor_poll_all, METH_NOARGS, "poll_all($self, /)\n--\n\n"
     "poll_all() -> every delivered Frame, oldest first."},
    {"latest", (PyCFunction)sensor_latest, METH_NOARGS,
     "latest($self, /)\n--\n\n"
     "latest() -> the newest delivered Frame (dropping older ones), or None."},
    {"set_callback", (PyCFunction)sensor_set_callback, METH_O,
     "set_callback($self, fn, /)\n--\n\n"
     "set_callback(fn | None): call fn(sensor, frame) for each frame as it is delivered, inside "
     "World.advance, instead of queuing it for poll(). The frame is a copy the callable may keep; "
     "an exception it raises is raised by advance()."},
    {"set_overrun", (PyCFunction)(void (*)(void))sensor_set_overrun, METH_VARARGS | METH_KEYWORDS,
     "set_overrun($self, max_inflight, policy='wait')\n--\n\n"
     "set_overrun(max_inflight, policy='wait'|'skip'): bound the unfinished captures."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef sensor_getset[] = {
    {"name", (getter)sensor_name, NULL, "The sensor's name.", NULL},
    {"id", (getter)sensor_id, NULL, "Id (creation order in its world).", NULL},
    {"kind", (getter)sensor_kind, NULL, "'camera', 'lidar', 'gnss', 'imu', 'magnetometer', 'cone' or 'radar'.", NULL},
    {"output_type", (getter)sensor_output_type, NULL, "Payload type of its frames after the chain.", NULL},
    {"params", (getter)sensor_params, NULL, "Schedule: name, mount, rate Hz, phase s, lag s, window s.", NULL},
    {"frames_captured", (getter)sensor_captured, NULL, "Captures started.", NULL},
    {"frames_delivered", (getter)sensor_delivered, NULL, "Frames delivered.", NULL},
    {"frames_skipped", (getter)sensor_skipped, NULL, "Captures skipped (overrun 'skip').", NULL},
    {"frames_failed", (getter)sensor_failed, NULL,
     "Frames dropped because their generator or a filter failed (the advance reaching their "
     "delivery time raised; a Python filter's exception is the __cause__ of the FilterError).",
     NULL},
    {"frames_queued", (getter)sensor_queued, NULL, "Delivered frames waiting for poll().", NULL},
    {"frames_unfinished", (getter)sensor_unfinished, NULL, "Captures whose job has not finished.", NULL},
    {"world", (getter)sensor_world, NULL, "The World the sensor is in.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject sp_SensorType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sensim.Sensor",
    .tp_basicsize = sizeof(sp_sensor),
    .tp_dealloc = (destructor)sensor_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A sensor of a world (World.camera, lidar, gnss, imu, magnetometer, cone, radar, add_sensor).",
    .tp_traverse = (traverseproc)sensor_traverse,
    .tp_clear = (inquiry)sensor_clear,
    .tp_methods = sensor_methods,
    .tp_getset = sensor_getset,
    .tp_repr = (reprfunc)sensor_repr,
};

int sp_sensor_init(PyObject *m) {
  if (PyType_Ready(&sp_SensorType) < 0) return -1;
  return PyModule_AddObjectRef(m, "Sensor", (PyObject *)&sp_SensorType);
}
