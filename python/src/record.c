/* python/src/record.c: Recorder, ROS 2 recordings (MCAP) from a Python
 * host loop (sensim/record.h), and the files beside them: camera_info
 * YAML and TUM poses. */
#include "module.h"
#include <string.h>

typedef struct sp_recorder {
  PyObject_HEAD
  sensim_recorder *rec; /* NULL once closed or aborted */
  sp_world *world;      /* strong reference: the recorder reads its bodies */
} sp_recorder;

static int rec_check(sp_recorder *self) {
  if (!self->rec) {
    sp_state_error("the recorder is closed");
    return -1;
  }
  return sp_world_check(self->world);
}

/* odom_drift={"sigma_xy": m/sqrt(m), "sigma_yaw": rad/sqrt(m), "sigma_xy_time":
 * m/sqrt(s), "sigma_yaw_time": rad/sqrt(s)} (sensim_odom_drift); None: none. */
static int drift_from_dict(PyObject *d, sensim_odom_drift *out) {
  static const char *const keys[] = {"sigma_xy", "sigma_yaw", "sigma_xy_time", "sigma_yaw_time"};
  double *dst[4] = {&out->sigma_xy, &out->sigma_yaw, &out->sigma_xy_time, &out->sigma_yaw_time};
  if (d == Py_None) return 0;
  if (!PyDict_Check(d)) {
    PyErr_Format(PyExc_TypeError, "Recorder: odom_drift must be a dict or None, got %.80s", Py_TYPE(d)->tp_name);
    return -1;
  }
  PyObject *k, *v;
  Py_ssize_t pos = 0;
  while (PyDict_Next(d, &pos, &k, &v)) {
    const char *name = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
    int i = 0;
    while (name && i < 4 && strcmp(name, keys[i]) != 0) i++;
    if (!name || i == 4) {
      PyErr_Format(PyExc_ValueError, "Recorder: odom_drift has no key %R (sigma_xy, sigma_yaw, "
                   "sigma_xy_time, sigma_yaw_time)", k);
      return -1;
    }
    double x = PyFloat_AsDouble(v);
    if (x == -1.0 && PyErr_Occurred()) return -1;
    *dst[i] = x;
  }
  return 0;
}

static int rec_init(sp_recorder *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "world", "compress", "zstd_level", "chunk_size", "lidar_time",
                           "tf_rate", "map_frame", "odom_frame", "odom_body", "odom_drift", NULL};
  PyObject *path, *wo, *drift = Py_None;
  sensim_recorder_params p;
  sensim_recorder_params_init(&p);
  int compress = p.compress, level = p.zstd_level;
  Py_ssize_t chunk = (Py_ssize_t)p.chunk_size;
  const char *lt = "start";
  double rate = p.tf_rate;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O|pinsd$sszO:Recorder", kwlist, PyUnicode_FSConverter,
                                   &path, &wo, &compress, &level, &chunk, &lt, &rate, &p.map_frame,
                                   &p.odom_frame, &p.odom_body, &drift))
    return -1;
  int rc = -1;
  if (drift_from_dict(drift, &p.odom_drift) < 0) {
    /* the error is set */
  } else if (self->rec) {
    PyErr_SetString(PyExc_RuntimeError, "Recorder.__init__ called twice");
  } else if (!PyObject_TypeCheck(wo, &sp_WorldType)) {
    PyErr_Format(PyExc_TypeError, "Recorder: world must be a sensim.World, got %.80s",
                 Py_TYPE(wo)->tp_name);
  } else if (strcmp(lt, "start") != 0 && strcmp(lt, "end") != 0) {
    PyErr_Format(PyExc_ValueError, "Recorder: lidar_time '%s': expected 'start' (s from the scan's "
                 "start) or 'end' (s relative to the capture time)", lt);
  } else if (chunk < 1) {
    PyErr_SetString(PyExc_ValueError, "Recorder: chunk_size must be >= 1 byte");
  } else if (sp_world_check((sp_world *)wo) == 0) {
    p.compress = compress;
    p.zstd_level = level;
    p.chunk_size = (size_t)chunk;
    p.lidar_time = strcmp(lt, "end") == 0 ? SENSIM_LIDAR_TIME_FROM_END : SENSIM_LIDAR_TIME_FROM_START;
    p.tf_rate = rate;
    sensim_status st = sensim_recorder_open(PyBytes_AS_STRING(path), ((sp_world *)wo)->world, &p,
                                            &self->rec);
    if (st) {
      sp_raise(st);
    } else {
      self->world = (sp_world *)Py_NewRef(wo);
      rc = 0;
    }
  }
  Py_DECREF(path);
  return rc;
}

static void rec_dealloc(sp_recorder *self) {
  /* Never finished: a recording nobody closed is not a recording. */
  if (self->rec) sensim_recorder_abort(self->rec);
  Py_XDECREF(self->world);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *rec_add_body(sp_recorder *self, PyObject *args) {
  PyObject *bo;
  const char *name;
  if (!PyArg_ParseTuple(args, "Os:add_body", &bo, &name) || rec_check(self) < 0) return NULL;
  sensim_body *b = sp_handle_ptr(bo, &sp_BodyType, self->world, 0, "add_body");
  if (!b) return NULL;
  sensim_status st = sensim_recorder_add_body(self->rec, b, name);
  if (st) return sp_raise(st);
  Py_RETURN_NONE;
}

static PyObject *rec_write(sp_recorder *self, PyObject *args) {
  PyObject *so, *fo;
  if (!PyArg_ParseTuple(args, "OO:write", &so, &fo) || rec_check(self) < 0) return NULL;
  sensim_sensor *s = sp_sensor_ptr(so);
  if (!s) return NULL;
  if (((sp_sensor *)so)->world != self->world) {
    PyErr_SetString(PyExc_ValueError, "write: the sensor belongs to another world");
    return NULL;
  }
  const sensim_frame *f = sp_frame_ptr(fo);
  if (!f) return NULL;
  sensim_status st = sensim_recorder_write(self->rec, s, f);
  if (st) return sp_raise(st);
  Py_RETURN_NONE;
}

static PyObject *rec_advance(sp_recorder *self, PyObject *arg) {
  double t = PyFloat_AsDouble(arg);
  if ((t == -1.0 && PyErr_Occurred()) || rec_check(self) < 0) return NULL;
  sensim_status st = sensim_recorder_advance(self->rec, t);
  if (st) return sp_raise(st);
  Py_RETURN_NONE;
}

static PyObject *rec_close(sp_recorder *self, PyObject *noargs) {
  (void)noargs;
  sensim_recorder *r = self->rec;
  if (!r) Py_RETURN_NONE;
  if (sp_world_check(self->world) < 0) return NULL;
  self->rec = NULL;
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_recorder_close(r);
  Py_END_ALLOW_THREADS
  if (st) return sp_raise(st);
  Py_RETURN_NONE;
}

static PyObject *rec_abort(sp_recorder *self, PyObject *noargs) {
  (void)noargs;
  sensim_recorder *r = self->rec;
  self->rec = NULL;
  if (r) {
    Py_BEGIN_ALLOW_THREADS
    sensim_recorder_abort(r);
    Py_END_ALLOW_THREADS
  }
  Py_RETURN_NONE;
}

static PyObject *rec_enter(sp_recorder *self, PyObject *noargs) {
  (void)noargs;
  if (rec_check(self) < 0) return NULL;
  return Py_NewRef(self);
}

/* A with block closes the recording, or abandons it when the block raised. */
static PyObject *rec_exit(sp_recorder *self, PyObject *args) {
  PyObject *type = PyTuple_GET_SIZE(args) > 0 ? PyTuple_GET_ITEM(args, 0) : Py_None;
  PyObject *r = type == Py_None ? rec_close(self, NULL) : rec_abort(self, NULL);
  if (!r) return NULL;
  Py_DECREF(r);
  Py_RETURN_FALSE;
}

static PyObject *rec_closed(sp_recorder *self, void *c) {
  (void)c;
  return PyBool_FromLong(self->rec == NULL);
}

static PyMethodDef rec_methods[] = {
    {"add_body", (PyCFunction)rec_add_body, METH_VARARGS,
     "add_body($self, body, name, /)\n--\n\n"
     "add_body(body, name): publish the body as frame `name` on /tf and /<name>/odom (ground "
     "truth) and as the parent frame of its sensors' mounts."},
    {"write", (PyCFunction)rec_write, METH_VARARGS,
     "write($self, sensor, frame, /)\n--\n\n"
     "write(sensor, frame): record a delivered frame (its topics by the sensor's kind, "
     "docs/recording.md). Write a step's frames before advance(t)."},
    {"advance", (PyCFunction)rec_advance, METH_O,
     "advance($self, t, /)\n--\n\n"
     "advance(t): the world has reached t (s): write /tf and odometry up to t and every recorded "
     "message whose delivery time is <= t, in log-time order."},
    {"close", (PyCFunction)rec_close, METH_NOARGS,
     "close($self, /)\n--\n\n"
     "Write the rest, the summary and the footer, and move the file into place."},
    {"abort", (PyCFunction)rec_abort, METH_NOARGS, "abort($self, /)\n--\n\n"
     "Abandon the recording: no file is left."},
    {"__enter__", (PyCFunction)rec_enter, METH_NOARGS, "__enter__($self, /)\n--\n\nEnter a with block: returns self."},
    {"__exit__", (PyCFunction)rec_exit, METH_VARARGS, "__exit__($self, exc_type, exc_value, traceback, /)\n--\n\nLeave a with block: close(), or abort() if the block raised."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef rec_getset[] = {
    {"closed", (getter)rec_closed, NULL, "True once closed or aborted.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject sp_RecorderType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sensim.Recorder",
    .tp_basicsize = sizeof(sp_recorder),
    .tp_dealloc = (destructor)rec_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Recorder(path, world, compress=True, zstd_level=3, chunk_size=4194304, lidar_time='start', tf_rate=50.0, *, map_frame='map', odom_frame='odom', odom_body=None, odom_drift=None)\n--\n\n"
              "Recorder(path, world, compress=True, zstd_level=3, chunk_size=4 MiB, "
              "lidar_time='start'|'end', tf_rate=50 Hz, *, map_frame, odom_frame, odom_body, "
              "odom_drift): a ROS 2 recording (MCAP, CDR) of the "
              "world's sensors, written under a temporary name until close(). /tf is REP 105's "
              "map_frame -> odom_frame -> bodies; odom_drift={'sigma_xy': m/sqrt(m), 'sigma_yaw': "
              "rad/sqrt(m), 'sigma_xy_time', 'sigma_yaw_time'} makes the odometry of odom_body (None: "
              "the first body added) drift (docs/recording.md, Frames). In a with block it "
              "is closed at the end, or abandoned if the block raised; one never closed leaves no "
              "file.",
    .tp_methods = rec_methods,
    .tp_getset = rec_getset,
    .tp_init = (initproc)rec_init,
    .tp_new = PyType_GenericNew,
};

/* ---- the files beside a recording -------------------------------------------------- */

static PyObject *m_camera_info_yaml(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *path, *so;
  const char *name = NULL;
  if (!PyArg_ParseTuple(args, "O&O:write_camera_info_yaml", PyUnicode_FSConverter, &path, &so))
    return NULL;
  PyObject *r = NULL;
  sensim_sensor *s = sp_sensor_ptr(so);
  sensim_camera_params cp;
  if (s) {
    sensim_status st = sensim_camera_params_get(s, &cp);
    if (!st) {
      name = sensim_sensor_name(s);
      st = sensim_write_camera_info_yaml(PyBytes_AS_STRING(path), name, &cp);
    }
    r = st ? sp_raise(st) : Py_NewRef(Py_None);
  }
  Py_DECREF(path);
  return r;
}

static PyObject *m_tum_append(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *path, *fo;
  if (!PyArg_ParseTuple(args, "O&O:tum_append", PyUnicode_FSConverter, &path, &fo)) return NULL;
  const sensim_frame *f = sp_frame_ptr(fo);
  PyObject *r = NULL;
  if (f) {
    sensim_status st = sensim_tum_append(PyBytes_AS_STRING(path), f);
    r = st ? sp_raise(st) : Py_NewRef(Py_None);
  }
  Py_DECREF(path);
  return r;
}

static PyMethodDef record_functions[] = {
    {"write_camera_info_yaml", m_camera_info_yaml, METH_VARARGS,
     "write_camera_info_yaml($module, path, camera, /)\n--\n\n"
     "write_camera_info_yaml(path, camera): the camera's calibration as ROS's "
     "camera_calibration_parsers and OpenCV's FileStorage read it."},
    {"tum_append", m_tum_append, METH_VARARGS,
     "tum_append($module, path, frame, /)\n--\n\n"
     "tum_append(path, frame): append 't tx ty tz qx qy qz qw' (the frame's capture time and true "
     "sensor pose) to a TUM trajectory file."},
    {NULL, NULL, 0, NULL}};

int sp_record_init(PyObject *m) {
  if (PyType_Ready(&sp_RecorderType) < 0 ||
      PyModule_AddObjectRef(m, "Recorder", (PyObject *)&sp_RecorderType) < 0)
    return -1;
  return PyModule_AddFunctions(m, record_functions);
}
