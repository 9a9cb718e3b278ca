/* python/src/convert.c: Python values to and from sensim's small structs:
 * poses (and the Pose struct sequence), vectors, materials, JSON text. */
#include "module.h"
#include <math.h>
#include <string.h>

static PyTypeObject *pose_type;

static PyStructSequence_Field pose_fields[] = {
    {"pos", "origin of the frame in its parent frame, (x, y, z) m"},
    {"rot", "orientation in the parent frame, unit quaternion (w, x, y, z)"},
    {NULL, NULL}};
static PyStructSequence_Desc pose_desc = {
    "sensim.Pose",
    "Pose(pos, rot=(1.0, 0.0, 0.0, 0.0))\n--\n\n"
    "A pose: p_parent = rot * p_local + pos (Hamilton quaternions, active rotation).\n"
    "pos is (x, y, z) m, rot a unit quaternion (w, x, y, z). Pose(p) with one argument\n"
    "takes anything a pose argument takes: a Pose, (pos, rot), (x, y, z) or\n"
    "(x, y, z, qw, qx, qy, qz).",
    pose_fields, 2};

/* Pose(pos, rot=identity) or Pose(pose_like): the struct sequence's own
 * constructor takes one 2-sequence only; this one checks what it is given
 * as every pose argument is checked (sp_pose_from). */
static PyObject *pose_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"pos", "rot", NULL};
  PyObject *pos, *rot = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:Pose", kwlist, &pos, &rot)) return NULL;
  sensim_pose p;
  if (rot) {
    PyObject *pair = PyTuple_Pack(2, pos, rot);
    if (!pair) return NULL;
    int rc = sp_pose_from(pair, &p, "Pose");
    Py_DECREF(pair);
    if (rc < 0) return NULL;
  } else if (pos == Py_None) {
    PyErr_SetString(PyExc_TypeError, "Pose: pos must be (x, y, z), not None");
    return NULL;
  } else if (sp_pose_from(pos, &p, "Pose") < 0) {
    return NULL;
  }
  (void)type;
  return sp_pose_to(&p);
}

int sp_seed_converter(PyObject *o, void *out) {
  /* Python ints are unbounded; a seed is a uint64. Wrapping mod 2^64 would
   * make -1 and 2^64 - 1 (or 5 and 2^64 + 5) the same seed, so anything
   * outside [0, 2^64) is refused. Any int-like (operator.index) is taken;
   * floats are not (1e20 is not an exact integer). */
  PyObject *i = PyNumber_Index(o);
  if (!i) {
    PyErr_Clear();
    PyErr_Format(PyExc_TypeError, "seed must be an int in [0, 2**64), not %.80s", Py_TYPE(o)->tp_name);
    return 0;
  }
  /* OverflowError for a negative int and for one >= 2^64 alike. */
  unsigned long long v = PyLong_AsUnsignedLongLong(i);
  if (v == (unsigned long long)-1 && PyErr_Occurred()) {
    PyErr_Clear();
    PyErr_Format(PyExc_ValueError, "seed must be in [0, 2**64), got %S", i);
    Py_DECREF(i);
    return 0;
  }
  Py_DECREF(i);
  *(uint64_t *)out = (uint64_t)v;
  return 1;
}

int sp_doubles_from(PyObject *o, double *out, int n, const char *what) {
  if (o == Py_None) return 0;
  PyObject *fast = PySequence_Fast(o, "");
  if (!fast) {
    PyErr_Format(PyExc_TypeError, "%s: expected a sequence of %d numbers, got %.80s", what, n,
                 Py_TYPE(o)->tp_name);
    return -1;
  }
  int rc = 0;
  if (PySequence_Fast_GET_SIZE(fast) != n) {
    PyErr_Format(PyExc_ValueError, "%s: expected %d numbers, got %zd", what, n,
                 PySequence_Fast_GET_SIZE(fast));
    rc = -1;
  }
  for (int i = 0; rc == 0 && i < n; i++) {
    double v = PyFloat_AsDouble(PySequence_Fast_GET_ITEM(fast, i));
    if (v == -1.0 && PyErr_Occurred()) {
      PyErr_Clear();
      PyErr_Format(PyExc_TypeError, "%s[%d]: expected a number", what, i);
      rc = -1;
    } else if (!isfinite(v)) {
      char msg[160]; /* PyErr_Format has no %g */
      snprintf(msg, sizeof msg, "%s[%d]: must be finite (got %g)", what, i, v);
      PyErr_SetString(PyExc_ValueError, msg);
      rc = -1;
    } else {
      out[i] = v;
    }
  }
  Py_DECREF(fast);
  return rc;
}

int sp_floats_from(PyObject *o, float *out, int n, const char *what) {
  double v[8];
  if (n > 8 || sp_doubles_from(o, v, n, what) < 0) return -1;
  if (o != Py_None)
    for (int i = 0; i < n; i++) out[i] = (float)v[i];
  return 0;
}

PyObject *sp_vec3_to(sensim_vec3 v) { return Py_BuildValue("(ddd)", v.x, v.y, v.z); }

PyObject *sp_pose_to(const sensim_pose *p) {
  PyObject *r = PyStructSequence_New(pose_type);
  if (!r) return NULL;
  PyObject *pos = sp_vec3_to(p->pos);
  PyObject *rot = Py_BuildValue("(dddd)", p->rot.w, p->rot.x, p->rot.y, p->rot.z);
  if (!pos || !rot) {
    Py_XDECREF(pos);
    Py_XDECREF(rot);
    Py_DECREF(r);
    return NULL;
  }
  PyStructSequence_SetItem(r, 0, pos);
  PyStructSequence_SetItem(r, 1, rot);
  return r;
}

int sp_pose_from(PyObject *o, sensim_pose *out, const char *what) {
  sensim_pose p = sensim_pose_identity();
  if (o == Py_None) {
    *out = p;
    return 0;
  }
  PyObject *fast = PySequence_Fast(o, "");
  if (!fast) {
    PyErr_Format(PyExc_TypeError,
                 "%s: a pose is None, (pos, quat), a 3-sequence (x, y, z) or a 7-sequence "
                 "(x, y, z, qw, qx, qy, qz); got %.80s", what, Py_TYPE(o)->tp_name);
    return -1;
  }
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  int rc = -1;
  char sub[96];
  if (n == 2) {
    double v[4];
    snprintf(sub, sizeof sub, "%s.pos", what);
    if (sp_doubles_from(PySequence_Fast_GET_ITEM(fast, 0), v, 3, sub) == 0) {
      p.pos = (sensim_vec3){v[0], v[1], v[2]};
      snprintf(sub, sizeof sub, "%s.rot", what);
      if (sp_doubles_from(PySequence_Fast_GET_ITEM(fast, 1), v, 4, sub) == 0) {
        p.rot = (sensim_quat){v[0], v[1], v[2], v[3]};
        rc = 0;
      }
    }
  } else if (n == 3 || n == 7) {
    double v[7];
    if (sp_doubles_from(fast, v, (int)n, what) == 0) {
      p.pos = (sensim_vec3){v[0], v[1], v[2]};
      if (n == 7) p.rot = (sensim_quat){v[3], v[4], v[5], v[6]};
      rc = 0;
    }
  } else {
    PyErr_Format(PyExc_ValueError,
                 "%s: a pose has 2 items (pos, quat), 3 (x, y, z) or 7 (x, y, z, qw, qx, qy, "
                 "qz); got %zd", what, n);
  }
  Py_DECREF(fast);
  if (rc == 0) {
    double norm = sqrt(p.rot.w * p.rot.w + p.rot.x * p.rot.x + p.rot.y * p.rot.y + p.rot.z * p.rot.z);
    if (fabs(norm - 1.0) > 1e-6) {
      char msg[160];
      snprintf(msg, sizeof msg, "%s: the quaternion must be unit (its norm is %.9g)", what, norm);
      PyErr_SetString(PyExc_ValueError, msg);
      return -1;
    }
    *out = p;
  }
  return rc;
}

/* ---- JSON ------------------------------------------------------------------- */

static PyObject *json_dumps; /* json.dumps */
static PyObject *json_default_fn;

/* json.dumps's `default`: NumPy scalars and arrays through .tolist(). */
static PyObject *json_default(PyObject *self, PyObject *o) {
  (void)self;
  if (PyObject_HasAttrString(o, "tolist")) return PyObject_CallMethod(o, "tolist", NULL);
  PyErr_Format(PyExc_TypeError, "a value of type %.80s cannot be a sensim parameter",
               Py_TYPE(o)->tp_name);
  return NULL;
}
static PyMethodDef json_default_def = {"_json_default", json_default, METH_O, NULL};

int sp_json_dumps(PyObject *o, PyObject **holder, const char **text) {
  *holder = NULL;
  *text = NULL;
  if (o == NULL || o == Py_None) return 0;
  if (PyUnicode_Check(o)) {
    *holder = PyUnicode_AsUTF8String(o);
  } else {
    if (!PyDict_Check(o)) {
      PyErr_Format(PyExc_TypeError, "parameters must be a dict (or JSON text), got %.80s",
                   Py_TYPE(o)->tp_name);
      return -1;
    }
    PyObject *kw = Py_BuildValue("{s:O,s:O}", "allow_nan", Py_False, "default", json_default_fn);
    PyObject *args = PyTuple_Pack(1, o);
    PyObject *s = kw && args ? PyObject_Call(json_dumps, args, kw) : NULL;
    Py_XDECREF(kw);
    Py_XDECREF(args);
    if (!s) {
      if (PyErr_ExceptionMatches(PyExc_ValueError)) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "parameters must be finite numbers (no NaN or inf)");
      }
      return -1;
    }
    *holder = PyUnicode_AsUTF8String(s);
    Py_DECREF(s);
  }
  if (!*holder) return -1;
  *text = PyBytes_AS_STRING(*holder);
  return 0;
}

const char *sp_hint(char *buf, size_t size, const char *word, const char *const *names) {
  const char *best = sensim_suggest(word, names);
  snprintf(buf, size, "%s%s%s", best ? ", did you mean '" : "", best ? best : "", best ? "'?" : "");
  return buf;
}

/* ---- materials ----------------------------------------------------------------- */

int sp_material_from(sp_world *w, PyObject *o, sensim_material *out) {
  sensim_material m;
  sensim_material_init(&m);
  if (o == NULL || o == Py_None) {
    *out = m;
    return 0;
  }
  if (!PyDict_Check(o)) {
    PyErr_Format(PyExc_TypeError, "material must be a dict (base_color, roughness, metallic, "
                 "reflectance, radar_specular, radar_diffuse, texture), got %.80s", Py_TYPE(o)->tp_name);
    return -1;
  }
  static const char *const keys[] = {"base_color",    "roughness", "metallic",     "reflectance", "radar_specular",
                                     "radar_diffuse", "texture",   "emission",     "ior",         "transmission",
                                     "thin_walled",   "specular",  NULL};
  PyObject *key, *val;
  Py_ssize_t pos = 0;
  while (PyDict_Next(o, &pos, &key, &val)) {
    const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
    if (!k) {
      PyErr_SetString(PyExc_TypeError, "material keys must be str");
      return -1;
    }
    int known = 0;
    for (int i = 0; keys[i]; i++) known |= strcmp(k, keys[i]) == 0;
    if (!known) {
      char hint[96];
      sensim_error_set(SENSIM_EINVAL, "material: unknown key '%s'%s (base_color, roughness, "
                       "metallic, reflectance, radar_specular, radar_diffuse, texture, emission, ior, transmission, "
                       "thin_walled, specular)", k, sp_hint(hint, sizeof hint, k, keys));
      return sp_raise_int(SENSIM_EINVAL);
    }
  }
  PyObject *v;
  if ((v = PyDict_GetItemString(o, "base_color")) && sp_floats_from(v, m.base_color, 3, "material.base_color") < 0)
    return -1;
  if ((v = PyDict_GetItemString(o, "emission")) && sp_floats_from(v, m.emission, 3, "material.emission") < 0)
    return -1;
  if ((v = PyDict_GetItemString(o, "thin_walled"))) {
    const int t = PyObject_IsTrue(v);
    if (t < 0) return -1;
    m.thin_walled = t;
  }
  const char *scalars[] = {"roughness",     "metallic", "reflectance",  "radar_specular",
                           "radar_diffuse", "ior",      "transmission", "specular"};
  float *dst[] = {&m.roughness,     &m.metallic, &m.reflectance,  &m.radar_specular,
                  &m.radar_diffuse, &m.ior,      &m.transmission, &m.specular};
  for (int i = 0; i < 8; i++) {
    if (!(v = PyDict_GetItemString(o, scalars[i]))) continue;
    double d = PyFloat_AsDouble(v);
    if (d == -1.0 && PyErr_Occurred()) return -1;
    *dst[i] = (float)d;
  }
  if ((v = PyDict_GetItemString(o, "texture")) && v != Py_None) {
    m.texture = sp_handle_ptr(v, &sp_TextureType, w, 0, "material.texture");
    if (!m.texture) return -1;
  }
  *out = m;
  return 0;
}

int sp_convert_init(PyObject *m) {
  pose_type = PyStructSequence_NewType(&pose_desc);
  if (!pose_type) return -1;
  pose_type->tp_new = pose_new;
  if (PyModule_AddObjectRef(m, "Pose", (PyObject *)pose_type) < 0) return -1;
  PyObject *json = PyImport_ImportModule("json");
  if (!json) return -1;
  json_dumps = PyObject_GetAttrString(json, "dumps");
  Py_DECREF(json);
  json_default_fn = PyCFunction_New(&json_default_def, NULL);
  return json_dumps && json_default_fn ? 0 : -1;
}
