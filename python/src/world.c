/* python/src/world.c: World, and what is made in it: meshes, textures,
 * lights and bodies (their types are in body.c). */
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL sensim_ARRAY_API
#include "module.h"
#include <numpy/arrayobject.h>
#include <math.h>
#include <string.h>

PyTypeObject *sp_world_class = &sp_WorldType;

int sp_world_check(sp_world *w) {
  if (!w->world) {
    sp_state_error("the world is closed");
    return -1;
  }
  if (w->busy && w->busy_thread != PyThread_get_thread_ident()) {
    sp_state_error("the world is busy in a call on another thread (one thread at a time calls "
                   "into a world; Python filters may not call into their world)");
    return -1;
  }
  return 0;
}

int sp_world_begin(sp_world *w, const char *what) {
  if (sp_world_check(w) < 0) return -1;
  if (w->busy) {
    sp_state_error("%s: not allowed inside a frame callback of this world", what);
    return -1;
  }
  w->busy = 1;
  w->busy_thread = PyThread_get_thread_ident();
  return 0;
}

void sp_world_end(sp_world *w) { w->busy = 0; }

int sp_world_take_pending(sp_world *w) {
  if (!w->pending) return 0;
  PyObject *exc = w->pending;
  w->pending = NULL;
  /* Restored with its own traceback (the callback's frames), which
   * PyErr_SetObject would drop. */
  PyErr_Restore(Py_NewRef(Py_TYPE(exc)), exc, PyException_GetTraceback(exc));
  return -1;
}

static PyObject *world_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  (void)args, (void)kw;
  sp_world *self = (sp_world *)type->tp_alloc(type, 0);
  if (!self) return NULL;
  self->sensors = PyList_New(0);
  self->filter_errors = PyList_New(0);
  if (!self->sensors || !self->filter_errors) {
    Py_DECREF(self);
    return NULL;
  }
  return (PyObject *)self;
}

PyObject *sp_world_wrap(sensim_world *world, PyObject *owner) {
  sp_world *self = (sp_world *)world_new(sp_world_class, NULL, NULL);
  if (!self) return NULL;
  self->world = world;
  self->owner = Py_NewRef(owner);
  if (sp_world_sync_sensors(self) < 0) {
    Py_DECREF(self);
    return NULL;
  }
  return (PyObject *)self;
}

/* A weather from a mapping of the scenario's "weather" keys (docs/weather.md):
 * fog_visibility (m), rain_rate (mm/h), snow_rate (mm/h of water); keys left
 * out are 0 (none of it). Ranges are the library's (sensim_world_create,
 * sensim_world_set_weather). -1 with an exception set. */
static int weather_from(PyObject *map, sensim_weather *wx) {
  static const char *const keys[] = {"fog_visibility", "rain_rate", "snow_rate"};
  double *vals[3] = {&wx->fog_visibility, &wx->rain_rate, &wx->snow_rate};
  memset(wx, 0, sizeof *wx);
  if (map == Py_None) return 0;
  if (!PyDict_Check(map)) {
    PyErr_Format(PyExc_TypeError, "weather must be a dict of fog_visibility, rain_rate, snow_rate, not %.80s",
                 Py_TYPE(map)->tp_name);
    return -1;
  }
  PyObject *key, *value;
  Py_ssize_t pos = 0;
  while (PyDict_Next(map, &pos, &key, &value)) {
    int k = 0;
    while (k < 3 && !(PyUnicode_Check(key) && PyUnicode_CompareWithASCIIString(key, keys[k]) == 0)) k++;
    if (k == 3) {
      PyErr_Format(PyExc_ValueError, "weather: unknown key %R (known: fog_visibility, rain_rate, snow_rate)", key);
      return -1;
    }
    double v = PyFloat_AsDouble(value);
    if (v == -1.0 && PyErr_Occurred()) return -1;
    *vals[k] = v;
  }
  return 0;
}

static int environment_set(sensim_world *w, PyObject *env);

static int world_init(sp_world *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"seed",    "threads", "origin",      "gravity", "background",
                           "ambient", "weather", "environment", NULL};
  sensim_world_params p;
  sensim_world_params_init(&p);
  uint64_t seed = p.seed;
  int threads = p.threads;
  PyObject *origin = Py_None, *bg = Py_None, *ambient = Py_None, *grav = Py_None, *weather = Py_None;
  PyObject *env = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|O&iOOOOOO:World", kwlist, sp_seed_converter, &seed, &threads, &origin,
                                   &grav, &bg, &ambient, &weather, &env))
    return -1;
  if (weather_from(weather, &p.weather) < 0) return -1;
  /* gravity: m/s^2, or "normal" / None for the WGS84 normal gravity at the
   * origin (world.h, SENSIM_GRAVITY_NORMAL). */
  double gravity = p.gravity;
  if (PyUnicode_Check(grav)) {
    if (PyUnicode_CompareWithASCIIString(grav, "normal") != 0) {
      PyErr_SetString(PyExc_ValueError, "gravity must be a number (m/s^2) or \"normal\"");
      return -1;
    }
  } else if (grav != Py_None) {
    gravity = PyFloat_AsDouble(grav);
    if (gravity == -1.0 && PyErr_Occurred()) return -1;
    if (!(gravity >= 0.0)) {
      PyErr_Format(PyExc_ValueError, "gravity = %R must be >= 0 (m/s^2) or \"normal\"", grav);
      return -1;
    }
  }
  if (self->world) {
    PyErr_SetString(PyExc_RuntimeError, "World.__init__ called twice");
    return -1;
  }
  double o[3] = {p.origin_lat, p.origin_lon, p.origin_height};
  if (sp_doubles_from(origin, o, 3, "origin (lat deg, lon deg, height m)") < 0 ||
      sp_floats_from(bg, p.background, 3, "background") < 0)
    return -1;
  if (ambient != Py_None) {
    double a = PyFloat_AsDouble(ambient);
    if (a == -1.0 && PyErr_Occurred()) return -1;
    p.ambient = (float)a;
  }
  p.seed = seed;
  p.threads = threads;
  p.origin_lat = o[0];
  p.origin_lon = o[1];
  p.origin_height = o[2];
  p.gravity = gravity;
  sensim_world *w = NULL;
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_world_create(&p, &w);
  Py_END_ALLOW_THREADS
  if (st) return sp_raise_int(st);
  if (environment_set(w, env) < 0) {
    sensim_world_destroy(w);
    return -1;
  }
  self->world = w;
  return 0;
}

static void world_destroy_now(sp_world *self) {
  sensim_world *w = self->world;
  self->world = NULL;
  sp_sink_forget(self->filter_errors, INFINITY);
  if (!w || self->owner) return; /* a scenario's world is the scenario's to destroy */
  Py_BEGIN_ALLOW_THREADS
  sensim_world_destroy(w);
  Py_END_ALLOW_THREADS
}

static int world_traverse(sp_world *self, visitproc visit, void *arg) {
  Py_VISIT(self->sensors);
  Py_VISIT(self->owner);
  Py_VISIT(self->pending);
  Py_VISIT(self->filter_errors);
  return 0;
}

static int world_clear(sp_world *self) {
  if (self->owner) self->world = NULL; /* the owner may go first */
  Py_CLEAR(self->sensors);
  Py_CLEAR(self->owner);
  Py_CLEAR(self->pending);
  Py_CLEAR(self->filter_errors);
  return 0;
}

static void world_dealloc(sp_world *self) {
  PyObject_GC_UnTrack(self);
  if (self->weakrefs) PyObject_ClearWeakRefs((PyObject *)self);
  world_destroy_now(self);
  world_clear(self);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *world_close(sp_world *self, PyObject *noargs) {
  (void)noargs;
  if (self->owner && self->world)
    return sp_state_error("this world belongs to a Scenario: close the Scenario instead");
  if (!self->world) Py_RETURN_NONE;
  if (sp_world_begin(self, "close") < 0) return NULL;
  world_destroy_now(self);
  sp_world_end(self);
  Py_RETURN_NONE;
}

static PyObject *world_enter(sp_world *self, PyObject *noargs) {
  (void)noargs;
  if (sp_world_check(self) < 0) return NULL;
  return Py_NewRef(self);
}

static PyObject *world_exit(sp_world *self, PyObject *args) {
  (void)args;
  if (!self->owner && self->world) {
    if (sp_world_begin(self, "close") < 0) return NULL;
    world_destroy_now(self);
    sp_world_end(self);
  }
  Py_RETURN_FALSE;
}

static PyObject *world_advance(sp_world *self, PyObject *arg) {
  double t = PyFloat_AsDouble(arg);
  if (t == -1.0 && PyErr_Occurred()) return NULL;
  if (sp_world_begin(self, "advance") < 0) return NULL;
  sensim_status st;
  sensim_world *w = self->world;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_world_advance(w, t);
  Py_END_ALLOW_THREADS
  sp_world_end(self);
  if (st) {
    Py_CLEAR(self->pending);
    return sp_raise_from(st, self->filter_errors, t);
  }
  sp_sink_forget(self->filter_errors, t);
  if (sp_world_take_pending(self) < 0) return NULL;
  Py_RETURN_NONE;
}

static PyObject *world_reset(sp_world *self, PyObject *noargs) {
  (void)noargs;
  if (sp_world_begin(self, "reset") < 0) return NULL;
  sensim_status st;
  sensim_world *w = self->world;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_world_reset(w);
  Py_END_ALLOW_THREADS
  sp_world_end(self);
  if (st) return sp_raise(st);
  sp_sink_forget(self->filter_errors, INFINITY); /* their frames are gone */
  Py_RETURN_NONE;
}

static PyObject *world_time(sp_world *self, void *closure) {
  (void)closure;
  if (sp_world_check(self) < 0) return NULL;
  return PyFloat_FromDouble(sensim_world_time(self->world));
}

static PyObject *world_closed(sp_world *self, void *closure) {
  (void)closure;
  return PyBool_FromLong(self->world == NULL);
}

static PyObject *world_params(sp_world *self, void *closure) {
  (void)closure;
  if (sp_world_check(self) < 0) return NULL;
  const sensim_world_params *p = sensim_world_params_get(self->world);
  return Py_BuildValue("{s:K,s:i,s:(ddd),s:d,s:(ddd),s:d,s:{s:d,s:d,s:d}}", "seed", (unsigned long long)p->seed,
                       "threads", p->threads, "origin", p->origin_lat, p->origin_lon,
                       p->origin_height, "gravity", p->gravity, "background",
                       (double)p->background[0], (double)p->background[1],
                       (double)p->background[2], "ambient", (double)p->ambient, "weather",
                       "fog_visibility", p->weather.fog_visibility, "rain_rate", p->weather.rain_rate,
                       "snow_rate", p->weather.snow_rate);
}

static PyObject *world_set_weather(sp_world *self, PyObject *args, PyObject *kw) {
  if (sp_world_check(self) < 0) return NULL;
  if (args && PyTuple_GET_SIZE(args) > 0) {
    PyErr_SetString(PyExc_TypeError, "set_weather takes keywords only: fog_visibility=, rain_rate=, snow_rate=");
    return NULL;
  }
  sensim_weather wx;
  if (weather_from(kw ? kw : Py_None, &wx) < 0) return NULL;
  sensim_status st = sensim_world_set_weather(self->world, &wx);
  if (st) return sp_raise(st);
  Py_RETURN_NONE;
}

/* environment: a dict (or JSON text) as the scenario's world.environment,
 * or None for none. */
static int environment_set(sensim_world *w, PyObject *env) {
  if (env == Py_None) {
    sensim_environment e;
    sensim_environment_init(&e);
    sensim_status st = sensim_world_set_environment(w, &e);
    return st ? sp_raise_int(st) : 0;
  }
  PyObject *holder = NULL;
  const char *json = NULL;
  if (sp_json_dumps(env, &holder, &json) < 0) return -1;
  sensim_status st = sensim_world_set_environment_json(w, json, "environment");
  Py_XDECREF(holder);
  return st ? sp_raise_int(st) : 0;
}

static PyObject *world_set_environment(sp_world *self, PyObject *env) {
  if (sp_world_check(self) < 0 || environment_set(self->world, env) < 0) return NULL;
  Py_RETURN_NONE;
}

static PyObject *world_sensors(sp_world *self, void *closure) {
  (void)closure;
  if (sp_world_check(self) < 0 || sp_world_sync_sensors(self) < 0) return NULL;
  return PyList_GetSlice(self->sensors, 0, PyList_GET_SIZE(self->sensors));
}

static PyObject *world_sensor(sp_world *self, PyObject *arg) {
  const char *name = PyUnicode_AsUTF8(arg);
  if (!name || sp_world_check(self) < 0 || sp_world_sync_sensors(self) < 0) return NULL;
  sensim_sensor *s = sensim_world_sensor_by_name(self->world, name);
  if (!s) {
    size_t n = sensim_world_sensor_count(self->world);
    const char *names[65];
    size_t k = 0;
    for (size_t i = 0; i < n && k < 64; i++) names[k++] = sensim_sensor_name(sensim_world_sensor(self->world, i));
    names[k] = NULL;
    char hint[96];
    sensim_error_set(SENSIM_ENOTFOUND, "no sensor named '%s'%s", name,
                     sp_hint(hint, sizeof hint, name, names));
    return sp_raise(SENSIM_ENOTFOUND);
  }
  return Py_NewRef(PyList_GET_ITEM(self->sensors, sensim_sensor_id(s)));
}

/* ---- meshes and textures ------------------------------------------------------ */

/* The shape of an array as "(5, 4)", for messages. */
static void shape_text(PyArrayObject *a, char *buf, size_t size) {
  size_t k = (size_t)snprintf(buf, size, "(");
  for (int d = 0; d < PyArray_NDIM(a) && k < size; d++)
    k += (size_t)snprintf(buf + k, size - k, "%s%zd", d ? ", " : "", (Py_ssize_t)PyArray_DIM(a, d));
  if (k < size) snprintf(buf + k, size - k, PyArray_NDIM(a) == 1 ? ",)" : ")");
}

/* A C-contiguous array of `type` with shape (n, cols) (cols 1: shape (n,))
 * from any real array-like; NULL with an error naming `what` otherwise:
 * TypeError for complex values (a cast would drop the imaginary part),
 * ValueError naming the shape it got. */
static PyArrayObject *table(PyObject *o, int type, int cols, const char *what) {
  PyArrayObject *in = (PyArrayObject *)PyArray_FROM_O(o);
  if (!in) return NULL;
  if (PyArray_ISCOMPLEX(in)) {
    PyErr_Format(PyExc_TypeError, "%s: complex values are refused (got dtype %S); pass the real part",
                 what, (PyObject *)PyArray_DESCR(in));
    Py_DECREF(in);
    return NULL;
  }
  int ok = cols == 1 ? PyArray_NDIM(in) == 1 : (PyArray_NDIM(in) == 2 && PyArray_DIM(in, 1) == cols);
  if (!ok) {
    char got[96];
    shape_text(in, got, sizeof got);
    PyErr_Format(PyExc_ValueError, "%s: expected shape (n%s), got %s", what,
                 cols == 1 ? ",": cols == 2 ? ", 2" : ", 3", got);
    Py_DECREF(in);
    return NULL;
  }
  PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY((PyObject *)in, type, 1, 2,
                                                      NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED |
                                                          NPY_ARRAY_FORCECAST);
  Py_DECREF(in);
  return a;
}

static PyObject *world_mesh(sp_world *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"vertices", "indices", "uvs", "tri_reflectance", "material", NULL};
  PyObject *vo, *io, *uo = Py_None, *ro = Py_None, *mo = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|OOO:mesh", kwlist, &vo, &io, &uo, &ro, &mo))
    return NULL;
  if (sp_world_check(self) < 0) return NULL;
  sensim_material mat;
  if (sp_material_from(self, mo, &mat) < 0) return NULL;
  PyArrayObject *v = NULL, *ix = NULL, *uv = NULL, *rf = NULL;
  PyObject *result = NULL;
  if (!(v = table(vo, NPY_FLOAT32, 3, "vertices"))) goto done;
  PyArrayObject *ix64 = (PyArrayObject *)PyArray_FROMANY(io, NPY_INT64, 1, 2,
                                                         NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED);
  if (!ix64) goto done;
  {
    npy_intp n = PyArray_SIZE(ix64);
    const int64_t *p = PyArray_DATA(ix64);
    for (npy_intp i = 0; i < n; i++)
      if (p[i] < 0 || p[i] > (int64_t)UINT32_MAX) {
        PyErr_Format(PyExc_ValueError, "indices: index %lld at %zd is out of range",
                     (long long)p[i], (Py_ssize_t)i);
        Py_DECREF(ix64);
        goto done;
      }
    ix = table((PyObject *)ix64, NPY_UINT32, 3, "indices");
    Py_DECREF(ix64);
    if (!ix) goto done;
  }
  if (uo != Py_None && !(uv = table(uo, NPY_FLOAT32, 2, "uvs"))) goto done;
  if (ro != Py_None && !(rf = table(ro, NPY_FLOAT32, 1, "tri_reflectance"))) goto done;
  sensim_mesh_desc d;
  sensim_mesh_desc_init(&d);
  d.vertices = PyArray_DATA(v);
  d.nvert = (size_t)PyArray_DIM(v, 0);
  d.indices = PyArray_DATA(ix);
  d.ntri = (size_t)PyArray_DIM(ix, 0);
  if (uv) {
    if (PyArray_DIM(uv, 0) != PyArray_DIM(v, 0)) {
      PyErr_Format(PyExc_ValueError, "uvs: %zd rows for %zd vertices", (Py_ssize_t)PyArray_DIM(uv, 0),
                   (Py_ssize_t)PyArray_DIM(v, 0));
      goto done;
    }
    d.uvs = PyArray_DATA(uv);
  }
  if (rf) {
    if (PyArray_DIM(rf, 0) != PyArray_DIM(ix, 0)) {
      PyErr_Format(PyExc_ValueError, "tri_reflectance: %zd values for %zd triangles",
                   (Py_ssize_t)PyArray_DIM(rf, 0), (Py_ssize_t)PyArray_DIM(ix, 0));
      goto done;
    }
    d.tri_reflectance = PyArray_DATA(rf);
  }
  d.material = &mat;
  sensim_mesh *mesh = NULL;
  sensim_status st;
  sensim_world *w = self->world;
  if (sp_world_begin(self, "mesh") < 0) goto done;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_mesh_create(w, &d, &mesh);
  Py_END_ALLOW_THREADS
  sp_world_end(self);
  result = st ? sp_raise(st)
              : sp_handle_new_info(&sp_MeshType, self, mesh, "from arrays, %zd vertices",
                                   (Py_ssize_t)d.nvert);
done:
  Py_XDECREF(v);
  Py_XDECREF(ix);
  Py_XDECREF(uv);
  Py_XDECREF(rf);
  return result;
}

static PyObject *world_load_mesh(sp_world *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "material", NULL};
  PyObject *path, *mo = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|O:load_mesh", kwlist, PyUnicode_FSConverter,
                                   &path, &mo))
    return NULL;
  PyObject *result = NULL;
  sensim_material mat;
  if (sp_world_check(self) == 0 && (mo == Py_None || sp_material_from(self, mo, &mat) == 0)) {
    sensim_mesh *mesh = NULL;
    sensim_status st;
    const char *p = PyBytes_AS_STRING(path);
    sensim_world *w = self->world;
    const sensim_material *mp = mo == Py_None ? NULL : &mat;
    if (sp_world_begin(self, "load_mesh") < 0) {
      Py_DECREF(path);
      return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    st = sensim_mesh_load(w, p, mp, &mesh);
    Py_END_ALLOW_THREADS
    sp_world_end(self);
    result = st ? sp_raise(st) : sp_handle_new_info(&sp_MeshType, self, mesh, "from '%s'", p);
  }
  Py_DECREF(path);
  return result;
}

static PyObject *world_add_tile(sp_world *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "bounds", "class_id", "material", NULL};
  PyObject *path, *bo, *mo = Py_None;
  int class_id = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O|iO:add_tile", kwlist, PyUnicode_FSConverter, &path, &bo,
                                   &class_id, &mo))
    return NULL;
  PyObject *result = NULL;
  double b[6];
  sensim_material mat;
  if (bo == Py_None) {
    PyErr_SetString(PyExc_TypeError, "add_tile: bounds must be 6 numbers (min x, y, z, max x, y, z), m");
  } else if (class_id < 0 || class_id > 65535) {
    PyErr_Format(PyExc_ValueError, "add_tile: class_id %d is outside [0, 65535]", class_id);
  } else if (sp_world_check(self) == 0 && sp_doubles_from(bo, b, 6, "add_tile bounds") == 0 &&
             (mo == Py_None || sp_material_from(self, mo, &mat) == 0)) {
    sensim_tile_params tp;
    sensim_tile_params_init(&tp);
    tp.path = PyBytes_AS_STRING(path);
    for (int k = 0; k < 3; k++) tp.bounds_min[k] = b[k], tp.bounds_max[k] = b[3 + k];
    tp.material = mo == Py_None ? NULL : &mat;
    tp.class_id = (uint16_t)class_id;
    sensim_tile *t = NULL;
    sensim_status st = sensim_tile_add(self->world, &tp, &t);
    result = st ? sp_raise(st) : sp_handle_new_info(&sp_TileType, self, t, "'%s'", tp.path);
  }
  Py_DECREF(path);
  return result;
}

static int name_index(const char *what, const char *v, const char *const *names) {
  for (int i = 0; names[i]; i++)
    if (strcmp(v, names[i]) == 0) return i;
  char list[160] = "", hint[96];
  for (int i = 0; names[i]; i++) {
    strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
    strncat(list, names[i], sizeof list - strlen(list) - 1);
  }
  sensim_error_set(SENSIM_EINVAL, "%s: unknown value '%s'%s (%s)", what, v,
                   sp_hint(hint, sizeof hint, v, names), list);
  sp_raise(SENSIM_EINVAL);
  return -1;
}

static PyObject *world_shape(sp_world *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"kind", "size", "segments", "material", NULL};
  static const char *const kinds[] = {"box", "sphere", "cylinder", "cone", "plane", NULL};
  const char *kind;
  PyObject *so, *mo = Py_None;
  int segments = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "sO|iO:shape", kwlist, &kind, &so, &segments, &mo))
    return NULL;
  if (sp_world_check(self) < 0) return NULL;
  int k = name_index("shape kind", kind, kinds);
  if (k < 0) return NULL;
  double size[3] = {0, 0, 0};
  if (PyNumber_Check(so)) {
    size[0] = PyFloat_AsDouble(so); /* a radius */
    if (size[0] == -1.0 && PyErr_Occurred()) return NULL;
  } else if (sp_doubles_from(so, size, 3, "size") < 0) {
    return NULL;
  }
  sensim_material mat;
  if (sp_material_from(self, mo, &mat) < 0) return NULL;
  sensim_shape sh = {(sensim_shape_kind)k, {size[0], size[1], size[2]}, segments};
  sensim_mesh *mesh = NULL;
  sensim_status st = sensim_mesh_create_shape(self->world, &sh, &mat, &mesh);
  return st ? sp_raise(st) : sp_handle_new_info(&sp_MeshType, self, mesh, "%s", kind);
}

static PyObject *world_texture(sp_world *self, PyObject *arg) {
  if (sp_world_check(self) < 0) return NULL;
  PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(arg, NPY_FLOAT32, 3, 3,
                                                      NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED |
                                                          NPY_ARRAY_FORCECAST);
  if (!a) return NULL;
  PyObject *r = NULL;
  if (PyArray_DIM(a, 2) != 3 || PyArray_DIM(a, 0) > UINT32_MAX || PyArray_DIM(a, 1) > UINT32_MAX) {
    PyErr_SetString(PyExc_ValueError, "texture: expected an (H, W, 3) array of linear RGB in [0, 1]");
  } else {
    sensim_texture *t = NULL;
    sensim_status st = sensim_texture_create(self->world, (uint32_t)PyArray_DIM(a, 1),
                                             (uint32_t)PyArray_DIM(a, 0), PyArray_DATA(a), &t);
    r = st ? sp_raise(st)
           : sp_handle_new_info(&sp_TextureType, self, t, "%zdx%zd", (Py_ssize_t)PyArray_DIM(a, 1),
                                (Py_ssize_t)PyArray_DIM(a, 0));
  }
  Py_DECREF(a);
  return r;
}

static PyObject *world_load_texture(sp_world *self, PyObject *arg) {
  PyObject *path;
  if (!PyUnicode_FSConverter(arg, &path)) return NULL;
  PyObject *r = NULL;
  if (sp_world_check(self) == 0) {
    sensim_texture *t = NULL;
    sensim_status st = sensim_texture_load_png(self->world, PyBytes_AS_STRING(path), &t);
    r = st ? sp_raise(st) : sp_handle_new_info(&sp_TextureType, self, t, "from '%s'",
                                                            PyBytes_AS_STRING(path));
  }
  Py_DECREF(path);
  return r;
}

/* ---- lights and bodies ------------------------------------------------------------ */

static PyObject *world_light(sp_world *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"kind",   "position", "direction", "color",  "intensity",
                           "spot_inner", "spot_outer", "cast_shadows", "edge_u", "edge_v",
                           "radius", "angular_diameter_deg", NULL};
  static const char *const kinds[] = {"point", "directional", "spot", "rect", "disc", NULL};
  sensim_light l;
  sensim_light_init(&l);
  const char *kind = "directional";
  PyObject *po = Py_None, *dO = Py_None, *co = Py_None, *eu = Py_None, *ev = Py_None;
  float intensity = l.intensity, inner = l.spot_inner, outer = l.spot_outer, radius = 0.0f, adiam = 0.0f;
  int shadows = l.cast_shadows;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|sOOOfffpOOff:light", kwlist, &kind, &po, &dO, &co, &intensity,
                                   &inner, &outer, &shadows, &eu, &ev, &radius, &adiam))
    return NULL;
  if (sp_world_check(self) < 0) return NULL;
  int k = name_index("light kind", kind, kinds);
  double p[3] = {l.position.x, l.position.y, l.position.z};
  double d[3] = {l.direction.x, l.direction.y, l.direction.z};
  double u[3] = {0, 0, 0}, v[3] = {0, 0, 0};
  if (k < 0 || sp_doubles_from(po, p, 3, "position") < 0 || sp_doubles_from(dO, d, 3, "direction") < 0 ||
      sp_floats_from(co, l.color, 3, "color") < 0 || sp_doubles_from(eu, u, 3, "edge_u") < 0 ||
      sp_doubles_from(ev, v, 3, "edge_v") < 0)
    return NULL;
  l.kind = (sensim_light_kind)k;
  l.position = (sensim_vec3){p[0], p[1], p[2]};
  l.direction = (sensim_vec3){d[0], d[1], d[2]};
  l.edge_u = (sensim_vec3){u[0], u[1], u[2]};
  l.edge_v = (sensim_vec3){v[0], v[1], v[2]};
  l.radius = radius;
  l.angular_diameter = (float)(adiam * M_PI / 180.0);
  l.intensity = intensity;
  l.spot_inner = inner;
  l.spot_outer = outer;
  l.cast_shadows = shadows;
  sensim_status st = sensim_light_add(self->world, &l);
  if (st) return sp_raise(st);
  Py_RETURN_NONE;
}

static PyObject *world_body(sp_world *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"mesh", "pose", "class_id", "instance_id", "static", NULL};
  PyObject *mo = Py_None, *po = Py_None;
  unsigned int cls = 0, inst = 0;
  int is_static = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|OOIIp:body", kwlist, &mo, &po, &cls, &inst, &is_static))
    return NULL;
  if (sp_world_check(self) < 0) return NULL;
  if (cls > UINT16_MAX) {
    PyErr_Format(PyExc_ValueError, "class_id: must be in 0 .. 65535 (got %u)", cls);
    return NULL;
  }
  sensim_body_params p;
  sensim_body_params_init(&p);
  p.mesh = sp_handle_ptr(mo, &sp_MeshType, self, 1, "mesh");
  if (!p.mesh && PyErr_Occurred()) return NULL;
  if (sp_pose_from(po, &p.pose, "pose") < 0) return NULL;
  p.class_id = (uint16_t)cls;
  p.instance_id = inst;
  p.is_static = is_static;
  sensim_body *b = NULL;
  sensim_status st = sensim_body_create(self->world, &p, &b);
  if (st) return sp_raise(st);
  return sp_handle_new_info(&sp_BodyType, self, b, "%s, class_id=%u%s", p.mesh ? "with mesh" : "no mesh",
                            cls, is_static ? ", static" : "");
}

static PyMethodDef world_methods[] = {
    {"close", (PyCFunction)world_close, METH_NOARGS,
     "close($self, /)\n--\n\n"
     "Finish every capture and free the world. Later calls on it, its bodies and sensors raise "
     "StateError; frames already taken stay valid."},
    {"__enter__", (PyCFunction)world_enter, METH_NOARGS, "__enter__($self, /)\n--\n\nEnter a with block: returns self."},
    {"__exit__", (PyCFunction)world_exit, METH_VARARGS, "__exit__($self, exc_type, exc_value, traceback, /)\n--\n\nLeave a with block: close() the world."},
    {"advance", (PyCFunction)world_advance, METH_O,
     "advance($self, t, /)\n--\n\n"
     "advance(t): move the clock to t (s): start every capture due and deliver every frame "
     "whose delivery time has come. Push the bodies' states for t first."},
    {"reset", (PyCFunction)world_reset, METH_NOARGS,
     "reset($self, /)\n--\n\n"
     "Start over at time zero (episodes): frames in flight are dropped, body tracks emptied, "
     "built-in filters re-created; the next episode's frames equal the first one's."},
    {"sensor", (PyCFunction)world_sensor, METH_O, "sensor($self, name, /)\n--\n\n"
     "sensor(name) -> the Sensor (NotFound otherwise)."},
    {"set_environment", (PyCFunction)world_set_environment, METH_O, "set_environment($self, env, /)\n--\n\n"
     "set_environment(env): the light from the sky for the path integrator (docs/rendering.md): a dict "
     "{'type': 'uniform', 'radiance': [r, g, b]} (W/(sr m^2)), {'type': 'sky', 'sun_elevation_deg': e, "
     "'sun_azimuth_deg': a, 'turbidity': t, 'sun': True}, or None for none (the background)."},
    {"set_weather", (PyCFunction)(void (*)(void))world_set_weather, METH_VARARGS | METH_KEYWORDS,
     "set_weather($self, /, *, fog_visibility=0.0, rain_rate=0.0, snow_rate=0.0)\n--\n\n"
     "set_weather(fog_visibility=0 m, rain_rate=0 mm/h, snow_rate=0 mm/h of water): the weather of "
     "every capture started by a later advance (keys left out: none of it; docs/weather.md)."},
    {"mesh", (PyCFunction)(void (*)(void))world_mesh, METH_VARARGS | METH_KEYWORDS,
     "mesh($self, vertices, indices, uvs=None, tri_reflectance=None, material=None)\n--\n\n"
     "mesh(vertices (N, 3) m, indices (M, 3) counter-clockwise, uvs=None (N, 2), "
     "tri_reflectance=None (M,), material=None) -> Mesh (the arrays are copied)."},
    {"load_mesh", (PyCFunction)(void (*)(void))world_load_mesh, METH_VARARGS | METH_KEYWORDS,
     "load_mesh($self, path, material=None)\n--\n\n"
     "load_mesh(path, material=None) -> Mesh from an OBJ, PLY, STL or glTF file."},
    {"add_tile", (PyCFunction)(void (*)(void))world_add_tile, METH_VARARGS | METH_KEYWORDS,
     "add_tile($self, path, bounds, class_id=0, material=None)\n--\n\n"
     "add_tile(path, bounds, class_id=0, material=None) -> Tile: a mesh file of a large static world and "
     "the box holding its vertices (min x, y, z, max x, y, z, m). Nothing is read now: advance() reads it "
     "the first time a sensor's reach meets the box and leaves it out while none does; a tile that fails "
     "to read raises from that advance, naming the file, and the world goes on without it."},
    {"shape", (PyCFunction)(void (*)(void))world_shape, METH_VARARGS | METH_KEYWORDS,
     "shape($self, kind, size, segments=0, material=None)\n--\n\n"
     "shape(kind, size, segments=0, material=None) -> Mesh. kind: 'box' (size: full extents "
     "x, y, z, m), 'sphere' (radius), 'cylinder'/'cone' (radius, _, height; standing on z = 0), "
     "'plane' (extents x, y)."},
    {"texture", (PyCFunction)world_texture, METH_O,
     "texture($self, rgb, /)\n--\n\n"
     "texture(rgb) -> Texture from an (H, W, 3) array of linear RGB in [0, 1] (copied)."},
    {"load_texture", (PyCFunction)world_load_texture, METH_O,
     "load_texture($self, path, /)\n--\n\n"
     "load_texture(path) -> Texture from an sRGB PNG."},
    {"light", (PyCFunction)(void (*)(void))world_light, METH_VARARGS | METH_KEYWORDS,
     "light($self, kind='directional', position=None, direction=None, color=None, intensity=1.0, spot_inner=0.0, spot_outer=0.0, cast_shadows=True, edge_u=None, edge_v=None, radius=0.0, angular_diameter_deg=0.0)\n--\n\n"
     "light(kind='directional'|'point'|'spot'|'rect'|'disc', position=(x, y, z) m, direction=, color=(r, g, b), "
     "intensity=, spot_inner= rad, spot_outer= rad, cast_shadows=True, edge_u=, edge_v= (rect, m), radius= m "
     "(disc; point/spot soft), angular_diameter_deg= (directional); docs/rendering.md)."},
    {"body", (PyCFunction)(void (*)(void))world_body, METH_VARARGS | METH_KEYWORDS,
     "body($self, mesh=None, pose=None, class_id=0, instance_id=0, static=False)\n--\n\n"
     "body(mesh=None, pose=None, class_id=0, instance_id=0 (auto), static=False) -> Body."},
    {"add_instances", (PyCFunction)(void (*)(void))sp_world_add_instances, METH_VARARGS | METH_KEYWORDS,
     "add_instances($self, mesh, poses, class_id=0, class_ids=None, instance_ids=None, albedo_jitter=0.0, reflectance_jitter=0.0, fast_bvh=False)\n--\n\n"
     "add_instances(mesh, poses (n, 7) x, y, z, qw, qx, qy, qz or (n, 4, 4) rigid transforms, class_id=0, "
     "class_ids=None (n,), instance_ids=None (n,) (auto), albedo_jitter=0.0, reflectance_jitter=0.0 "
     "(each in [0, 0.5]), fast_bvh=False) -> Body: one static body holding n placements of the mesh, "
     "at ~80 bytes each (docs/instancing.md)."},
    {"add_sensor", (PyCFunction)(void (*)(void))sp_world_add_sensor, METH_VARARGS | METH_KEYWORDS,
     "add_sensor($self, kind, /, *, name=None, body=None, mount=None, rate=10.0, phase=0.0, lag=0.0, window=None, filters=(), **keys)\n--\n\n"
     "add_sensor(kind, name=None (the kind's name, numbered from the second: camera_2), "
     "body=None, mount=None, rate=10.0 Hz, phase=0.0 s, lag=0.0 s, "
     "window=None (the kind's default) s, filters=(), **keys) -> Sensor. keys are the kind's "
     "scenario keys (docs/scenario.md), e.g. width=, hfov_deg=, preset='VLP-16'."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef world_getset[] = {
    {"time", (getter)world_time, NULL, "Simulation time, s (-inf before the first advance).", NULL},
    {"closed", (getter)world_closed, NULL, "True once the world is closed.", NULL},
    {"params", (getter)world_params, NULL, "The parameters the world was created with.", NULL},
    {"sensors", (getter)world_sensors, NULL, "The sensors in creation order.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject sp_WorldType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sensim._sensim.World",
    .tp_basicsize = sizeof(sp_world),
    .tp_dealloc = (destructor)world_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "World(seed=1, threads=2, origin=None, gravity='normal', background=None, ambient=None, weather=None, environment=None)\n--\n\n"
              "World(seed=1, threads=2, origin=(lat deg, lon deg, height m), gravity=\"normal\" "
              "(WGS84 normal gravity at the origin) or m/s^2, "
              "background=(r, g, b), ambient=0.1, weather={'fog_visibility': m, 'rain_rate': mm/h, "
              "'snow_rate': mm/h}, environment=None (set_environment)): a simulated world; it owns "
              "every mesh, body and "
              "sensor made in it. Same seed, same frames.",
    .tp_traverse = (traverseproc)world_traverse,
    .tp_clear = (inquiry)world_clear,
    .tp_weaklistoffset = offsetof(sp_world, weakrefs),
    .tp_methods = world_methods,
    .tp_getset = world_getset,
    .tp_init = (initproc)world_init,
    .tp_new = world_new,
};

static PyObject *m_register_world_class(PyObject *self, PyObject *cls) {
  (void)self;
  if (!PyType_Check(cls) || !PyType_IsSubtype((PyTypeObject *)cls, &sp_WorldType)) {
    PyErr_SetString(PyExc_TypeError, "_register_world_class: expected a subclass of World");
    return NULL;
  }
  Py_INCREF(cls);
  sp_world_class = (PyTypeObject *)cls;
  Py_RETURN_NONE;
}

static PyMethodDef world_module_methods[] = {
    {"_register_world_class", m_register_world_class, METH_O,
     "_register_world_class($module, cls, /)\n--\n\n"
     "The World subclass the extension makes scenario worlds of (sensim.World)."},
    {NULL, NULL, 0, NULL}};

int sp_world_init(PyObject *m) {
  if (PyType_Ready(&sp_WorldType) < 0) return -1;
  if (PyModule_AddObjectRef(m, "World", (PyObject *)&sp_WorldType) < 0) return -1;
  return PyModule_AddFunctions(m, world_module_methods);
}
