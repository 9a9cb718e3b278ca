/* python/src/tools_sweep.c: the tools for Python, part 7: sweeps
 * (sensim_tools/sweep.h, docs/sweep.md) as the type Sweep: load a sweep
 * file, list its runs, and execute, skip and reduce them with any
 * scheduler a Python program has (a loop, a process pool, a cluster's
 * job array); run() is the serial loop of `sensim sweep` alone. Executing
 * releases the GIL. */
#include "module.h"

#include <stdlib.h>
#include <sensim_tools/sensim_tools.h>

#define KW (PyCFunction)(void (*)(void))

typedef struct sp_sweep {
  PyObject_HEAD
  sensim_sweep *sweep;
} sp_sweep;

static int sweep_init(PyObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "text", "source", "base_dir", NULL};
  PyObject *path = NULL;
  const char *text = NULL, *source = NULL, *base = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|O&$zzz:Sweep", kwlist, PyUnicode_FSConverter, &path, &text, &source,
                                   &base))
    return -1;
  if ((path != NULL) == (text != NULL)) {
    Py_XDECREF(path);
    PyErr_SetString(PyExc_TypeError, "Sweep: give a file's path or text=, not both");
    return -1;
  }
  sensim_sweep *s = NULL;
  sensim_status st;
  const char *p = path ? PyBytes_AS_STRING(path) : NULL;
  Py_BEGIN_ALLOW_THREADS
  st = p ? sensim_sweep_load(p, &s) : sensim_sweep_load_string(text, source, base, &s);
  Py_END_ALLOW_THREADS
  Py_XDECREF(path);
  if (st != SENSIM_OK) return sp_raise_int(st);
  sensim_sweep_destroy(((sp_sweep *)self)->sweep);
  ((sp_sweep *)self)->sweep = s;
  return 0;
}

static void sweep_dealloc(PyObject *self) {
  sensim_sweep_destroy(((sp_sweep *)self)->sweep);
  Py_TYPE(self)->tp_free(self);
}

static sensim_sweep *sweep_ptr(PyObject *self) {
  sensim_sweep *s = ((sp_sweep *)self)->sweep;
  if (!s) sp_state_error("Sweep: not loaded (Sweep.__init__ was not called)");
  return s;
}

static Py_ssize_t sweep_len(PyObject *self) {
  sensim_sweep *s = sweep_ptr(self);
  return s ? (Py_ssize_t)sensim_sweep_run_count(s) : -1;
}

/* A run index in range from a Python int. */
static int run_index(sensim_sweep *s, PyObject *o, size_t *i) {
  Py_ssize_t v = PyNumber_AsSsize_t(o, PyExc_IndexError);
  if (v == -1 && PyErr_Occurred()) return -1;
  if (v < 0 || (size_t)v >= sensim_sweep_run_count(s)) {
    PyErr_Format(PyExc_IndexError, "run %zd is not in 0..%zu", v, sensim_sweep_run_count(s) - 1);
    return -1;
  }
  *i = (size_t)v;
  return 0;
}

static PyObject *sweep_label(PyObject *self, PyObject *arg) {
  sensim_sweep *s = sweep_ptr(self);
  size_t i;
  if (!s || run_index(s, arg, &i) != 0) return NULL;
  return PyUnicode_FromString(sensim_sweep_run_label(s, i));
}

static PyObject *sweep_run_dir(PyObject *self, PyObject *arg) {
  sensim_sweep *s = sweep_ptr(self);
  size_t i;
  char buf[32];
  if (!s || run_index(s, arg, &i) != 0) return NULL;
  sensim_status st = sensim_sweep_run_dir(i, buf, sizeof buf);
  return st != SENSIM_OK ? sp_raise(st) : PyUnicode_FromString(buf);
}

static PyObject *sweep_prepare(PyObject *self, PyObject *arg) {
  sensim_sweep *s = sweep_ptr(self);
  PyObject *dir = NULL;
  if (!s || !PyUnicode_FSConverter(arg, &dir)) return NULL;
  sensim_status st = sensim_sweep_prepare(s, PyBytes_AS_STRING(dir));
  Py_DECREF(dir);
  return st != SENSIM_OK ? sp_raise(st) : Py_NewRef(Py_None);
}

/* (out_dir, i) arguments. */
static int dir_and_run(PyObject *self, PyObject *args, const char *fmt, sensim_sweep **s, PyObject **dir, size_t *i) {
  PyObject *io;
  *s = sweep_ptr(self);
  if (!*s || !PyArg_ParseTuple(args, fmt, PyUnicode_FSConverter, dir, &io)) return -1;
  if (run_index(*s, io, i) != 0) {
    Py_CLEAR(*dir);
    return -1;
  }
  return 0;
}

static PyObject *sweep_complete(PyObject *self, PyObject *args) {
  sensim_sweep *s;
  PyObject *dir = NULL;
  size_t i;
  if (dir_and_run(self, args, "O&O:complete", &s, &dir, &i) != 0) return NULL;
  char *rec = NULL;
  int done = sensim_sweep_run_complete(s, PyBytes_AS_STRING(dir), i, &rec);
  Py_DECREF(dir);
  if (!done) Py_RETURN_NONE;
  PyObject *out = PyUnicode_FromString(rec);
  free(rec);
  return out;
}

static PyObject *sweep_execute(PyObject *self, PyObject *args) {
  sensim_sweep *s;
  PyObject *dir = NULL;
  size_t i;
  if (dir_and_run(self, args, "O&O:execute", &s, &dir, &i) != 0) return NULL;
  char *rec = NULL;
  sensim_status st;
  const char *d = PyBytes_AS_STRING(dir);
  Py_BEGIN_ALLOW_THREADS
  st = sensim_sweep_execute(s, i, d, &rec);
  Py_END_ALLOW_THREADS
  Py_DECREF(dir);
  if (st != SENSIM_OK) return sp_raise(st);
  PyObject *out = PyUnicode_FromString(rec);
  free(rec);
  return out;
}

static PyObject *totals_dict(const sensim_sweep_totals *t) {
  return Py_BuildValue("{s:n,s:n,s:n,s:n}", "runs", (Py_ssize_t)t->runs, "ok", (Py_ssize_t)t->ok, "failed",
                       (Py_ssize_t)t->failed, "missing", (Py_ssize_t)t->missing);
}

/* reduce(out_dir, records): records[i] a str or None per run. */
static PyObject *sweep_reduce(PyObject *self, PyObject *args) {
  sensim_sweep *s = sweep_ptr(self);
  PyObject *dir = NULL, *ro;
  if (!s || !PyArg_ParseTuple(args, "O&O:reduce", PyUnicode_FSConverter, &dir, &ro)) return NULL;
  size_t n = sensim_sweep_run_count(s);
  PyObject *seq = PySequence_Fast(ro, "reduce: records is a sequence of str or None, one per run");
  char **recs = seq ? calloc(n ? n : 1, sizeof *recs) : NULL;
  PyObject *res = NULL;
  if (seq && !recs) PyErr_NoMemory();
  if (recs && (size_t)PySequence_Fast_GET_SIZE(seq) != n)
    PyErr_Format(PyExc_ValueError, "reduce: %zd records for %zu runs", PySequence_Fast_GET_SIZE(seq), n);
  for (size_t i = 0; recs && !PyErr_Occurred() && i < n; i++) {
    PyObject *r = PySequence_Fast_GET_ITEM(seq, (Py_ssize_t)i);
    if (r == Py_None) continue;
    const char *t = PyUnicode_Check(r) ? PyUnicode_AsUTF8(r) : NULL;
    if (!t && !PyErr_Occurred()) PyErr_Format(PyExc_TypeError, "reduce: record %zu is not a str or None", i);
    recs[i] = (char *)t; /* borrowed from the str, alive while seq is */
  }
  if (recs && !PyErr_Occurred()) {
    sensim_sweep_totals t;
    sensim_status st = sensim_sweep_reduce(s, PyBytes_AS_STRING(dir), recs, &t);
    res = st != SENSIM_OK ? sp_raise(st) : totals_dict(&t);
  }
  free(recs);
  Py_XDECREF(seq);
  Py_DECREF(dir);
  return res;
}

/* run(out_dir): prepare, skip complete runs, execute the others in turn,
 * reduce; -> dict(runs, ok, failed, missing, skipped). */
static PyObject *sweep_run(PyObject *self, PyObject *arg) {
  sensim_sweep *s = sweep_ptr(self);
  PyObject *dir = NULL;
  if (!s || !PyUnicode_FSConverter(arg, &dir)) return NULL;
  const char *d = PyBytes_AS_STRING(dir);
  size_t n = sensim_sweep_run_count(s), skipped = 0;
  char **recs = calloc(n ? n : 1, sizeof *recs);
  sensim_status st = recs ? SENSIM_OK : sensim_error_set(SENSIM_ENOMEM, "Sweep.run: out of memory");
  sensim_sweep_totals t;
  Py_BEGIN_ALLOW_THREADS
  if (st == SENSIM_OK) st = sensim_sweep_prepare(s, d);
  for (size_t i = 0; st == SENSIM_OK && i < n; i++) {
    if (sensim_sweep_run_complete(s, d, i, &recs[i]))
      skipped++;
    else
      st = sensim_sweep_execute(s, i, d, &recs[i]);
  }
  if (st == SENSIM_OK) st = sensim_sweep_reduce(s, d, recs, &t);
  Py_END_ALLOW_THREADS
  for (size_t i = 0; recs && i < n; i++) free(recs[i]);
  free(recs);
  Py_DECREF(dir);
  if (st != SENSIM_OK) return sp_raise(st);
  PyObject *res = totals_dict(&t);
  PyObject *sk = res ? PyLong_FromSize_t(skipped) : NULL;
  if (!sk || PyDict_SetItemString(res, "skipped", sk) != 0) Py_CLEAR(res);
  Py_XDECREF(sk);
  return res;
}

static PyObject *sweep_get_name(PyObject *self, void *u) {
  (void)u;
  sensim_sweep *s = sweep_ptr(self);
  return s ? PyUnicode_FromString(sensim_sweep_name(s)) : NULL;
}

static PyObject *sweep_get_kind(PyObject *self, void *u) {
  (void)u;
  sensim_sweep *s = sweep_ptr(self);
  return s ? PyUnicode_FromString(sensim_sweep_kind_name(sensim_sweep_kind_of(s))) : NULL;
}

static PyObject *sweep_get_threads(PyObject *self, void *u) {
  (void)u;
  sensim_sweep *s = sweep_ptr(self);
  return s ? PyLong_FromLong(sensim_sweep_threads(s)) : NULL;
}

static int sweep_set_threads(PyObject *self, PyObject *v, void *u) {
  (void)u;
  sensim_sweep *s = sweep_ptr(self);
  if (!s) return -1;
  if (!v) {
    PyErr_SetString(PyExc_AttributeError, "threads cannot be deleted");
    return -1;
  }
  long n = PyLong_AsLong(v);
  if (n == -1 && PyErr_Occurred()) return -1;
  sensim_status st = sensim_sweep_set_threads(s, n < 0 ? -1 : n > 1024 ? 1025 : (int)n);
  return st != SENSIM_OK ? sp_raise_int(st) : 0;
}

static PyMethodDef sweep_methods[] = {
    {"label", sweep_label, METH_O, "label($self, i, /)\n--\n\n"
     "label(i) -> str\nRun i's axis values in one line: 'seed=3 sigma=0.05'."},
    {"run_dir", sweep_run_dir, METH_O, "run_dir($self, i, /)\n--\n\n"
     "run_dir(i) -> str\nRun i's folder name under the output folder: 'run_0007'."},
    {"prepare", sweep_prepare, METH_O,
     "prepare($self, out_dir, /)\n--\n\n"
     "prepare(out_dir)\nCreate or take out_dir for this sweep (a folder of other files is refused)\n"
     "and write its sweep.json."},
    {"complete", sweep_complete, METH_VARARGS,
     "complete($self, out_dir, i, /)\n--\n\n"
     "complete(out_dir, i) -> str or None\nRun i's manifest when the run is complete in out_dir\n"
     "(status ok, the digest it has now); None when it is to be done."},
    {"execute", sweep_execute, METH_VARARGS,
     "execute($self, out_dir, i, /)\n--\n\n"
     "execute(out_dir, i) -> str\nRun i into out_dir/run_NNNN/ (emptied first) and return its\n"
     "manifest; a run that fails is recorded as failed, not raised. Releases the GIL."},
    {"reduce", sweep_reduce, METH_VARARGS,
     "reduce($self, out_dir, records, /)\n--\n\n"
     "reduce(out_dir, records) -> dict(runs, ok, failed, missing)\nsummary.csv (and a vepd sweep's\n"
     "vepd_table.csv and histograms) from every run's manifest (None: none)."},
    {"run", sweep_run, METH_O,
     "run($self, out_dir, /)\n--\n\n"
     "run(out_dir) -> dict(runs, ok, failed, missing, skipped)\nThe whole sweep in turn, as\n"
     "`sensim sweep` alone: complete runs skipped, the others executed, the tables reduced."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef sweep_getset[] = {
    {"name", sweep_get_name, NULL, "The sweep's name.", NULL},
    {"kind", sweep_get_kind, NULL, "'scenario', 'ablation' or 'vepd'.", NULL},
    {"threads", sweep_get_threads, sweep_set_threads, "Worker threads per run (0..1024).", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PySequenceMethods sweep_sequence = {.sq_length = sweep_len};

static PyTypeObject sp_SweepType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sensim.Sweep",
    .tp_basicsize = sizeof(sp_sweep),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Sweep(path=None, *, text=None, source=None, base_dir=None)\n--\n\n"
              "Sweep(path) or Sweep(text=..., source=None, base_dir=None)\n"
              "A sweep file (docs/sweep.md): len() runs, each executed into its own folder\n"
              "with a manifest, reduced into summary.csv; any scheduler may run them.",
    .tp_new = PyType_GenericNew,
    .tp_init = sweep_init,
    .tp_dealloc = sweep_dealloc,
    .tp_methods = sweep_methods,
    .tp_getset = sweep_getset,
    .tp_as_sequence = &sweep_sequence,
};

int sp_tools_sweep_init(PyObject *m) {
  if (PyType_Ready(&sp_SweepType) < 0) return -1;
  Py_INCREF(&sp_SweepType);
  if (PyModule_AddObject(m, "Sweep", (PyObject *)&sp_SweepType) < 0) {
    Py_DECREF(&sp_SweepType);
    return -1;
  }
  return 0;
}
