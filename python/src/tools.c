/* python/src/tools.c: the evaluation tools of libsensim_tools
 * (include/sensim_tools/) for Python, part 1: statistics of signals
 * (Allan deviation and its lines, Wiener entropy, Wasserstein-1), camera
 * noise calibration (the NoiseFit type) and numeric CSV tables; and
 * sp_tools_init, which registers the other parts (tools_vepd.c,
 * tools_ekf.c, tools_ablate.c, tools_images.c, tools_draw.c, tools_sweep.c).
 *
 * Arrays come in as any array-like and are copied to C-contiguous float64
 * (or float32 where the C call takes floats); results are new arrays. The
 * GIL is released around the work. */
#include "module.h"

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL sensim_ARRAY_API
#include <numpy/arrayobject.h>

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <structmember.h>
#include <sensim_tools/sensim_tools.h>

/* ---- Allan deviation ------------------------------------------------------- */

static PyObject *t_allan_log_factors(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"n", "per_decade", NULL};
  Py_ssize_t n, per = 10;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "n|n:allan_log_factors", kwlist, &n, &per)) return NULL;
  if (n < 0 || per < 1 || per > 1000)
    return PyErr_Format(PyExc_ValueError, "allan_log_factors: n >= 0 and per_decade in 1..1000");
  size_t cap = (size_t)per * 21 + 2; /* decades of a size_t are < 20 */
  size_t *ms = PyMem_Malloc(cap * sizeof *ms);
  if (!ms) return PyErr_NoMemory();
  size_t k = sensim_allan_log_factors((size_t)n, (size_t)per, ms, cap);
  npy_intp dim = (npy_intp)k;
  PyObject *a = PyArray_SimpleNew(1, &dim, NPY_INT64);
  if (a)
    for (size_t i = 0; i < k; i++) ((int64_t *)PyArray_DATA((PyArrayObject *)a))[i] = (int64_t)ms[i];
  PyMem_Free(ms);
  return a;
}

/* allan_deviation(y, tau0, ms=None, per_decade=10): y (n,) or (n, k)
 * columns; adev (nm,) or (nm, k). */
static PyObject *t_allan_deviation(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"y", "tau0", "ms", "per_decade", NULL};
  PyObject *yo, *mso = Py_None;
  double tau0;
  Py_ssize_t per = 10;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "Od|On:allan_deviation", kwlist, &yo, &tau0, &mso, &per))
    return NULL;
  if (!(tau0 > 0) || !isfinite(tau0)) {
    char msg[96];
    snprintf(msg, sizeof msg, "allan_deviation: tau0 must be > 0 s, got %g", tau0);
    PyErr_SetString(PyExc_ValueError, msg);
    return NULL;
  }
  if (per < 1 || per > 1000) return PyErr_Format(PyExc_ValueError, "allan_deviation: per_decade in 1..1000");
  PyObject *y = sp_tools_doubles(yo, 1, 2, "allan_deviation: y");
  if (!y) return NULL;
  PyArrayObject *ya = (PyArrayObject *)y;
  size_t n = (size_t)PyArray_DIM(ya, 0);
  size_t k = PyArray_NDIM(ya) == 2 ? (size_t)PyArray_DIM(ya, 1) : 1;
  PyObject *res = NULL, *msa = NULL, *adev = NULL, *tau = NULL;
  size_t *ms = NULL, nm = 0;
  double *col = NULL, *out = NULL;
  if (mso == Py_None) {
    size_t cap = (size_t)per * 21 + 2;
    ms = PyMem_Malloc(cap * sizeof *ms);
    if (!ms) {
      PyErr_NoMemory();
      goto done;
    }
    nm = sensim_allan_log_factors(n, (size_t)per, ms, cap);
  } else {
    PyObject *m = PyArray_FROMANY(mso, NPY_INT64, 1, 1, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED | NPY_ARRAY_FORCECAST);
    if (!m) goto done;
    nm = (size_t)PyArray_DIM((PyArrayObject *)m, 0);
    ms = PyMem_Malloc((nm ? nm : 1) * sizeof *ms);
    for (size_t i = 0; ms && i < nm; i++) {
      int64_t v = ((int64_t *)PyArray_DATA((PyArrayObject *)m))[i];
      ms[i] = v < 1 ? 0 : (size_t)v; /* 0 is refused by the library with its message */
    }
    Py_DECREF(m);
    if (!ms) {
      PyErr_NoMemory();
      goto done;
    }
  }
  if (nm == 0) {
    sensim_error_set(SENSIM_EINVAL, "allan_deviation: %zu samples give no averaging factor "
                                    "(need at least 3)", n);
    sp_raise(SENSIM_EINVAL);
    goto done;
  }
  npy_intp dims[2] = {(npy_intp)nm, (npy_intp)k};
  adev = PyArray_SimpleNew(PyArray_NDIM(ya), dims, NPY_FLOAT64);
  tau = PyArray_SimpleNew(1, dims, NPY_FLOAT64);
  msa = PyArray_SimpleNew(1, dims, NPY_INT64);
  col = PyMem_Malloc((n ? n : 1) * sizeof *col);
  out = PyMem_Malloc(nm * sizeof *out);
  if (!adev || !tau || !msa || !col || !out) {
    if (!PyErr_Occurred()) PyErr_NoMemory();
    goto done;
  }
  sensim_status st = SENSIM_OK;
  const double *yd = PyArray_DATA(ya);
  double *ad = PyArray_DATA((PyArrayObject *)adev);
  Py_BEGIN_ALLOW_THREADS
  for (size_t j = 0; j < k && st == SENSIM_OK; j++) {
    for (size_t i = 0; i < n; i++) col[i] = yd[i * k + j];
    st = sensim_allan_deviation(col, n, tau0, ms, nm, out);
    for (size_t i = 0; st == SENSIM_OK && i < nm; i++) ad[i * k + j] = out[i];
  }
  Py_END_ALLOW_THREADS
  if (st != SENSIM_OK) {
    sp_raise(st);
    goto done;
  }
  for (size_t i = 0; i < nm; i++) {
    ((double *)PyArray_DATA((PyArrayObject *)tau))[i] = (double)ms[i] * tau0;
    ((int64_t *)PyArray_DATA((PyArrayObject *)msa))[i] = (int64_t)ms[i];
  }
  res = Py_BuildValue("{s:O,s:O,s:O}", "tau", tau, "adev", adev, "m", msa);
done:
  PyMem_Free(ms);
  PyMem_Free(col);
  PyMem_Free(out);
  Py_XDECREF(tau);
  Py_XDECREF(adev);
  Py_XDECREF(msa);
  Py_DECREF(y);
  return res;
}

static PyObject *t_allan_fit_lines(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *to, *ao;
  if (!PyArg_ParseTuple(args, "OO:allan_fit_lines", &to, &ao)) return NULL;
  PyObject *t = sp_tools_doubles(to, 1, 1, "allan_fit_lines: tau");
  PyObject *a = t ? sp_tools_doubles(ao, 1, 1, "allan_fit_lines: adev") : NULL;
  PyObject *res = NULL;
  if (a) {
    size_t n = (size_t)PyArray_DIM((PyArrayObject *)t, 0);
    if ((size_t)PyArray_DIM((PyArrayObject *)a, 0) != n) {
      PyErr_SetString(PyExc_ValueError, "allan_fit_lines: tau and adev differ in length");
    } else {
      sensim_allan_lines l;
      sensim_status st = sensim_allan_fit_lines(PyArray_DATA((PyArrayObject *)t),
                                                PyArray_DATA((PyArrayObject *)a), n, &l);
      if (st != SENSIM_OK)
        sp_raise(st);
      else
        res = Py_BuildValue("{s:d,s:d,s:d,s:d,s:d,s:d}", "n", l.n, "k", l.k, "tau_n", l.tau_n, "tau_k",
                            l.tau_k, "slope_n", l.slope_n, "slope_k", l.slope_k);
    }
  }
  Py_XDECREF(t);
  Py_XDECREF(a);
  return res;
}

/* ---- spectral flatness, Wasserstein-1 ------------------------------------ */

static PyObject *t_wiener_entropy(PyObject *self, PyObject *arg) {
  (void)self;
  PyObject *x = sp_tools_doubles(arg, 1, 1, "wiener_entropy: x");
  if (!x) return NULL;
  double out = 0;
  sensim_status st;
  const double *d = PyArray_DATA((PyArrayObject *)x);
  size_t n = (size_t)PyArray_DIM((PyArrayObject *)x, 0);
  Py_BEGIN_ALLOW_THREADS
  st = sensim_wiener_entropy(d, n, &out);
  Py_END_ALLOW_THREADS
  Py_DECREF(x);
  return st != SENSIM_OK ? sp_raise(st) : PyFloat_FromDouble(out);
}

static PyObject *t_wasserstein1(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *ao, *bo;
  if (!PyArg_ParseTuple(args, "OO:wasserstein1", &ao, &bo)) return NULL;
  PyObject *a = sp_tools_doubles(ao, 1, 1, "wasserstein1: a");
  PyObject *b = a ? sp_tools_doubles(bo, 1, 1, "wasserstein1: b") : NULL;
  PyObject *res = NULL;
  if (b) {
    double out = 0;
    sensim_status st = sensim_wasserstein1(PyArray_DATA((PyArrayObject *)a),
                                           (size_t)PyArray_DIM((PyArrayObject *)a, 0),
                                           PyArray_DATA((PyArrayObject *)b),
                                           (size_t)PyArray_DIM((PyArrayObject *)b, 0), &out);
    res = st != SENSIM_OK ? sp_raise(st) : PyFloat_FromDouble(out);
  }
  Py_XDECREF(a);
  Py_XDECREF(b);
  return res;
}

/* ---- noise calibration ------------------------------------------------------ */

typedef struct sp_noise_fit {
  PyObject_HEAD
  sensim_noise_fit fit;
} sp_noise_fit;

static PyTypeObject sp_NoiseFitType;

static PyObject *noise_fit_new(const sensim_noise_fit *fit) {
  sp_noise_fit *o = PyObject_New(sp_noise_fit, &sp_NoiseFitType);
  if (o) o->fit = *fit;
  return (PyObject *)o;
}

static PyObject *noise_fit_bins(PyObject *self, void *u) {
  (void)u;
  const sensim_noise_fit *f = &((sp_noise_fit *)self)->fit;
  npy_intp n = (npy_intp)f->nbins_used;
  PyObject *a[5] = {PyArray_SimpleNew(1, &n, NPY_FLOAT64), PyArray_SimpleNew(1, &n, NPY_FLOAT64),
                    PyArray_SimpleNew(1, &n, NPY_FLOAT64), PyArray_SimpleNew(1, &n, NPY_FLOAT64),
                    PyArray_SimpleNew(1, &n, NPY_INT64)};
  PyObject *res = NULL;
  if (a[0] && a[1] && a[2] && a[3] && a[4]) {
    for (npy_intp i = 0; i < n; i++) {
      ((double *)PyArray_DATA((PyArrayObject *)a[0]))[i] = f->bins[i].mean;
      ((double *)PyArray_DATA((PyArrayObject *)a[1]))[i] = f->bins[i].var;
      ((double *)PyArray_DATA((PyArrayObject *)a[2]))[i] = f->bins[i].var_model;
      ((double *)PyArray_DATA((PyArrayObject *)a[3]))[i] = f->bins[i].var_std;
      ((int64_t *)PyArray_DATA((PyArrayObject *)a[4]))[i] = (int64_t)f->bins[i].count;
    }
    res = Py_BuildValue("{s:O,s:O,s:O,s:O,s:O}", "mean", a[0], "var", a[1], "var_model", a[2],
                        "var_std", a[3], "count", a[4]);
  }
  for (int i = 0; i < 5; i++) Py_XDECREF(a[i]);
  return res;
}

static PyObject *noise_fit_plot_png(PyObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "title", NULL};
  PyObject *path = NULL;
  const char *title = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|z:plot_png", kwlist, PyUnicode_FSConverter, &path,
                                   &title))
    return NULL;
  const sensim_noise_fit *f = &((sp_noise_fit *)self)->fit;
  const char *p = PyBytes_AS_STRING(path);
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_noise_calib_plot_png(f, title, p);
  Py_END_ALLOW_THREADS
  Py_DECREF(path);
  if (st != SENSIM_OK) return sp_raise(st);
  Py_RETURN_NONE;
}

static PyObject *noise_fit_repr(PyObject *self) {
  const sensim_noise_fit *f = &((sp_noise_fit *)self)->fit;
  char buf[160];
  PyOS_snprintf(buf, sizeof buf, "<sensim.NoiseFit s1=%.6g s2=%.6g chi2_dof=%.3g bins=%zu frames=%zu>",
                f->s1, f->s2, f->chi2_dof, f->nbins_used, f->nframes);
  return PyUnicode_FromString(buf);
}

#define FIT_D(name, doc) \
  {#name, T_DOUBLE, offsetof(sp_noise_fit, fit) + offsetof(sensim_noise_fit, name), READONLY, doc}
#define FIT_N(name, doc) \
  {#name, T_PYSSIZET, offsetof(sp_noise_fit, fit) + offsetof(sensim_noise_fit, name), READONLY, doc}
_Static_assert(sizeof(size_t) == sizeof(Py_ssize_t), "size_t members read as Py_ssize_t");

static PyMemberDef noise_fit_members[] = {
    FIT_D(s1, "sqrt(a), units^(1/2) (0 when a < 0)"),
    FIT_D(s2, "sqrt(b), units (0 when b < 0)"),
    FIT_D(a, "slope of var = a I + b, units"),
    FIT_D(b, "intercept, units^2"),
    FIT_D(a_std, "standard error of a"),
    FIT_D(b_std, "standard error of b"),
    FIT_D(chi2, "weighted sum of squared bin residuals"),
    FIT_D(chi2_dof, "chi2 / (bins - 2), near 1 when the model fits"),
    FIT_D(quant_var, "LSB^2 / 12 of 8/16-bit inputs (included in b), else 0"),
    {"clamped", T_INT, offsetof(sp_noise_fit, fit) + offsetof(sensim_noise_fit, clamped), READONLY,
     "bit 0: a < 0 was clamped; bit 1: b < 0"},
    FIT_N(nframes, "frames in the stack"),
    FIT_N(nvalues, "values per frame"),
    FIT_N(nrejected, "values left out as outliers"),
    FIT_N(nbins_used, "bins holding values"),
    {NULL, 0, 0, 0, NULL}};

static PyGetSetDef noise_fit_getset[] = {
    {"bins", noise_fit_bins, NULL,
     "The bins used, by mean: dict of arrays mean, var, var_model, var_std, count.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyMethodDef noise_fit_methods[] = {
    {"plot_png", (PyCFunction)(void (*)(void))noise_fit_plot_png, METH_VARARGS | METH_KEYWORDS,
     "plot_png($self, path, title=None)\n--\n\n"
     "plot_png(path, title=None)\nThe photon-transfer plot (variance against mean, the fit,\n"
     "the quantisation floor) as an 800 x 500 PNG."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject sp_NoiseFitType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sensim.NoiseFit",
    .tp_basicsize = sizeof(sp_noise_fit),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A fit of sigma^2(I) = s1^2 I + s2^2 (noise_calib_* functions make it).",
    .tp_repr = noise_fit_repr,
    .tp_members = noise_fit_members,
    .tp_getset = noise_fit_getset,
    .tp_methods = noise_fit_methods,
};

static PyObject *fit_result(sensim_status st, const sensim_noise_fit *fit) {
  return st != SENSIM_OK ? sp_raise(st) : noise_fit_new(fit);
}

/* noise_calib_fit(frames, nbins=0): frames (N, ...) of a static scene. */
static PyObject *t_noise_calib_fit(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"frames", "nbins", NULL};
  PyObject *fo;
  Py_ssize_t nbins = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|n:noise_calib_fit", kwlist, &fo, &nbins)) return NULL;
  if (nbins < 0) return PyErr_Format(PyExc_ValueError, "noise_calib_fit: nbins must be >= 0");
  PyObject *a = PyArray_FROMANY(fo, NPY_FLOAT32, 2, 0, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED | NPY_ARRAY_FORCECAST);
  if (!a) return NULL;
  PyArrayObject *arr = (PyArrayObject *)a;
  size_t nf = (size_t)PyArray_DIM(arr, 0);
  size_t nv = nf ? (size_t)PyArray_SIZE(arr) / nf : 0;
  const float **frames = PyMem_Malloc((nf ? nf : 1) * sizeof *frames);
  sp_noise_fit *res = NULL;
  if (!frames) {
    PyErr_NoMemory();
  } else {
    for (size_t i = 0; i < nf; i++) frames[i] = (const float *)PyArray_DATA(arr) + i * nv;
    sensim_noise_fit *fit = PyMem_Malloc(sizeof *fit);
    if (!fit) {
      PyErr_NoMemory();
    } else {
      sensim_status st;
      Py_BEGIN_ALLOW_THREADS
      st = sensim_noise_calib_fit(frames, nf, nv, (size_t)nbins, fit);
      Py_END_ALLOW_THREADS
      res = (sp_noise_fit *)fit_result(st, fit);
      PyMem_Free(fit);
    }
  }
  PyMem_Free(frames);
  Py_DECREF(a);
  return (PyObject *)res;
}

static PyObject *t_noise_calib_fit_moments(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"mean", "var", "nframes", "nbins", NULL};
  PyObject *mo, *vo;
  Py_ssize_t nframes, nbins = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OOn|n:noise_calib_fit_moments", kwlist, &mo, &vo,
                                   &nframes, &nbins))
    return NULL;
  if (nframes < 0 || nbins < 0)
    return PyErr_Format(PyExc_ValueError, "noise_calib_fit_moments: nframes and nbins must be >= 0");
  PyObject *m = sp_tools_doubles(mo, 1, 1, "noise_calib_fit_moments: mean");
  PyObject *v = m ? sp_tools_doubles(vo, 1, 1, "noise_calib_fit_moments: var") : NULL;
  PyObject *res = NULL;
  sensim_noise_fit *fit = v ? PyMem_Malloc(sizeof *fit) : NULL;
  if (v && !fit) PyErr_NoMemory();
  if (fit) {
    size_t n = (size_t)PyArray_DIM((PyArrayObject *)m, 0);
    if ((size_t)PyArray_DIM((PyArrayObject *)v, 0) != n) {
      PyErr_SetString(PyExc_ValueError, "noise_calib_fit_moments: mean and var differ in length");
    } else {
      sensim_status st;
      const double *md = PyArray_DATA((PyArrayObject *)m), *vd = PyArray_DATA((PyArrayObject *)v);
      Py_BEGIN_ALLOW_THREADS
      st = sensim_noise_calib_fit_moments(md, vd, n, (size_t)nframes, (size_t)nbins, fit);
      Py_END_ALLOW_THREADS
      res = fit_result(st, fit);
    }
  }
  PyMem_Free(fit);
  Py_XDECREF(m);
  Py_XDECREF(v);
  return res;
}

static PyObject *t_noise_calib_pngs(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"dir", "nbins", NULL};
  PyObject *dir = NULL;
  Py_ssize_t nbins = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|n:noise_calib_pngs", kwlist, PyUnicode_FSConverter,
                                   &dir, &nbins))
    return NULL;
  PyObject *res = NULL;
  sensim_noise_fit *fit = PyMem_Malloc(sizeof *fit);
  if (nbins < 0) {
    PyErr_SetString(PyExc_ValueError, "noise_calib_pngs: nbins must be >= 0");
  } else if (!fit) {
    PyErr_NoMemory();
  } else {
    const char *d = PyBytes_AS_STRING(dir);
    sensim_status st;
    Py_BEGIN_ALLOW_THREADS
    st = sensim_noise_calib_pngs(d, (size_t)nbins, fit);
    Py_END_ALLOW_THREADS
    res = fit_result(st, fit);
  }
  PyMem_Free(fit);
  Py_DECREF(dir);
  return res;
}

static PyObject *t_noise_calib_scenario(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"scenario", "sensor", "nframes", "nbins", NULL};
  PyObject *so;
  const char *sensor;
  Py_ssize_t nframes, nbins = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "Osn|n:noise_calib_scenario", kwlist, &so, &sensor,
                                   &nframes, &nbins))
    return NULL;
  if (nframes < 0 || nbins < 0)
    return PyErr_Format(PyExc_ValueError, "noise_calib_scenario: nframes and nbins must be >= 0");
  sensim_noise_fit *fit = PyMem_Malloc(sizeof *fit);
  if (!fit) return PyErr_NoMemory();
  sensim_scenario *scn = sp_scenario_begin(so);
  PyObject *res = NULL;
  if (scn) {
    sensim_status st;
    Py_BEGIN_ALLOW_THREADS
    st = sensim_noise_calib_scenario(scn, sensor, (size_t)nframes, (size_t)nbins, fit);
    Py_END_ALLOW_THREADS
    if (sp_scenario_end(so) == 0) res = fit_result(st, fit);
  }
  PyMem_Free(fit);
  return res;
}

/* ---- tables ------------------------------------------------------------------ */

static PyObject *t_table_read(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"path", "allow_nonfinite", NULL};
  PyObject *path = NULL;
  int allow = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|p:table_read", kwlist, PyUnicode_FSConverter, &path,
                                   &allow))
    return NULL;
  sensim_table t;
  memset(&t, 0, sizeof t);
  const char *p = PyBytes_AS_STRING(path);
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_table_read(p, allow, &t);
  Py_END_ALLOW_THREADS
  Py_DECREF(path);
  if (st != SENSIM_OK) return sp_raise(st);
  PyObject *d = PyDict_New();
  for (size_t c = 0; d && c < t.ncols; c++) {
    npy_intp n = (npy_intp)t.nrows;
    PyObject *a = PyArray_SimpleNew(1, &n, NPY_FLOAT64);
    if (a)
      for (size_t r = 0; r < t.nrows; r++)
        ((double *)PyArray_DATA((PyArrayObject *)a))[r] = t.v[r * t.ncols + c];
    if (!a || PyDict_SetItemString(d, t.names[c], a) != 0) Py_CLEAR(d);
    Py_XDECREF(a);
  }
  sensim_table_free(&t);
  return d;
}

#define KW (PyCFunction)(void (*)(void))

static PyMethodDef stats_functions[] = {
    {"allan_deviation", KW t_allan_deviation, METH_VARARGS | METH_KEYWORDS,
     "allan_deviation($module, y, tau0, ms=None, per_decade=10)\n--\n\n"
     "allan_deviation(y, tau0, ms=None, per_decade=10) -> dict(tau, adev, m)\n"
     "Overlapping Allan deviation (IEEE Std 952-1997, Annex C) of a rate signal sampled every\n"
     "tau0 s: y of shape (n,) or (n, k) (k columns, e.g. the three gyro axes) gives adev (nm,)\n"
     "or (nm, k) at tau = m tau0 (s), for the factors ms (None: ~per_decade per decade)."},
    {"allan_log_factors", KW t_allan_log_factors, METH_VARARGS | METH_KEYWORDS,
     "allan_log_factors($module, n, per_decade=10)\n--\n\n"
     "allan_log_factors(n, per_decade=10) -> int64 array\nAveraging factors 1 .. (n - 1) / 2,\n"
     "evenly spaced in log m."},
    {"allan_fit_lines", t_allan_fit_lines, METH_VARARGS,
     "allan_fit_lines($module, tau, adev, /)\n--\n\n"
     "allan_fit_lines(tau, adev) -> dict(n, k, tau_n, tau_k, slope_n, slope_k)\n"
     "White-noise coefficient N (slope -1/2 line at tau = 1 s, unit*sqrt(s)) and random-walk\n"
     "coefficient K (slope +1/2 line at tau = 3 s, unit/sqrt(s)); NaN where no such region."},
    {"wiener_entropy", t_wiener_entropy, METH_O,
     "wiener_entropy($module, x, /)\n--\n\n"
     "wiener_entropy(x) -> float\nSpectral flatness of n >= 3 samples, in [0, 1] (about 0.8455\n"
     "for white Gaussian noise, 0 for a pure tone)."},
    {"wasserstein1", t_wasserstein1, METH_VARARGS,
     "wasserstein1($module, a, b, /)\n--\n\n"
     "wasserstein1(a, b) -> float\nWasserstein-1 distance of two 1-D empirical distributions."},
    {"noise_calib_fit", KW t_noise_calib_fit, METH_VARARGS | METH_KEYWORDS,
     "noise_calib_fit($module, frames, nbins=0)\n--\n\n"
     "noise_calib_fit(frames, nbins=0) -> NoiseFit\nsigma^2(I) = s1^2 I + s2^2 from a stack of\n"
     "N >= 2 frames of a static scene, shape (N, ...) (each frame's values flattened); nbins\n"
     "0: 32."},
    {"noise_calib_fit_moments", KW t_noise_calib_fit_moments, METH_VARARGS | METH_KEYWORDS,
     "noise_calib_fit_moments($module, mean, var, nframes, nbins=0)\n--\n\n"
     "noise_calib_fit_moments(mean, var, nframes, nbins=0) -> NoiseFit\nThe same fit from\n"
     "per-value means and unbiased variances over nframes frames."},
    {"noise_calib_pngs", KW t_noise_calib_pngs, METH_VARARGS | METH_KEYWORDS,
     "noise_calib_pngs($module, dir, nbins=0)\n--\n\n"
     "noise_calib_pngs(dir, nbins=0) -> NoiseFit\nThe fit on every *.png of a folder (values\n"
     "in [0, 1] of full scale)."},
    {"noise_calib_scenario", KW t_noise_calib_scenario, METH_VARARGS | METH_KEYWORDS,
     "noise_calib_scenario($module, scenario, sensor, nframes, nbins=0)\n--\n\n"
     "noise_calib_scenario(scenario, sensor, nframes, nbins=0) -> NoiseFit\nSteps a Scenario\n"
     "(nothing may move) until camera `sensor` delivered nframes frames and fits on them. The\n"
     "scenario cannot be run or stepped afterwards."},
    {"table_read", KW t_table_read, METH_VARARGS | METH_KEYWORDS,
     "table_read($module, path, allow_nonfinite=False)\n--\n\n"
     "table_read(path, allow_nonfinite=False) -> dict name -> float64 array\nA numeric CSV as\n"
     "sensim writes them (GNSS, IMU recordings; VEPD runs), column by column in file order."},
    {NULL, NULL, 0, NULL}};

int sp_tools_init(PyObject *m) {
  if (PyModule_AddFunctions(m, stats_functions) < 0) return -1;
  if (PyType_Ready(&sp_NoiseFitType) < 0) return -1;
  Py_INCREF(&sp_NoiseFitType);
  if (PyModule_AddObject(m, "NoiseFit", (PyObject *)&sp_NoiseFitType) < 0) {
    Py_DECREF(&sp_NoiseFitType);
    return -1;
  }
  if (sp_tools_vepd_init(m) < 0 || sp_tools_ekf_init(m) < 0 || sp_tools_ablate_init(m) < 0 ||
      sp_tools_images_init(m) < 0 || sp_tools_draw_init(m) < 0 || sp_tools_sweep_init(m) < 0 ||
      sp_tools_published_init(m) < 0)
    return -1;
  return 0;
}
