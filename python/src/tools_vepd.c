/* python/src/tools_vepd.c: the tools for Python, part 2: the VEPD
 * sim-to-real metric of GNSS/IMU models (sensim_tools/vepd.h): runs as
 * dicts of arrays {t, v_est, v_true}, their metrics and files, and the
 * experiment. Its judge, the EKF, is tools_ekf.c. docs/vepd.md has the
 * method. */
#include "module.h"

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL sensim_ARRAY_API
#include <numpy/arrayobject.h>

#include <math.h>
#include <stdlib.h>
#include <sensim_tools/sensim_tools.h>

#define ARR(o) ((PyArrayObject *)(o))

/* ---- runs ------------------------------------------------------------------ */

/* A run from a dict {t, v_est, v_true} or a tuple (t, v_est, v_true):
 * v of shape (n,) (dim 1) or (n, dim). The arrays it points into are
 * appended to `keep` (a list the caller owns). */
static int run_from(PyObject *o, sensim_vepd_run *run, PyObject *keep, const char *what) {
  PyObject *t, *e, *v;
  if (PyDict_Check(o)) {
    t = PyDict_GetItemString(o, "t");
    e = PyDict_GetItemString(o, "v_est");
    v = PyDict_GetItemString(o, "v_true");
  } else if (PyTuple_Check(o) && PyTuple_GET_SIZE(o) == 3) {
    t = PyTuple_GET_ITEM(o, 0);
    e = PyTuple_GET_ITEM(o, 1);
    v = PyTuple_GET_ITEM(o, 2);
  } else {
    PyErr_Format(PyExc_TypeError, "%s: a run is a dict {t, v_est, v_true} or a tuple of 3 arrays",
                 what);
    return -1;
  }
  if (!t || !e || !v) {
    PyErr_Format(PyExc_KeyError, "%s: a run needs the keys t, v_est and v_true", what);
    return -1;
  }
  PyObject *ta = sp_tools_doubles(t, 1, 1, what);
  PyObject *ea = ta ? sp_tools_doubles(e, 1, 2, what) : NULL;
  PyObject *va = ea ? sp_tools_doubles(v, 1, 2, what) : NULL;
  int r = -1;
  if (va) {
    npy_intp n = PyArray_DIM(ARR(ta), 0);
    npy_intp dim = PyArray_NDIM(ARR(ea)) == 2 ? PyArray_DIM(ARR(ea), 1) : 1;
    if (PyArray_DIM(ARR(ea), 0) != n || PyArray_NDIM(ARR(ea)) != PyArray_NDIM(ARR(va)) ||
        PyArray_SIZE(ARR(ea)) != PyArray_SIZE(ARR(va))) {
      PyErr_Format(PyExc_ValueError, "%s: t (n,), v_est and v_true ((n,) or (n, dim)) disagree in shape",
                   what);
    } else if (PyList_Append(keep, ta) == 0 && PyList_Append(keep, ea) == 0 &&
               PyList_Append(keep, va) == 0) {
      run->n = (size_t)n;
      run->dim = (size_t)dim;
      run->t = PyArray_DATA(ARR(ta));
      run->v_est = PyArray_DATA(ARR(ea));
      run->v_true = PyArray_DATA(ARR(va));
      r = 0;
    }
  }
  Py_XDECREF(ta);
  Py_XDECREF(ea);
  Py_XDECREF(va);
  return r;
}

/* A dict of copies of a run's arrays. */
static PyObject *run_to(const sensim_vepd_run *run) {
  npy_intp n = (npy_intp)run->n, dims[2] = {n, (npy_intp)run->dim};
  int nd = run->dim == 1 ? 1 : 2;
  PyObject *t = PyArray_SimpleNew(1, &n, NPY_FLOAT64);
  PyObject *e = PyArray_SimpleNew(nd, dims, NPY_FLOAT64);
  PyObject *v = PyArray_SimpleNew(nd, dims, NPY_FLOAT64);
  PyObject *res = NULL;
  if (t && e && v) {
    memcpy(PyArray_DATA(ARR(t)), run->t, run->n * sizeof(double));
    memcpy(PyArray_DATA(ARR(e)), run->v_est, run->n * run->dim * sizeof(double));
    memcpy(PyArray_DATA(ARR(v)), run->v_true, run->n * run->dim * sizeof(double));
    res = Py_BuildValue("{s:O,s:O,s:O}", "t", t, "v_est", e, "v_true", v);
  }
  Py_XDECREF(t);
  Py_XDECREF(e);
  Py_XDECREF(v);
  return res;
}

static PyObject *metrics_to(const sensim_vepd_run_metrics *m) {
  return Py_BuildValue("{s:d,s:d,s:d,s:d}", "rmse", m->rmse, "h_est", m->h_est, "h_true", m->h_true,
                       "h_diff", m->h_diff);
}

static PyObject *t_vepd_run_metrics(PyObject *self, PyObject *arg) {
  (void)self;
  PyObject *keep = PyList_New(0);
  if (!keep) return NULL;
  sensim_vepd_run run;
  sensim_vepd_run_metrics m;
  PyObject *res = NULL;
  if (run_from(arg, &run, keep, "vepd_run_metrics") == 0) {
    sensim_status st = sensim_vepd_run_metrics_compute(&run, &m);
    res = st != SENSIM_OK ? sp_raise(st) : metrics_to(&m);
  }
  Py_DECREF(keep);
  return res;
}

/* runs from a sequence of runs; *out PyMem-allocated. */
static int runs_from(PyObject *o, sensim_vepd_run **out, size_t *n, PyObject *keep, const char *what) {
  PyObject *seq = PySequence_Fast(o, "vepd: a set of runs is a sequence of runs");
  if (!seq) return -1;
  Py_ssize_t k = PySequence_Fast_GET_SIZE(seq);
  sensim_vepd_run *runs = PyMem_Calloc(k ? (size_t)k : 1, sizeof *runs);
  int r = runs ? 0 : -1;
  if (!runs) PyErr_NoMemory();
  for (Py_ssize_t i = 0; r == 0 && i < k; i++)
    r = run_from(PySequence_Fast_GET_ITEM(seq, i), &runs[i], keep, what);
  Py_DECREF(seq);
  if (r != 0) {
    PyMem_Free(runs);
    return -1;
  }
  *out = runs;
  *n = (size_t)k;
  return 0;
}

static PyObject *metrics_list(const sensim_vepd_run_metrics *m, size_t n) {
  PyObject *l = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; l && i < n; i++) {
    PyObject *d = metrics_to(&m[i]);
    if (!d) {
      Py_CLEAR(l);
      break;
    }
    PyList_SET_ITEM(l, (Py_ssize_t)i, d);
  }
  return l;
}

static PyObject *t_vepd(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *ao, *bo;
  if (!PyArg_ParseTuple(args, "OO:vepd", &ao, &bo)) return NULL;
  PyObject *keep = PyList_New(0), *res = NULL;
  sensim_vepd_run *a = NULL, *b = NULL;
  sensim_vepd_run_metrics *ma = NULL, *mb = NULL;
  size_t na = 0, nb = 0;
  if (!keep || runs_from(ao, &a, &na, keep, "vepd: runs_a") != 0 ||
      runs_from(bo, &b, &nb, keep, "vepd: runs_b") != 0)
    goto done;
  ma = PyMem_Calloc(na ? na : 1, sizeof *ma);
  mb = PyMem_Calloc(nb ? nb : 1, sizeof *mb);
  if (!ma || !mb) {
    PyErr_NoMemory();
    goto done;
  }
  sensim_vepd_result r;
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_vepd_compute(a, na, b, nb, &r, ma, mb);
  Py_END_ALLOW_THREADS
  if (st != SENSIM_OK) {
    sp_raise(st);
    goto done;
  }
  res = Py_BuildValue("{s:d,s:d,s:d,s:(dd),s:(dd),s:N,s:N}", "w1", r.w1, "w2", r.w2, "vepd", r.vepd,
                      "rmse_mean", r.rmse_mean[0], r.rmse_mean[1], "h_diff_mean", r.h_diff_mean[0],
                      r.h_diff_mean[1], "metrics_a", metrics_list(ma, na), "metrics_b",
                      metrics_list(mb, nb));
done:
  PyMem_Free(a);
  PyMem_Free(b);
  PyMem_Free(ma);
  PyMem_Free(mb);
  Py_XDECREF(keep);
  return res;
}

static PyObject *t_vepd_run_read(PyObject *self, PyObject *arg) {
  (void)self;
  PyObject *path = NULL;
  if (!PyUnicode_FSConverter(arg, &path)) return NULL;
  sensim_vepd_run run;
  memset(&run, 0, sizeof run);
  const char *p = PyBytes_AS_STRING(path);
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_vepd_run_read(p, &run);
  Py_END_ALLOW_THREADS
  Py_DECREF(path);
  if (st != SENSIM_OK) return sp_raise(st);
  PyObject *res = run_to(&run);
  sensim_vepd_run_free(&run);
  return res;
}

static PyObject *t_vepd_runs_read_dir(PyObject *self, PyObject *arg) {
  (void)self;
  PyObject *path = NULL;
  if (!PyUnicode_FSConverter(arg, &path)) return NULL;
  sensim_vepd_run *runs = NULL;
  size_t n = 0;
  const char *p = PyBytes_AS_STRING(path);
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_vepd_runs_read_dir(p, &runs, &n);
  Py_END_ALLOW_THREADS
  Py_DECREF(path);
  if (st != SENSIM_OK) return sp_raise(st);
  PyObject *l = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; l && i < n; i++) {
    PyObject *d = run_to(&runs[i]);
    if (!d) {
      Py_CLEAR(l);
      break;
    }
    PyList_SET_ITEM(l, (Py_ssize_t)i, d);
  }
  sensim_vepd_runs_free(runs, n);
  return l;
}

static PyObject *t_vepd_run_write(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *path = NULL, *ro;
  if (!PyArg_ParseTuple(args, "O&O:vepd_run_write", PyUnicode_FSConverter, &path, &ro)) return NULL;
  PyObject *keep = PyList_New(0), *res = NULL;
  sensim_vepd_run run;
  if (keep && run_from(ro, &run, keep, "vepd_run_write") == 0) {
    const char *p = PyBytes_AS_STRING(path);
    sensim_status st;
    Py_BEGIN_ALLOW_THREADS
    st = sensim_vepd_run_write(p, &run);
    Py_END_ALLOW_THREADS
    res = st != SENSIM_OK ? sp_raise(st) : Py_NewRef(Py_None);
  }
  Py_XDECREF(keep);
  Py_DECREF(path);
  return res;
}

/* ---- the experiment ------------------------------------------------------------ */

/* JSON text of a dict / str (None: NULL), kept alive in `keep`. */
static int json_arg(PyObject *o, const char **out, PyObject *keep) {
  *out = NULL;
  if (!o || o == Py_None) return 0;
  if (PyUnicode_Check(o)) {
    *out = PyUnicode_AsUTF8(o);
    return *out ? 0 : -1;
  }
  PyObject *holder = NULL;
  if (sp_json_dumps(o, &holder, out) != 0) return -1;
  int r = holder ? PyList_Append(keep, holder) : 0;
  Py_XDECREF(holder);
  return r;
}

static const char *str_arg(PyObject *o, PyObject *keep, const char *what) {
  PyObject *b = NULL;
  if (!PyUnicode_Check(o)) {
    if (!PyUnicode_FSConverter(o, &b)) return NULL;
  } else {
    b = PyUnicode_AsUTF8String(o);
    if (!b) return NULL;
  }
  (void)what;
  int r = PyList_Append(keep, b);
  Py_DECREF(b);
  return r == 0 ? PyBytes_AS_STRING(b) : NULL;
}

/* A variant: {"name": str, "filters": [name or (name, params), ...]}. */
static int variant_from(PyObject *o, sensim_vepd_variant *v, PyObject *keep) {
  memset(v, 0, sizeof *v);
  PyObject *name = PyDict_Check(o) ? PyDict_GetItemString(o, "name") : NULL;
  PyObject *filters = PyDict_Check(o) ? PyDict_GetItemString(o, "filters") : NULL;
  if (!name || !filters) {
    PyErr_SetString(PyExc_TypeError, "a VEPD variant is a dict {\"name\": str, \"filters\": [name or "
                                     "(name, params), ...]}");
    return -1;
  }
  if (!(v->name = str_arg(name, keep, "variant name"))) return -1;
  PyObject *seq = PySequence_Fast(filters, "a variant's filters are a sequence");
  if (!seq) return -1;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  int r = 0;
  if (n < 1 || n > SENSIM_VEPD_MAX_CHAIN) {
    PyErr_Format(PyExc_ValueError, "a VEPD variant has 1 to %d filters", (int)SENSIM_VEPD_MAX_CHAIN);
    r = -1;
  }
  for (Py_ssize_t i = 0; r == 0 && i < n; i++) {
    PyObject *f = PySequence_Fast_GET_ITEM(seq, i), *fp = Py_None;
    if (PyTuple_Check(f) && PyTuple_GET_SIZE(f) == 2) {
      fp = PyTuple_GET_ITEM(f, 1);
      f = PyTuple_GET_ITEM(f, 0);
    }
    if (!(v->filters[i] = str_arg(f, keep, "filter name")) || json_arg(fp, &v->params[i], keep) != 0)
      r = -1;
  }
  v->nfilters = (size_t)n;
  Py_DECREF(seq);
  return r;
}

/* Experiment parameters from a dict of keyword arguments (None: defaults). */
static int exp_params_from(PyObject *d, sensim_vepd_experiment_params *p, PyObject *keep) {
  sensim_vepd_experiment_params_init(p);
  if (!d || d == Py_None) return 0;
  if (!PyDict_Check(d)) {
    PyErr_SetString(PyExc_TypeError, "VEPD experiment parameters are a dict");
    return -1;
  }
  PyObject *k, *v;
  Py_ssize_t pos = 0;
  while (PyDict_Next(d, &pos, &k, &v)) {
    const char *n = PyUnicode_Check(k) ? PyUnicode_AsUTF8(k) : "";
    if (!n) return -1;
    double x = 0;
    int is_num = !strcmp(n, "duration") || !strcmp(n, "host_rate") || !strcmp(n, "gnss_rate") ||
                 !strcmp(n, "imu_rate") || !strcmp(n, "runs") || !strcmp(n, "seed") ||
                 !strcmp(n, "reference_variant");
    if (is_num) {
      x = PyFloat_AsDouble(v);
      if (x == -1.0 && PyErr_Occurred()) return -1;
      if (!isfinite(x) || ((!strcmp(n, "runs") || !strcmp(n, "seed") || !strcmp(n, "reference_variant")) &&
                           (x < 0 || x != floor(x) || x > 1e15))) {
        PyErr_Format(PyExc_ValueError, "VEPD parameter %s: bad value %R", n, v);
        return -1;
      }
    }
    if (!strcmp(n, "runs")) p->runs = (size_t)x;
    else if (!strcmp(n, "duration")) p->duration = x;
    else if (!strcmp(n, "host_rate")) p->host_rate = x;
    else if (!strcmp(n, "gnss_rate")) p->gnss_rate = x;
    else if (!strcmp(n, "imu_rate")) p->imu_rate = x;
    else if (!strcmp(n, "seed")) p->seed = (uint64_t)x;
    else if (!strcmp(n, "reference_variant")) p->reference_variant = (int)x;
    else if (!strcmp(n, "imu_noise")) {
      if (json_arg(v, &p->imu_noise, keep) != 0) return -1;
    } else if (!strcmp(n, "reference_dir") || !strcmp(n, "out_dir")) {
      const char *s = v == Py_None ? NULL : str_arg(v, keep, n);
      if (v != Py_None && !s) return -1;
      if (n[0] == 'r') p->reference_dir = s;
      else p->out_dir = s;
    } else if (!strcmp(n, "entropy_bins")) {
      const char *b = PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;
      if (b && !strcmp(b, "all")) {
        p->entropy_bins = SENSIM_ENTROPY_ALL_BINS;
      } else if (b && !strcmp(b, "fluctuation")) {
        p->entropy_bins = SENSIM_ENTROPY_FLUCTUATION;
      } else {
        if (!PyErr_Occurred())
          PyErr_Format(PyExc_ValueError, "VEPD parameter entropy_bins: %R is not 'all' or 'fluctuation'", v);
        return -1;
      }
    } else if (!strcmp(n, "ekf")) {
      if (sp_tools_ekf_params(v, &p->ekf) != 0) return -1;
    } else if (!strcmp(n, "variants")) {
      PyObject *seq = PySequence_Fast(v, "variants must be a sequence of variant dicts");
      if (!seq) return -1;
      Py_ssize_t nv = PySequence_Fast_GET_SIZE(seq);
      int r = 0;
      if (nv < 1 || nv > SENSIM_VEPD_MAX_VARIANTS) {
        PyErr_Format(PyExc_ValueError, "1 to %d VEPD variants", (int)SENSIM_VEPD_MAX_VARIANTS);
        r = -1;
      }
      for (Py_ssize_t i = 0; r == 0 && i < nv; i++)
        r = variant_from(PySequence_Fast_GET_ITEM(seq, i), &p->variants[i], keep);
      if (r == 0) p->nvariants = (size_t)nv;
      Py_DECREF(seq);
      if (r != 0) return -1;
    } else {
      PyErr_Format(PyExc_TypeError,
                   "unknown VEPD experiment parameter %R (known: runs, duration, host_rate, gnss_rate, "
                   "imu_rate, imu_noise, seed, variants, reference_variant, reference_dir, out_dir, ekf, "
                   "entropy_bins)",
                   k);
      return -1;
    }
  }
  return 0;
}

static PyObject *cell_to(const sensim_vepd_cell *c) {
  sensim_vepd_result nan_result;
  const sensim_vepd_result *r = &c->result;
  if (c->status != SENSIM_OK) { /* a cell left out has no numbers */
    double q = Py_NAN;
    nan_result = (sensim_vepd_result){q, q, q, {q, q}, {q, q}};
    r = &nan_result;
  }
  return Py_BuildValue("{s:i,s:d,s:d,s:d,s:(dd),s:(dd)}", "status", c->status, "w1", r->w1, "w2", r->w2,
                       "vepd", r->vepd, "rmse_mean", r->rmse_mean[0], r->rmse_mean[1], "h_diff_mean",
                       r->h_diff_mean[0], r->h_diff_mean[1]);
}

static PyObject *t_vepd_experiment(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  if (PyTuple_GET_SIZE(args) != 0)
    return PyErr_Format(PyExc_TypeError, "vepd_experiment takes keyword arguments only");
  PyObject *keep = PyList_New(0), *res = NULL;
  sensim_vepd_experiment_params *p = PyMem_Malloc(sizeof *p);
  sensim_vepd_experiment_result *r = PyMem_Malloc(sizeof *r);
  if (!keep || !p || !r) {
    if (!PyErr_Occurred()) PyErr_NoMemory();
    goto done;
  }
  if (exp_params_from(kw, p, keep) != 0) goto done;
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_vepd_experiment_run(p, r);
  Py_END_ALLOW_THREADS
  if (st != SENSIM_OK) {
    sp_raise(st);
    goto done;
  }
  res = PyDict_New();
  for (size_t i = 0; res && i < r->nvariants; i++) {
    PyObject *row = PyDict_New();
    for (int m = 0; row && m < SENSIM_VEPD_MANOEUVRES; m++) {
      PyObject *c = cell_to(&r->cell[i][m]);
      if (!c || PyDict_SetItemString(row, sensim_vepd_manoeuvre_name((sensim_vepd_manoeuvre)m), c) != 0)
        Py_CLEAR(row);
      Py_XDECREF(c);
    }
    if (!row || PyDict_SetItemString(res, p->variants[i].name, row) != 0) Py_CLEAR(res);
    Py_XDECREF(row);
  }
done:
  PyMem_Free(p);
  PyMem_Free(r);
  Py_XDECREF(keep);
  return res;
}

static PyObject *t_vepd_simulate_run(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"variant", "manoeuvre", "seed", "params", NULL};
  PyObject *vo, *po = Py_None;
  const char *mname;
  uint64_t seed = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "Os|O&O:vepd_simulate_run", kwlist, &vo, &mname,
                                   sp_seed_converter, &seed, &po))
    return NULL;
  int m = 0;
  while (m < SENSIM_VEPD_MANOEUVRES && strcmp(sensim_vepd_manoeuvre_name((sensim_vepd_manoeuvre)m), mname))
    m++;
  if (m == SENSIM_VEPD_MANOEUVRES) {
    sensim_error_set(SENSIM_ENOTFOUND, "vepd_simulate_run: unknown manoeuvre '%s' (%s, %s, %s)", mname,
                     sensim_vepd_manoeuvre_name(SENSIM_VEPD_STRAIGHT),
                     sensim_vepd_manoeuvre_name(SENSIM_VEPD_CIRCLE),
                     sensim_vepd_manoeuvre_name(SENSIM_VEPD_HALF_SINE));
    return sp_raise(SENSIM_ENOTFOUND);
  }
  PyObject *keep = PyList_New(0), *res = NULL;
  sensim_vepd_experiment_params *p = PyMem_Malloc(sizeof *p);
  sensim_vepd_variant v;
  if (!keep || !p) {
    if (!PyErr_Occurred()) PyErr_NoMemory();
  } else if (exp_params_from(po, p, keep) == 0 && variant_from(vo, &v, keep) == 0) {
    sensim_vepd_run run;
    memset(&run, 0, sizeof run);
    sensim_status st;
    Py_BEGIN_ALLOW_THREADS
    st = sensim_vepd_simulate_run(p, &v, (sensim_vepd_manoeuvre)m, (uint64_t)seed, &run);
    Py_END_ALLOW_THREADS
    if (st != SENSIM_OK)
      sp_raise(st);
    else
      res = run_to(&run);
    sensim_vepd_run_free(&run);
  }
  PyMem_Free(p);
  Py_XDECREF(keep);
  return res;
}

#define KW (PyCFunction)(void (*)(void))

static PyMethodDef vepd_functions[] = {
    {"vepd_run_metrics", t_vepd_run_metrics, METH_O,
     "vepd_run_metrics($module, run, /)\n--\n\n"
     "vepd_run_metrics(run) -> dict(rmse, h_est, h_true, h_diff)\nOne run's velocity RMSE (m/s)\n"
     "and Wiener entropies; a run is {t, v_est, v_true} (v (n,) or (n, 2|3)) or a 3-tuple."},
    {"vepd", t_vepd, METH_VARARGS,
     "vepd($module, runs_a, runs_b, /)\n--\n\n"
     "vepd(runs_a, runs_b) -> dict(w1, w2, vepd, rmse_mean, h_diff_mean, metrics_a, metrics_b)\n"
     "VEPD between a reference set (real) and a simulated set of runs (Mahajan et al. 2024)."},
    {"vepd_run_read", t_vepd_run_read, METH_O, "vepd_run_read($module, path, /)\n--\n\n"
     "vepd_run_read(path) -> run dict\nA run CSV."},
    {"vepd_run_write", t_vepd_run_write, METH_VARARGS,
     "vepd_run_write($module, path, run, /)\n--\n\n"
     "vepd_run_write(path, run)\nWrite a run CSV (all or nothing)."},
    {"vepd_runs_read_dir", t_vepd_runs_read_dir, METH_O,
     "vepd_runs_read_dir($module, dir, /)\n--\n\n"
     "vepd_runs_read_dir(dir) -> list of run dicts\nEvery *.csv in the folder, by name."},
    {"vepd_experiment", KW t_vepd_experiment, METH_VARARGS | METH_KEYWORDS,
     "vepd_experiment($module, /, **params)\n--\n\n"
     "vepd_experiment(**params) -> {variant: {manoeuvre: dict(status, w1, w2, vepd, ...)}}\n"
     "The published experiment: runs, duration, host_rate, gnss_rate, imu_rate, imu_noise (dict),\n"
     "seed, variants ([{name, filters: [name or (name, params)]}]), reference_variant,\n"
     "reference_dir, out_dir, ekf (dict), entropy_bins ('all', the paper's Eq. 2, default, or\n"
     "'fluctuation'). status is 0 or the sensim status of a cell left out."},
    {"vepd_simulate_run", KW t_vepd_simulate_run, METH_VARARGS | METH_KEYWORDS,
     "vepd_simulate_run($module, variant, manoeuvre, seed=1, params=None)\n--\n\n"
     "vepd_simulate_run(variant, manoeuvre, seed=1, params=None) -> run dict\nOne simulated run\n"
     "(speed estimates and truth) of a variant on 'straight', 'circle' or 'half_sine'."},
    {NULL, NULL, 0, NULL}};

int sp_tools_vepd_init(PyObject *m) { return PyModule_AddFunctions(m, vepd_functions); }
