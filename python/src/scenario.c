/* python/src/scenario.c: sensim.Scenario, a JSON scenario file (docs/scenario.md)
 * loaded into a world, run to its duration or stepped by hand.
 *
 * Ownership: the Scenario owns its sensim_scenario and so the world in it.
 * Its World object (made on first use of .world or .bodies) holds a strong
 * reference to the Scenario, so the world lives as long as any World,
 * Sensor or Body of it does; the Scenario holds only a weak reference back,
 * so the two make no cycle. close() closes that World object first (its
 * sensors and bodies then raise StateError) and destroys the scenario.
 *
 * The GIL is released while the library loads, runs and steps. A flag
 * (`busy`, read and written with the GIL held) refuses close(), run() and
 * step_to() from another thread while one of them works, so the scenario
 * is never freed under a running call. */
#include "module.h"

#include <stddef.h>

typedef struct sp_scenario {
  PyObject_HEAD
  sensim_scenario *scn; /* NULL before loading and once closed */
  PyObject *world_ref;  /* weak reference to the World object, or NULL */
  int busy;             /* 1 while a call works with the GIL released */
  PyObject *held;       /* the World object, held between sp_scenario_begin and _end */
} sp_scenario;

/* The World object if one is alive (new reference), else NULL (no error). */
static PyObject *live_world(sp_scenario *s) {
  if (!s->world_ref) return NULL;
  PyObject *w = PyWeakref_GetObject(s->world_ref);
  if (w && w != Py_None && Py_REFCNT(w) > 0) return Py_NewRef(w);
  PyErr_Clear();
  Py_CLEAR(s->world_ref);
  return NULL;
}

/* 0 when the scenario can be used now, else -1 with StateError. */
static int check_open(sp_scenario *s) {
  if (!s->scn) {
    sp_state_error("the scenario is closed (or was never loaded)");
    return -1;
  }
  if (s->busy) {
    sp_state_error("the scenario is running or stepping on another thread");
    return -1;
  }
  PyObject *w = live_world(s);
  int closed = w && ((sp_world *)w)->world == NULL;
  Py_XDECREF(w);
  if (closed) {
    sp_state_error("the scenario's world was closed");
    return -1;
  }
  return 0;
}

static sensim_scenario *sp_scenario_ptr(PyObject *o) {
  if (!o || !PyObject_TypeCheck(o, &sp_ScenarioType)) {
    PyErr_Format(PyExc_TypeError, "expected a sensim.Scenario, got %.100s",
                 o ? Py_TYPE(o)->tp_name : "NULL");
    return NULL;
  }
  sp_scenario *s = (sp_scenario *)o;
  return check_open(s) == 0 ? s->scn : NULL;
}

/* PyUnicode_FSConverter that also takes None (leaving *out NULL). */
static int fs_path_or_none(PyObject *o, void *out) {
  if (o == Py_None) {
    *(PyObject **)out = NULL;
    return 1;
  }
  return PyUnicode_FSConverter(o, out);
}

/* threads=None (as the file says) or an int in [0, INT_MAX]. */
static int threads_from(PyObject *o, sensim_scenario_overrides *ov) {
  ov->threads = -1;
  if (!o || o == Py_None) return 0;
  long n = PyLong_AsLong(o);
  if (n == -1 && PyErr_Occurred()) return -1;
  if (n < 0 || n > INT_MAX) {
    PyErr_Format(PyExc_ValueError, "threads must be >= 0 or None, got %ld", n);
    return -1;
  }
  ov->threads = (int)n;
  return 0;
}

static PyObject *scenario_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  (void)args;
  (void)kw;
  sp_scenario *s = (sp_scenario *)type->tp_alloc(type, 0);
  if (!s) return NULL;
  s->scn = NULL;
  s->world_ref = NULL;
  s->busy = 0;
  s->held = NULL;
  return (PyObject *)s;
}

static int scenario_init(PyObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "threads", NULL};
  sp_scenario *s = (sp_scenario *)self;
  PyObject *path = NULL, *threads = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|$O:Scenario", kwlist, PyUnicode_FSConverter,
                                   &path, &threads))
    return -1;
  sensim_scenario_overrides ov;
  if (threads_from(threads, &ov) != 0) {
    Py_DECREF(path);
    return -1;
  }
  if (s->scn || s->busy) {
    Py_DECREF(path);
    sp_state_error("Scenario.__init__: the scenario is already loaded");
    return -1;
  }
  const char *p = PyBytes_AS_STRING(path);
  sensim_scenario *scn = NULL;
  sensim_status st;
  s->busy = 1;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_scenario_load_ex(p, &ov, &scn);
  Py_END_ALLOW_THREADS
  s->busy = 0;
  Py_DECREF(path);
  if (st != SENSIM_OK) return sp_raise_int(st);
  s->scn = scn;
  return 0;
}

static PyObject *scenario_from_string(PyObject *cls, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"json", "base_dir", "source", "threads", NULL};
  PyObject *text = NULL, *base = NULL, *threads = Py_None;
  const char *source = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O&$zO:Scenario.from_string", kwlist, &text,
                                   fs_path_or_none, &base, &source, &threads))
    return NULL;
  sensim_scenario_overrides ov;
  PyObject *holder = NULL, *res = NULL;
  const char *json = NULL;
  if (threads_from(threads, &ov) != 0) goto done;
  if (PyUnicode_Check(text)) {
    json = PyUnicode_AsUTF8(text);
    if (!json) goto done;
  } else if (PyBytes_Check(text)) {
    json = PyBytes_AS_STRING(text);
  } else if (PyDict_Check(text)) {
    if (sp_json_dumps(text, &holder, &json) != 0) goto done;
  } else {
    PyErr_Format(PyExc_TypeError, "Scenario.from_string: json must be str, bytes or dict, not %.100s",
                 Py_TYPE(text)->tp_name);
    goto done;
  }
  {
    PyTypeObject *type = (PyTypeObject *)cls;
    sp_scenario *s = (sp_scenario *)scenario_new(type, NULL, NULL);
    if (!s) goto done;
    const char *bd = base ? PyBytes_AS_STRING(base) : NULL;
    sensim_scenario *scn = NULL;
    sensim_status st;
    Py_BEGIN_ALLOW_THREADS
    st = sensim_scenario_load_string_ex(json, source, bd, &ov, &scn);
    Py_END_ALLOW_THREADS
    if (st != SENSIM_OK) {
      Py_DECREF(s);
      sp_raise(st);
      goto done;
    }
    s->scn = scn;
    res = (PyObject *)s;
  }
done:
  Py_XDECREF(holder);
  Py_XDECREF(base);
  return res;
}

static void scenario_dealloc(PyObject *self) {
  sp_scenario *s = (sp_scenario *)self;
  /* No World object can be alive here: it would hold a reference to us. */
  Py_CLEAR(s->world_ref);
  sensim_scenario *scn = s->scn;
  s->scn = NULL;
  /* Captures still in flight may run Python filters, which need the GIL. */
  Py_BEGIN_ALLOW_THREADS
  sensim_scenario_destroy(scn);
  Py_END_ALLOW_THREADS
  Py_TYPE(self)->tp_free(self);
}

static PyObject *scenario_close(PyObject *self, PyObject *unused) {
  (void)unused;
  sp_scenario *s = (sp_scenario *)self;
  if (s->busy) return sp_state_error("Scenario.close: the scenario is running or stepping on another thread");
  if (!s->scn) Py_RETURN_NONE;
  PyObject *w = live_world(s);
  if (w) {
    /* Its sensors and bodies check the world before each call: from now
     * on they raise StateError. (World.close() refuses a world a Scenario
     * owns; this is the owner closing it.) */
    ((sp_world *)w)->world = NULL;
    Py_DECREF(w);
  }
  sensim_scenario *scn = s->scn;
  s->scn = NULL;
  Py_BEGIN_ALLOW_THREADS
  sensim_scenario_destroy(scn);
  Py_END_ALLOW_THREADS
  Py_RETURN_NONE;
}

static PyObject *scenario_enter(PyObject *self, PyObject *unused) {
  (void)unused;
  return Py_NewRef(self);
}

static PyObject *scenario_exit(PyObject *self, PyObject *args) {
  (void)args;
  PyObject *r = scenario_close(self, NULL);
  if (!r) return NULL;
  Py_DECREF(r);
  Py_RETURN_FALSE;
}

/* ---- running ------------------------------------------------------------ */

/* The pending exception, moved out of the thread state (NULL if none). */
typedef struct saved_exc {
#if PY_VERSION_HEX >= 0x030C0000
  PyObject *exc;
#else
  PyObject *type, *value, *tb;
#endif
} saved_exc;

static void exc_save(saved_exc *e) {
#if PY_VERSION_HEX >= 0x030C0000
  e->exc = PyErr_GetRaisedException();
#else
  PyErr_Fetch(&e->type, &e->value, &e->tb);
#endif
}

static int exc_saved(const saved_exc *e) {
#if PY_VERSION_HEX >= 0x030C0000
  return e->exc != NULL;
#else
  return e->type != NULL;
#endif
}

/* Raise the saved exception (consumes it). */
static void exc_restore(saved_exc *e) {
#if PY_VERSION_HEX >= 0x030C0000
  PyErr_SetRaisedException(e->exc);
  e->exc = NULL;
#else
  PyErr_Restore(e->type, e->value, e->tb);
  e->type = e->value = e->tb = NULL;
#endif
}

typedef struct progress_ctx {
  PyObject *fn;   /* the progress callable (borrowed from the call's arguments) */
  saved_exc exc;  /* the first exception it raised */
} progress_ctx;

/* Called by sensim_scenario_run without the GIL, on the calling thread.
 * The run cannot be stopped from here, so an exception of the callable is
 * kept, later calls are skipped, and run() raises it when the run ends. */
static void progress_cb(double t, double duration, void *user) {
  progress_ctx *c = user;
  PyGILState_STATE g = PyGILState_Ensure();
  if (!exc_saved(&c->exc)) {
    PyObject *r = PyObject_CallFunction(c->fn, "dd", t, duration);
    if (r)
      Py_DECREF(r);
    else
      exc_save(&c->exc);
  }
  PyGILState_Release(g);
}

/* After a call that advanced the world: an exception a frame callback or
 * user filter raised (kept by the World object) is raised now. */
static int take_pending(PyObject *w) {
  return w ? sp_world_take_pending((sp_world *)w) : 0;
}

/* The World object, made on first use (new reference). */
static PyObject *world_obj(sp_scenario *s) {
  if (!sp_scenario_ptr((PyObject *)s)) return NULL;
  PyObject *w = live_world(s);
  if (w) return w;
  w = sp_world_wrap(sensim_scenario_world(s->scn), (PyObject *)s);
  if (!w) return NULL;
  s->world_ref = PyWeakref_NewRef(w, NULL);
  if (!s->world_ref) Py_CLEAR(w);
  return w;
}

/* Start a call that works without the GIL: the scenario and its World
 * are marked busy (Scenario and World calls from other threads, and
 * re-entrant ones from frame callbacks, raise StateError meanwhile).
 * Returns the World object (new reference), NULL with an exception. */
static PyObject *begin_call(sp_scenario *s, const char *what) {
  PyObject *w = world_obj(s);
  if (!w) return NULL;
  if (sp_world_begin((sp_world *)w, what) < 0) {
    Py_DECREF(w);
    return NULL;
  }
  s->busy = 1;
  return w;
}

/* End it (consumes w): 0, or -1 with what a frame callback raised. */
static int end_call(sp_scenario *s, PyObject *w) {
  s->busy = 0;
  sp_world_end((sp_world *)w);
  int r = take_pending(w);
  Py_DECREF(w);
  return r;
}

sensim_scenario *sp_scenario_begin(PyObject *o) {
  sensim_scenario *scn = sp_scenario_ptr(o);
  if (!scn) return NULL;
  PyObject *w = begin_call((sp_scenario *)o, "noise calibration of a scenario");
  if (!w) return NULL;
  ((sp_scenario *)o)->held = w;
  return scn;
}

int sp_scenario_end(PyObject *o) {
  sp_scenario *s = (sp_scenario *)o;
  PyObject *w = s->held;
  s->held = NULL;
  return end_call(s, w);
}

static PyObject *summary_dict(sensim_scenario *scn, const sensim_run_summary *sum) {
  sensim_world *world = sensim_scenario_world(scn);
  PyObject *frames = PyDict_New();
  if (!frames) return NULL;
  for (size_t i = 0; i < sum->sensors && i < 64; i++) {
    sensim_sensor *sn = sensim_world_sensor(world, i);
    const char *name = sn ? sensim_sensor_name(sn) : NULL;
    PyObject *n = PyLong_FromUnsignedLongLong((unsigned long long)sum->frames[i]);
    if (!n || PyDict_SetItemString(frames, name ? name : "?", n) != 0) {
      Py_XDECREF(n);
      Py_DECREF(frames);
      return NULL;
    }
    Py_DECREF(n);
  }
  return Py_BuildValue("{s:d,s:d,s:n,s:N}", "sim_time", sum->sim_time, "wall_time",
                       sum->wall_time, "sensors", (Py_ssize_t)sum->sensors, "frames", frames);
}

static PyObject *scenario_run(PyObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"out_dir", "progress", "mcap", "lidar_time", NULL};
  sp_scenario *s = (sp_scenario *)self;
  PyObject *out = NULL, *progress = Py_None, *mcap = NULL;
  const char *lidar_time = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|O&O$O&z:run", kwlist, fs_path_or_none, &out, &progress,
                                   fs_path_or_none, &mcap, &lidar_time))
    return NULL;
  sensim_recorder_params rp;
  sensim_recorder_params_init(&rp);
  const char *bad = NULL;
  if (progress != Py_None && !PyCallable_Check(progress)) {
    PyErr_Format(PyExc_TypeError, "run: progress must be callable(t, duration) or None, not %.100s",
                 Py_TYPE(progress)->tp_name);
    bad = "";
  } else if (lidar_time && !mcap) {
    bad = "run: lidar_time sets the recording's point times: give mcap= too";
  } else if (lidar_time && strcmp(lidar_time, "start") != 0 && strcmp(lidar_time, "end") != 0) {
    PyErr_Format(PyExc_ValueError, "run: lidar_time '%s': expected 'start' (s from the scan's start) or "
                                   "'end' (s relative to the capture time)", lidar_time);
    bad = "";
  } else if (mcap && !PyBytes_GET_SIZE(mcap)) {
    bad = "run: mcap must name a file";
  }
  if (bad) {
    if (*bad) PyErr_SetString(PyExc_ValueError, bad);
    Py_XDECREF(out);
    Py_XDECREF(mcap);
    return NULL;
  }
  if (lidar_time && strcmp(lidar_time, "end") == 0) rp.lidar_time = SENSIM_LIDAR_TIME_FROM_END;
  if (check_open(s) != 0) {
    Py_XDECREF(out);
    Py_XDECREF(mcap);
    return NULL;
  }
  progress_ctx ctx;
  memset(&ctx, 0, sizeof ctx);
  ctx.fn = progress;
  const char *dir = out ? PyBytes_AS_STRING(out) : NULL;
  PyObject *w = begin_call(s, "Scenario.run");
  if (!w) {
    Py_XDECREF(out);
    Py_XDECREF(mcap);
    return NULL;
  }
  sensim_scenario_run_options ro;
  sensim_scenario_run_options_init(&ro);
  ro.out_dir = dir;
  ro.progress = progress != Py_None ? progress_cb : NULL;
  ro.user = &ctx;
  ro.mcap = mcap ? PyBytes_AS_STRING(mcap) : NULL;
  ro.mcap_params = &rp;
  sensim_run_summary sum;
  memset(&sum, 0, sizeof sum);
  sensim_status st;
  sensim_scenario *scn = s->scn;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_scenario_run_ex(scn, &ro, &sum);
  Py_END_ALLOW_THREADS
  Py_XDECREF(out);
  Py_XDECREF(mcap);
  int pending = end_call(s, w);
  if (st != SENSIM_OK) {
    /* The run's error is the one raised; a progress or frame callback's
     * exception is dropped. */
    if (pending) PyErr_Clear();
    if (exc_saved(&ctx.exc)) {
      exc_restore(&ctx.exc);
      PyErr_Clear();
    }
    return sp_raise(st);
  }
  if (exc_saved(&ctx.exc)) {
    if (pending) PyErr_Clear();
    exc_restore(&ctx.exc);
    return NULL;
  }
  return pending ? NULL : summary_dict(scn, &sum);
}

static PyObject *scenario_step_to(PyObject *self, PyObject *arg) {
  sp_scenario *s = (sp_scenario *)self;
  double t = PyFloat_AsDouble(arg);
  if (t == -1.0 && PyErr_Occurred()) return NULL;
  if (check_open(s) != 0) return NULL;
  PyObject *w = begin_call(s, "Scenario.step_to");
  if (!w) return NULL;
  sensim_scenario *scn = s->scn;
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_scenario_step_to(scn, t);
  Py_END_ALLOW_THREADS
  int pending = end_call(s, w);
  if (st != SENSIM_OK) {
    if (pending) PyErr_Clear();
    return sp_raise(st);
  }
  return pending ? NULL : Py_NewRef(Py_None);
}

/* ---- properties ----------------------------------------------------------- */

static PyObject *get_closed(PyObject *self, void *c) {
  (void)c;
  return PyBool_FromLong(((sp_scenario *)self)->scn == NULL);
}

static PyObject *get_duration(PyObject *self, void *c) {
  (void)c;
  sensim_scenario *scn = sp_scenario_ptr(self);
  return scn ? PyFloat_FromDouble(sensim_scenario_duration(scn)) : NULL;
}

static PyObject *get_step(PyObject *self, void *c) {
  (void)c;
  sensim_scenario *scn = sp_scenario_ptr(self);
  return scn ? PyFloat_FromDouble(sensim_scenario_step(scn)) : NULL;
}

static PyObject *get_warnings(PyObject *self, void *c) {
  (void)c;
  sensim_scenario *scn = sp_scenario_ptr(self);
  if (!scn) return NULL;
  size_t n = sensim_scenario_warning_count(scn);
  PyObject *list = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; list && i < n; i++) {
    const char *w = sensim_scenario_warning_get(scn, i);
    PyObject *str = PyUnicode_DecodeUTF8(w ? w : "", (Py_ssize_t)strlen(w ? w : ""), "replace");
    if (!str) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)i, str);
  }
  return list;
}

static PyObject *get_world(PyObject *self, void *c) {
  (void)c;
  return world_obj((sp_scenario *)self);
}

static PyObject *get_bodies(PyObject *self, void *c) {
  (void)c;
  sp_scenario *s = (sp_scenario *)self;
  PyObject *w = world_obj(s);
  if (!w) return NULL;
  size_t n = sensim_scenario_body_count(s->scn);
  PyObject *list = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; list && i < n; i++) {
    sensim_scenario_body_info info;
    sensim_status st = sensim_scenario_body_get(s->scn, i, &info);
    PyObject *d = NULL;
    if (st != SENSIM_OK) {
      sp_raise(st);
    } else {
      PyObject *body = sp_handle_new_info(&sp_BodyType, (sp_world *)w, info.body, "scenario's '%s'%s",
                                          info.name ? info.name : "", info.is_static ? ", static" : "");
      if (body)
        d = Py_BuildValue("{s:s,s:N,s:O,s:O}", "name", info.name ? info.name : "", "body", body,
                          "static", info.is_static ? Py_True : Py_False, "has_motion",
                          info.has_motion ? Py_True : Py_False);
    }
    if (!d) {
      Py_CLEAR(list);
      break;
    }
    PyList_SET_ITEM(list, (Py_ssize_t)i, d);
  }
  Py_DECREF(w);
  return list;
}

static PyObject *scenario_repr(PyObject *self) {
  sp_scenario *s = (sp_scenario *)self;
  if (!s->scn) return PyUnicode_FromString("<sensim.Scenario (closed)>");
  char buf[128];
  PyOS_snprintf(buf, sizeof buf, "<sensim.Scenario duration=%g s step=%g s bodies=%zu>",
                sensim_scenario_duration(s->scn), sensim_scenario_step(s->scn),
                sensim_scenario_body_count(s->scn));
  return PyUnicode_FromString(buf);
}

static PyMethodDef scenario_methods[] = {
    {"from_string", (PyCFunction)(void (*)(void))scenario_from_string,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "from_string($type, json, base_dir=None, *, source=None, threads=None)\n--\n\n"
     "Scenario.from_string(json, base_dir=None, *, source=None, threads=None)\n"
     "Load a scenario from JSON text (str or bytes, comments allowed) or a dict. Relative paths\n"
     "resolve against base_dir (None: the current folder); `source` names the text in messages."},
    {"run", (PyCFunction)(void (*)(void))scenario_run, METH_VARARGS | METH_KEYWORDS,
     "run($self, out_dir=None, progress=None, *, mcap=None, lidar_time=None)\n--\n\n"
     "run(out_dir=None, progress=None, *, mcap=None, lidar_time=None) -> dict\n"
     "Run from t = 0 to the duration, writing every sensor's frames (with poses.txt and a\n"
     "camera's camera_info.yaml) under out_dir/<sensor>/ (None: write nothing), as `sensim run`\n"
     "does. progress(t, duration) is called about once per simulated second. mcap: also record\n"
     "the run to this file as ROS 2 messages (docs/recording.md), lidar_time 'start' (default)\n"
     "or 'end' setting what a point's time counts from. Returns {sim_time, wall_time, sensors,\n"
     "frames: {name: count}} (frames of the first 64 sensors). A scenario runs once."},
    {"step_to", scenario_step_to, METH_O,
     "step_to($self, t, /)\n--\n\n"
     "step_to(t)\nPush every scripted body's state at t (s) and advance the world to t; nothing\n"
     "is polled or written (poll scenario.world's sensors yourself). t must not go back."},
    {"close", scenario_close, METH_NOARGS,
     "close($self, /)\n--\n\n"
     "close()\nDestroy the scenario and its world; its World, sensors and bodies raise\n"
     "StateError from then on. Frames already taken stay valid."},
    {"__enter__", scenario_enter, METH_NOARGS, "__enter__($self, /)\n--\n\nEnter a with block: returns self."},
    {"__exit__", scenario_exit, METH_VARARGS, "__exit__($self, exc_type, exc_value, traceback, /)\n--\n\nLeave a with block: close()."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef scenario_getset[] = {
    {"closed", get_closed, NULL, "True once closed.", NULL},
    {"duration", get_duration, NULL, "Simulated duration of a run, s.", NULL},
    {"step", get_step, NULL, "Host step of a run, s.", NULL},
    {"warnings", get_warnings, NULL,
     "Warnings of the load (list of str): what loads but probably is not meant.", NULL},
    {"world", get_world, NULL, "The scenario's World (owned by the scenario).", NULL},
    {"bodies", get_bodies, NULL,
     "The file's bodies in file order: list of dict(name, body, static, has_motion).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject sp_ScenarioType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sensim.Scenario",
    .tp_basicsize = sizeof(sp_scenario),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE,
    .tp_doc = "Scenario(path, *, threads=None)\n--\n\n"
              "Scenario(path, *, threads=None)\n"
              "A JSON scenario file (docs/scenario.md) loaded into a world. threads overrides the\n"
              "file's worker threads (output is identical for every count).",
    .tp_new = scenario_new,
    .tp_init = scenario_init,
    .tp_dealloc = scenario_dealloc,
    .tp_repr = scenario_repr,
    .tp_methods = scenario_methods,
    .tp_getset = scenario_getset,
};

int sp_scenario_init(PyObject *m) {
  if (PyType_Ready(&sp_ScenarioType) < 0) return -1;
  Py_INCREF(&sp_ScenarioType);
  if (PyModule_AddObject(m, "Scenario", (PyObject *)&sp_ScenarioType) < 0) {
    Py_DECREF(&sp_ScenarioType);
    return -1;
  }
  return 0;
}
