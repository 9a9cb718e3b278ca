/* python/src/module.c: the _sensim module: its exceptions, module-level
 * functions (names of payloads, filters, presets and kinds; pose algebra)
 * and the registration of every type. */
#define PY_ARRAY_UNIQUE_SYMBOL sensim_ARRAY_API
#include "module.h"
#include <numpy/arrayobject.h>
#include <stdarg.h>

PyObject *sp_Error, *sp_FilterError;

/* Index -status: the exception of each status (0 unused). */
enum { NSTATUS = 9 };
static PyObject *status_exc[NSTATUS];

static const struct {
  const char *name;
  PyObject **builtin; /* the builtin it also derives from, or NULL */
  const char *doc;
} exc_specs[NSTATUS] = {
    {NULL, NULL, NULL},
    {"InvalidArgument", &PyExc_ValueError, "An argument is out of its domain (SENSIM_EINVAL)."},
    {"OutOfMemory", &PyExc_MemoryError, "An allocation failed (SENSIM_ENOMEM)."},
    {"NotFound", &PyExc_LookupError, "Unknown name, or a missing file (SENSIM_ENOTFOUND)."},
    {"IOError", &PyExc_OSError, "Reading or writing a file failed (SENSIM_EIO)."},
    {"ParseError", &PyExc_ValueError, "A file or text is malformed (SENSIM_EPARSE)."},
    {"PayloadTypeError", &PyExc_TypeError, "Payload types do not match (SENSIM_ETYPE)."},
    {"StateError", NULL, "The call is not valid now (SENSIM_ESTATE): a closed world, time "
                         "going back, a body a sensor rides."},
    {"BackendError", NULL, "Embree, Assimp or the OS failed (SENSIM_EBACKEND)."},
};

static PyObject *raise_cls(PyObject *cls, sensim_status st, const char *msg);

static PyObject *raise_msg(sensim_status st, const char *msg) {
  int i = -(int)st;
  return raise_cls((i > 0 && i < NSTATUS) ? status_exc[i] : sp_Error, st, msg);
}

PyObject *sp_raise_filter_error(sensim_status st) { return raise_cls(sp_FilterError, st, sensim_last_error()); }

static PyObject *raise_cls(PyObject *cls, sensim_status st, const char *msg) {
  PyObject *exc = PyObject_CallFunction(cls, "s", msg && *msg ? msg : sensim_status_str(st));
  if (!exc) return NULL;
  PyObject *code = PyLong_FromLong((long)st);
  if (code) {
    PyObject_SetAttrString(exc, "status", code);
    Py_DECREF(code);
  }
  PyErr_SetObject(cls, exc);
  Py_DECREF(exc);
  return NULL;
}

PyObject *sp_raise(sensim_status st) { return raise_msg(st, sensim_last_error()); }

int sp_raise_int(sensim_status st) {
  sp_raise(st);
  return -1;
}

PyObject *sp_state_error(const char *fmt, ...) {
  char msg[512];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(msg, sizeof msg, fmt, ap);
  va_end(ap);
  return raise_msg(SENSIM_ESTATE, msg);
}

static int add_exceptions(PyObject *m) {
  sp_Error = PyErr_NewExceptionWithDoc(
      "sensim.Error",
      "Base of every sensim error: str(e) is sensim's message, e.status the C status code.",
      PyExc_RuntimeError, NULL);
  if (!sp_Error || PyModule_AddObjectRef(m, "Error", sp_Error) < 0) return -1;
  for (int i = 1; i < NSTATUS; i++) {
    char full[64];
    snprintf(full, sizeof full, "sensim.%s", exc_specs[i].name);
    PyObject *bases = exc_specs[i].builtin ? PyTuple_Pack(2, sp_Error, *exc_specs[i].builtin)
                                           : PyTuple_Pack(1, sp_Error);
    if (!bases) return -1;
    status_exc[i] = PyErr_NewExceptionWithDoc(full, exc_specs[i].doc, bases, NULL);
    Py_DECREF(bases);
    if (!status_exc[i] || PyModule_AddObjectRef(m, exc_specs[i].name, status_exc[i]) < 0) return -1;
  }
  sp_FilterError = PyErr_NewExceptionWithDoc(
      "sensim.FilterError",
      "A Python filter raised: its exception is this one's __cause__ (traceback kept). The frame "
      "was dropped (Sensor.frames_failed counts it); the sensor goes on capturing.",
      sp_Error, NULL);
  if (!sp_FilterError || PyModule_AddObjectRef(m, "FilterError", sp_FilterError) < 0) return -1;
  return 0;
}

/* ---- names ---------------------------------------------------------------- */

static PyObject *names_list(const char *const *names) {
  PyObject *l = PyList_New(0);
  for (size_t i = 0; l && names && names[i]; i++) {
    PyObject *s = PyUnicode_FromString(names[i]);
    if (!s || PyList_Append(l, s) < 0) {
      Py_XDECREF(s);
      Py_CLEAR(l);
      break;
    }
    Py_DECREF(s);
  }
  return l;
}

static PyObject *m_filter_names(PyObject *self, PyObject *noargs) {
  (void)self, (void)noargs;
  return names_list(sensim_filter_names());
}

static PyObject *m_lidar_presets(PyObject *self, PyObject *noargs) {
  (void)self, (void)noargs;
  return names_list(sensim_lidar_preset_names());
}

static PyObject *m_radar_presets(PyObject *self, PyObject *noargs) {
  (void)self, (void)noargs;
  return names_list(sensim_radar_preset_names());
}

static PyObject *m_sensor_kinds(PyObject *self, PyObject *noargs) {
  (void)self, (void)noargs;
  return names_list(sensim_sensor_kinds());
}

static PyObject *m_sensor_kind_keys(PyObject *self, PyObject *arg) {
  (void)self;
  const char *kind = PyUnicode_AsUTF8(arg);
  if (!kind) return NULL;
  const char *const *keys = sensim_sensor_kind_keys(kind);
  if (!keys) {
    char msg[160];
    snprintf(msg, sizeof msg, "unknown sensor kind '%.60s' (camera, lidar, gnss, imu, "
             "magnetometer, cone, radar)", kind);
    return raise_msg(SENSIM_ENOTFOUND, msg);
  }
  return names_list(keys);
}

static PyObject *m_payload_names(PyObject *self, PyObject *noargs) {
  (void)self, (void)noargs;
  PyObject *l = PyList_New(0);
  for (int t = SENSIM_PAYLOAD_NONE + 1; l && t < SENSIM_PAYLOAD_ANY; t++) {
    PyObject *s = PyUnicode_FromString(sensim_payload_name((sensim_payload)t));
    if (!s || PyList_Append(l, s) < 0) {
      Py_XDECREF(s);
      Py_CLEAR(l);
    } else {
      Py_DECREF(s);
    }
  }
  return l;
}

static PyObject *m_dtype(PyObject *self, PyObject *arg) {
  (void)self;
  sensim_payload t;
  if (sp_payload_from(arg, &t) < 0) return NULL;
  return sp_payload_dtype(t);
}

static PyObject *m_payload_info(PyObject *self, PyObject *arg) {
  (void)self;
  sensim_payload t;
  if (sp_payload_from(arg, &t) < 0) return NULL;
  static const char *const samples[] = {"none", "u8", "u16", "f32", "struct"};
  return Py_BuildValue("{s:O,s:i,s:s,s:n}", "image", sensim_payload_is_image(t) ? Py_True : Py_False,
                       "channels", sensim_payload_channels(t), "sample",
                       samples[sensim_payload_sample(t)], "element_size",
                       (Py_ssize_t)sensim_payload_elem_size(t));
}

/* ---- pose algebra ------------------------------------------------------------ */

static int quat_from(PyObject *o, sensim_quat *q) {
  double v[4];
  if (sp_doubles_from(o, v, 4, "quaternion") < 0) return -1;
  *q = (sensim_quat){v[0], v[1], v[2], v[3]};
  return 0;
}

static PyObject *quat_to(sensim_quat q) { return Py_BuildValue("(dddd)", q.w, q.x, q.y, q.z); }

static PyObject *m_quat_from_ypr(PyObject *self, PyObject *args) {
  (void)self;
  double y, p, r;
  if (!PyArg_ParseTuple(args, "ddd:quat_from_ypr", &y, &p, &r)) return NULL;
  return quat_to(sensim_quat_from_ypr(y, p, r));
}

static PyObject *m_quat_from_axis_angle(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *axis;
  double a, v[3];
  if (!PyArg_ParseTuple(args, "Od:quat_from_axis_angle", &axis, &a)) return NULL;
  if (sp_doubles_from(axis, v, 3, "axis") < 0) return NULL;
  return quat_to(sensim_quat_from_axis_angle((sensim_vec3){v[0], v[1], v[2]}, a));
}

static PyObject *m_quat_rotate(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *qo, *vo;
  sensim_quat q;
  double v[3];
  if (!PyArg_ParseTuple(args, "OO:quat_rotate", &qo, &vo)) return NULL;
  if (quat_from(qo, &q) < 0 || sp_doubles_from(vo, v, 3, "vector") < 0) return NULL;
  return sp_vec3_to(sensim_quat_rotate(q, (sensim_vec3){v[0], v[1], v[2]}));
}

static PyObject *m_quat_slerp(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *ao, *bo;
  sensim_quat a, b;
  double s;
  if (!PyArg_ParseTuple(args, "OOd:quat_slerp", &ao, &bo, &s)) return NULL;
  if (quat_from(ao, &a) < 0 || quat_from(bo, &b) < 0) return NULL;
  return quat_to(sensim_quat_slerp(a, b, s));
}

static PyObject *m_pose_compose(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *ao, *bo;
  sensim_pose a, b;
  if (!PyArg_ParseTuple(args, "OO:pose_compose", &ao, &bo)) return NULL;
  if (sp_pose_from(ao, &a, "ab") < 0 || sp_pose_from(bo, &b, "bc") < 0) return NULL;
  sensim_pose c = sensim_pose_compose(a, b);
  return sp_pose_to(&c);
}

static PyObject *m_pose_apply(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *po, *vo;
  sensim_pose p;
  double v[3];
  if (!PyArg_ParseTuple(args, "OO:pose_apply", &po, &vo)) return NULL;
  if (sp_pose_from(po, &p, "pose") < 0 || sp_doubles_from(vo, v, 3, "point") < 0) return NULL;
  return sp_vec3_to(sensim_pose_apply(p, (sensim_vec3){v[0], v[1], v[2]}));
}

static PyObject *m_status_str(PyObject *self, PyObject *arg) {
  (void)self;
  long v = PyLong_AsLong(arg);
  if (v == -1 && PyErr_Occurred()) return NULL;
  return PyUnicode_FromString(sensim_status_str((sensim_status)v));
}

static PyObject *m_suggest(PyObject *self, PyObject *args) {
  (void)self;
  const char *word;
  PyObject *seq;
  if (!PyArg_ParseTuple(args, "sO:suggest", &word, &seq)) return NULL;
  PyObject *fast = PySequence_Fast(seq, "suggest: names must be a sequence of str");
  if (!fast) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  const char **names = PyMem_Calloc((size_t)n + 1, sizeof *names);
  PyObject *r = NULL;
  if (!names) {
    PyErr_NoMemory();
    goto done;
  }
  for (Py_ssize_t i = 0; i < n; i++)
    if (!(names[i] = PyUnicode_AsUTF8(PySequence_Fast_GET_ITEM(fast, i)))) goto done;
  const char *best = sensim_suggest(word, names);
  r = best ? PyUnicode_FromString(best) : Py_NewRef(Py_None);
done:
  PyMem_Free(names);
  Py_DECREF(fast);
  return r;
}

static PyMethodDef methods[] = {
    {"filter_names", m_filter_names, METH_NOARGS, "filter_names($module, /)\n--\n\n"
     "Names of the built-in filters."},
    {"lidar_presets", m_lidar_presets, METH_NOARGS, "lidar_presets($module, /)\n--\n\n"
     "Names of the lidar presets (datasheet tables)."},
    {"radar_presets", m_radar_presets, METH_NOARGS, "radar_presets($module, /)\n--\n\n"
     "Names of the radar presets (datasheet figures)."},
    {"sensor_kinds", m_sensor_kinds, METH_NOARGS, "sensor_kinds($module, /)\n--\n\n"
     "Names of the sensor kinds."},
    {"sensor_kind_keys", m_sensor_kind_keys, METH_O,
     "sensor_kind_keys($module, kind, /)\n--\n\n"
     "sensor_kind_keys(kind) -> the kind's own parameter keys (docs/scenario.md)."},
    {"payload_names", m_payload_names, METH_NOARGS, "payload_names($module, /)\n--\n\n"
     "Names of the payload types."},
    {"payload_info", m_payload_info, METH_O,
     "payload_info($module, type, /)\n--\n\n"
     "payload_info(type) -> dict(image, channels, sample, element_size)."},
    {"dtype", m_dtype, METH_O,
     "dtype($module, type, /)\n--\n\n"
     "dtype(type) -> the NumPy dtype of a payload's samples (images: one channel of one pixel) or "
     "records (points, fixes, ...: one record)."},
    {"quat_from_ypr", m_quat_from_ypr, METH_VARARGS,
     "quat_from_ypr($module, yaw, pitch, roll, /)\n--\n\n"
     "quat_from_ypr(yaw, pitch, roll) -> (w, x, y, z): intrinsic Z-Y'-X'' angles, rad."},
    {"quat_from_axis_angle", m_quat_from_axis_angle, METH_VARARGS,
     "quat_from_axis_angle($module, axis, angle, /)\n--\n\n"
     "quat_from_axis_angle(axis, angle) -> (w, x, y, z); angle in rad."},
    {"quat_rotate", m_quat_rotate, METH_VARARGS, "quat_rotate($module, q, v, /)\n--\n\n"
     "quat_rotate(q, v) -> v rotated by unit q."},
    {"quat_slerp", m_quat_slerp, METH_VARARGS, "quat_slerp($module, a, b, s, /)\n--\n\n"
     "quat_slerp(a, b, s) -> shorter-arc slerp, s in [0, 1]."},
    {"pose_compose", m_pose_compose, METH_VARARGS,
     "pose_compose($module, ab, bc, /)\n--\n\n"
     "pose_compose(ab, bc) -> the pose of C in A given B in A and C in B."},
    {"pose_apply", m_pose_apply, METH_VARARGS,
     "pose_apply($module, pose, p, /)\n--\n\n"
     "pose_apply(pose, p) -> p mapped from the pose's frame into its parent frame."},
    {"status_str", m_status_str, METH_O, "status_str($module, code, /)\n--\n\n"
     "status_str(code) -> the name of a status code."},
    {"suggest", m_suggest, METH_VARARGS,
     "suggest($module, word, names, /)\n--\n\n"
     "suggest(word, names) -> the closest name (edit distance), or None."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef moduledef = {
    PyModuleDef_HEAD_INIT, "_sensim",
    "sensim's C extension; import the package `sensim` instead.", -1, methods,
    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__sensim(void) {
  import_array();
  PyObject *m = PyModule_Create(&moduledef);
  if (!m) return NULL;
  if (add_exceptions(m) < 0 || sp_convert_init(m) < 0 || sp_frame_init(m) < 0 ||
      sp_world_init(m) < 0 || sp_many_init(m) < 0 || sp_body_init(m) < 0 || sp_sensor_init(m) < 0 ||
      sp_filter_init(m) < 0 || sp_scenario_init(m) < 0 || sp_io_init(m) < 0 ||
      sp_tools_init(m) < 0 || sp_record_init(m) < 0) {
    Py_DECREF(m);
    return NULL;
  }
  return m;
}
