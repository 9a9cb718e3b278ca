/* python/src/tools_ekf.c: the tools for Python, part 2b: the VEPD's judge
 * (sensim_tools/vepd.h), a planar EKF velocity estimator over [east,
 * north, psi, v] driven by an IMU's accel_x and gyro_z and corrected by
 * GNSS fixes: the batch ekf_run and the stepping EKF type. GNSS fixes come
 * in as gnss Frames (or (t, Frame) pairs). docs/vepd.md has the models. */
#include "module.h"

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL sensim_ARRAY_API
#include <numpy/arrayobject.h>

#include <stdlib.h>
#include <sensim_tools/sensim_tools.h>

#define ARR(o) ((PyArrayObject *)(o))
#define KW (PyCFunction)(void (*)(void))


static const char *const ekf_keys[] = {"accel_noise", "gyro_noise", "pos_noise", "gnss_sigma",
                                       "init_sigma_psi", "init_sigma_v", "output_rate", NULL};

static double *ekf_field(sensim_ekf_params *p, int i) {
  double *f[] = {&p->accel_noise, &p->gyro_noise, &p->pos_noise, &p->gnss_sigma,
                 &p->init_sigma_psi, &p->init_sigma_v, &p->output_rate};
  return f[i];
}

/* EKF parameters from a dict (None: defaults); unknown keys are refused. */
int sp_tools_ekf_params(PyObject *d, struct sensim_ekf_params *p) {
  sensim_ekf_params_init(p);
  if (!d || d == Py_None) return 0;
  if (!PyDict_Check(d)) {
    PyErr_SetString(PyExc_TypeError, "EKF parameters are a dict (or keyword arguments)");
    return -1;
  }
  PyObject *k, *v;
  Py_ssize_t pos = 0;
  while (PyDict_Next(d, &pos, &k, &v)) {
    const char *name = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : NULL;
    int i = 0;
    while (name && ekf_keys[i] && strcmp(ekf_keys[i], name) != 0) i++;
    if (!name || !ekf_keys[i]) {
      if (!PyErr_Occurred())
        PyErr_Format(PyExc_TypeError, "unknown EKF parameter %R (known: accel_noise, gyro_noise, "
                                      "pos_noise, gnss_sigma, init_sigma_psi, init_sigma_v, output_rate)", k);
      return -1;
    }
    double x = PyFloat_AsDouble(v);
    if (x == -1.0 && PyErr_Occurred()) return -1;
    *ekf_field(p, i) = x;
  }
  return 0;
}

/* A fix and its time from a gnss Frame (t_capture), or a (t, Frame) pair. */
static int fix_from(PyObject *o, sensim_gnss_fix *fix, double *t) {
  PyObject *fo = o;
  int has_t = 0;
  if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 2) {
    *t = PyFloat_AsDouble(PyTuple_GET_ITEM(o, 0));
    if (*t == -1.0 && PyErr_Occurred()) return -1;
    fo = PyTuple_GET_ITEM(o, 1);
    has_t = 1;
  }
  const sensim_frame *f = sp_frame_ptr(fo);
  if (!f) return -1;
  if (f->type != SENSIM_PAYLOAD_GNSS || f->count < 1 || !f->data) {
    sensim_error_set(SENSIM_ETYPE, "expected a gnss frame, got a %s frame", sensim_payload_name(f->type));
    return sp_raise_int(SENSIM_ETYPE);
  }
  *fix = *(const sensim_gnss_fix *)f->data;
  if (!has_t) *t = f->t_capture;
  return 0;
}

static PyObject *state_to(const sensim_ekf_state *s) {
  npy_intp dims[2] = {4, 4};
  PyObject *P = PyArray_SimpleNew(2, dims, NPY_FLOAT64);
  if (!P) return NULL;
  memcpy(PyArray_DATA(ARR(P)), s->P, sizeof s->P);
  return Py_BuildValue("{s:d,s:(dddd),s:N,s:(dd)}", "t", s->t, "x", s->x[0], s->x[1], s->x[2], s->x[3],
                       "P", P, "vel", s->vel[0], s->vel[1]);
}

/* ekf_run(imu, gnss, **params): imu (N, 3) rows t, accel_x, gyro_z;
 * gnss a sequence of gnss Frames or (t, Frame) pairs. */
static PyObject *t_ekf_run(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  PyObject *io, *go;
  if (!PyArg_ParseTuple(args, "OO:ekf_run", &io, &go)) return NULL;
  sensim_ekf_params p;
  if (sp_tools_ekf_params(kw, &p) != 0) return NULL;
  PyObject *imu = sp_tools_doubles(io, 2, 2, "ekf_run: imu (N, 3) of t, accel_x, gyro_z");
  if (!imu) return NULL;
  PyObject *res = NULL, *seq = NULL;
  sensim_ekf_imu_input *ii = NULL;
  sensim_ekf_gnss_input *gi = NULL;
  sensim_ekf_state *out = NULL;
  size_t nout = 0;
  if (PyArray_DIM(ARR(imu), 1) != 3) {
    PyErr_SetString(PyExc_ValueError, "ekf_run: imu must have shape (N, 3): t, accel_x, gyro_z");
    goto done;
  }
  size_t ni = (size_t)PyArray_DIM(ARR(imu), 0);
  seq = PySequence_Fast(go, "ekf_run: gnss must be a sequence of gnss frames");
  if (!seq) goto done;
  size_t ng = (size_t)PySequence_Fast_GET_SIZE(seq);
  ii = PyMem_Calloc(ni ? ni : 1, sizeof *ii);
  gi = PyMem_Calloc(ng ? ng : 1, sizeof *gi);
  if (!ii || !gi) {
    PyErr_NoMemory();
    goto done;
  }
  const double *d = PyArray_DATA(ARR(imu));
  for (size_t i = 0; i < ni; i++) {
    ii[i].t = d[3 * i];
    ii[i].accel_x = d[3 * i + 1];
    ii[i].gyro_z = d[3 * i + 2];
  }
  for (size_t i = 0; i < ng; i++)
    if (fix_from(PySequence_Fast_GET_ITEM(seq, (Py_ssize_t)i), &gi[i].fix, &gi[i].t) != 0) goto done;
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_ekf_run(&p, ii, ni, gi, ng, &out, &nout);
  Py_END_ALLOW_THREADS
  if (st != SENSIM_OK) {
    sp_raise(st);
    goto done;
  }
  npy_intp n = (npy_intp)nout, dx[2] = {n, 4}, dp[3] = {n, 4, 4}, dv[2] = {n, 2};
  PyObject *t = PyArray_SimpleNew(1, &n, NPY_FLOAT64), *x = PyArray_SimpleNew(2, dx, NPY_FLOAT64);
  PyObject *P = PyArray_SimpleNew(3, dp, NPY_FLOAT64), *v = PyArray_SimpleNew(2, dv, NPY_FLOAT64);
  if (t && x && P && v) {
    for (size_t i = 0; i < nout; i++) {
      ((double *)PyArray_DATA(ARR(t)))[i] = out[i].t;
      memcpy((double *)PyArray_DATA(ARR(x)) + 4 * i, out[i].x, sizeof out[i].x);
      memcpy((double *)PyArray_DATA(ARR(P)) + 16 * i, out[i].P, sizeof out[i].P);
      memcpy((double *)PyArray_DATA(ARR(v)) + 2 * i, out[i].vel, sizeof out[i].vel);
    }
    res = Py_BuildValue("{s:O,s:O,s:O,s:O}", "t", t, "x", x, "P", P, "vel", v);
  }
  Py_XDECREF(t);
  Py_XDECREF(x);
  Py_XDECREF(P);
  Py_XDECREF(v);
done:
  free(out);
  PyMem_Free(ii);
  PyMem_Free(gi);
  Py_XDECREF(seq);
  Py_DECREF(imu);
  return res;
}

typedef struct sp_ekf {
  PyObject_HEAD
  sensim_ekf *ekf;
} sp_ekf;

static int ekf_init(PyObject *self, PyObject *args, PyObject *kw) {
  sp_ekf *e = (sp_ekf *)self;
  if (PyTuple_GET_SIZE(args) != 0) {
    PyErr_SetString(PyExc_TypeError, "EKF takes keyword arguments only");
    return -1;
  }
  sensim_ekf_params p;
  if (sp_tools_ekf_params(kw, &p) != 0) return -1;
  sensim_ekf *k = NULL;
  sensim_status st = sensim_ekf_create(&p, &k);
  if (st != SENSIM_OK) return sp_raise_int(st);
  sensim_ekf_destroy(e->ekf);
  e->ekf = k;
  return 0;
}

static void ekf_dealloc(PyObject *self) {
  sensim_ekf_destroy(((sp_ekf *)self)->ekf);
  Py_TYPE(self)->tp_free(self);
}

static sensim_ekf *ekf_ptr(PyObject *self) {
  sensim_ekf *k = ((sp_ekf *)self)->ekf;
  if (!k) sp_state_error("EKF: not initialised (EKF.__init__ was not called)");
  return k;
}

static PyObject *ekf_start(PyObject *self, PyObject *args) {
  double t;
  PyObject *xo, *so;
  double x[4], s[4];
  sensim_ekf *k = ekf_ptr(self);
  if (!k || !PyArg_ParseTuple(args, "dOO:start", &t, &xo, &so)) return NULL;
  if (xo == Py_None || so == Py_None) return PyErr_Format(PyExc_TypeError, "start: x and sigma are 4 numbers");
  if (sp_doubles_from(xo, x, 4, "x (east, north, psi, v)") != 0 ||
      sp_doubles_from(so, s, 4, "sigma (4 standard deviations)") != 0)
    return NULL;
  sensim_status st = sensim_ekf_init(k, t, x, s);
  return st != SENSIM_OK ? sp_raise(st) : Py_NewRef(Py_None);
}

static PyObject *ekf_imu(PyObject *self, PyObject *args) {
  double t, ax, gz;
  sensim_ekf *k = ekf_ptr(self);
  if (!k || !PyArg_ParseTuple(args, "ddd:imu", &t, &ax, &gz)) return NULL;
  sensim_status st = sensim_ekf_imu(k, t, ax, gz);
  return st != SENSIM_OK ? sp_raise(st) : Py_NewRef(Py_None);
}

static PyObject *ekf_gnss(PyObject *self, PyObject *arg) {
  sensim_gnss_fix fix;
  double t = 0.0;
  sensim_ekf *k = ekf_ptr(self);
  if (!k || fix_from(arg, &fix, &t) != 0) return NULL;
  sensim_status st = sensim_ekf_gnss(k, t, &fix);
  return st != SENSIM_OK ? sp_raise(st) : Py_NewRef(Py_None);
}

static PyObject *ekf_estimate(PyObject *self, PyObject *arg) {
  sensim_ekf *k = ekf_ptr(self);
  if (!k) return NULL;
  double t = PyFloat_AsDouble(arg);
  if (t == -1.0 && PyErr_Occurred()) return NULL;
  sensim_ekf_state s;
  sensim_status st = sensim_ekf_estimate(k, t, &s);
  return st != SENSIM_OK ? sp_raise(st) : state_to(&s);
}

static PyObject *ekf_get_started(PyObject *self, void *u) {
  (void)u;
  sensim_ekf *k = ekf_ptr(self);
  return k ? PyBool_FromLong(sensim_ekf_started(k)) : NULL;
}

static PyMethodDef ekf_methods[] = {
    {"start", ekf_start, METH_VARARGS,
     "start($self, t, x, sigma, /)\n--\n\n"
     "start(t, x, sigma)\nStart (or restart) at t with x = (east m, north m, psi rad, v m/s)\n"
     "and per-component sigmas. Without it the first valid fix starts the filter."},
    {"imu", ekf_imu, METH_VARARGS,
     "imu($self, t, accel_x, gyro_z, /)\n--\n\n"
     "imu(t, accel_x, gyro_z)\nAn IMU sample (m/s^2, rad/s) at t: propagate to t, hold the input."},
    {"gnss", ekf_gnss, METH_O,
     "gnss($self, fix, /)\n--\n\n"
     "gnss(frame or (t, frame))\nA GNSS fix: propagate to t (default frame.t_capture), update."},
    {"estimate", ekf_estimate, METH_O,
     "estimate($self, t, /)\n--\n\n"
     "estimate(t) -> dict(t, x, P (4, 4), vel (east, north))\nThe estimate at t (the filter\n"
     "moves to t)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef ekf_getset[] = {{"started", ekf_get_started, NULL, "True once started.", NULL},
                                   {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject sp_EkfType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sensim.EKF",
    .tp_basicsize = sizeof(sp_ekf),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "EKF(**params)\n--\n\n"
              "EKF(**params)\nThe VEPD judge: a planar EKF velocity estimator over\n"
              "[east, north, psi, v] driven by accel_x and gyro_z, corrected by GNSS fixes.\n"
              "params: accel_noise, gyro_noise, pos_noise, gnss_sigma, init_sigma_psi,\n"
              "init_sigma_v, output_rate (docs/vepd.md).",
    .tp_new = PyType_GenericNew,
    .tp_init = ekf_init,
    .tp_dealloc = ekf_dealloc,
    .tp_methods = ekf_methods,
    .tp_getset = ekf_getset,
};

static PyMethodDef ekf_functions[] = {
    {"ekf_run", KW t_ekf_run, METH_VARARGS | METH_KEYWORDS,
     "ekf_run($module, imu, gnss, /, **params)\n--\n\n"
     "ekf_run(imu, gnss, **params) -> dict(t, x (n, 4), P (n, 4, 4), vel (n, 2))\n"
     "The EKF judge over IMU rows (t, accel_x, gyro_z) and GNSS fixes (gnss frames or (t, frame)\n"
     "pairs), estimates at output_rate from the first fix."},
    {NULL, NULL, 0, NULL}};

int sp_tools_ekf_init(PyObject *m) {
  if (PyModule_AddFunctions(m, ekf_functions) < 0) return -1;
  if (PyType_Ready(&sp_EkfType) < 0) return -1;
  Py_INCREF(&sp_EkfType);
  if (PyModule_AddObject(m, "EKF", (PyObject *)&sp_EkfType) < 0) {
    Py_DECREF(&sp_EkfType);
    return -1;
  }
  return 0;
}
