/* python/src/tools_ablate.c: the tools for Python, part 5: camera-stage
 * ablation of a scenario (sensim_tools/ablate.h): the variants by name,
 * a scenario's text edited for one, and the rendering of them all.
 * docs/ablation.md lists what each variant changes. */
#include "module.h"

#include <stdio.h>
#include <stdlib.h>
#include <sensim_tools/sensim_tools.h>

#define KW (PyCFunction)(void (*)(void))

static PyObject *t_ablation_names(PyObject *self, PyObject *unused) {
  (void)self;
  (void)unused;
  PyObject *list = PyList_New(0);
  for (int a = 0; list && a < SENSIM_ABLATE_COUNT; a++) {
    PyObject *s = PyUnicode_FromString(sensim_ablation_name((sensim_ablation)a));
    if (!s || PyList_Append(list, s) != 0) Py_CLEAR(list);
    Py_XDECREF(s);
  }
  return list;
}

static int ablation_from(PyObject *o, sensim_ablation *a) {
  const char *name = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
  if (!name) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "an ablation variant is named by a str");
    return -1;
  }
  sensim_status st = sensim_ablation_from_name(name, a);
  return st != SENSIM_OK ? sp_raise_int(st) : 0;
}

/* ablation_edit(json, variant, frames=0) -> (json, notes). */
static PyObject *t_ablation_edit(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"json", "variant", "frames", NULL};
  const char *json;
  PyObject *vo;
  Py_ssize_t frames = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "sO|n:ablation_edit", kwlist, &json, &vo, &frames))
    return NULL;
  sensim_ablation a;
  if (frames < 0) return PyErr_Format(PyExc_ValueError, "ablation_edit: frames must be >= 0");
  if (ablation_from(vo, &a) != 0) return NULL;
  char *out = NULL, notes[4096] = "";
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_ablation_edit(json, a, (size_t)frames, &out, notes, sizeof notes);
  Py_END_ALLOW_THREADS
  if (st != SENSIM_OK) return sp_raise(st);
  PyObject *res = Py_BuildValue("(ss)", out, notes);
  free(out);
  return res;
}

/* ablate_run(scenario_path, out_dir, *, threads=None, frames=0,
 * variants=None) -> str: what each variant changed. */
static PyObject *t_ablate_run(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"scenario_path", "out_dir", "threads", "frames", "variants", NULL};
  PyObject *path = NULL, *out = NULL, *threads = Py_None, *vo = Py_None;
  Py_ssize_t frames = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|$OnO:ablate_run", kwlist, PyUnicode_FSConverter,
                                   &path, PyUnicode_FSConverter, &out, &threads, &frames, &vo))
    return NULL;
  sensim_ablate_options o;
  sensim_ablate_options_init(&o);
  sensim_ablation vars[SENSIM_ABLATE_COUNT];
  PyObject *res = NULL, *seq = NULL;
  char *log = NULL;
  size_t loglen = 0;
  if (frames < 0) {
    PyErr_SetString(PyExc_ValueError, "ablate_run: frames must be >= 0");
    goto done;
  }
  o.frames = (size_t)frames;
  if (threads != Py_None) {
    long n = PyLong_AsLong(threads);
    if (n == -1 && PyErr_Occurred()) goto done;
    if (n < 0 || n > INT_MAX) {
      PyErr_SetString(PyExc_ValueError, "ablate_run: threads must be >= 0 or None");
      goto done;
    }
    o.threads = (int)n;
  }
  if (vo != Py_None) {
    seq = PySequence_Fast(vo, "ablate_run: variants must be a sequence of names");
    if (!seq) goto done;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n < 1 || n > SENSIM_ABLATE_COUNT) {
      PyErr_Format(PyExc_ValueError, "ablate_run: 1 to %d variants", (int)SENSIM_ABLATE_COUNT);
      goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++)
      if (ablation_from(PySequence_Fast_GET_ITEM(seq, i), &vars[i]) != 0) goto done;
    o.variants = vars;
    o.nvariants = (size_t)n;
  }
  FILE *fp = open_memstream(&log, &loglen);
  if (!fp) {
    PyErr_SetFromErrno(PyExc_OSError);
    goto done;
  }
  o.log = fp;
  const char *sp = PyBytes_AS_STRING(path), *od = PyBytes_AS_STRING(out);
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_ablate_run(sp, od, &o);
  Py_END_ALLOW_THREADS
  fclose(fp);
  if (st != SENSIM_OK)
    sp_raise(st);
  else
    res = PyUnicode_DecodeUTF8(log ? log : "", (Py_ssize_t)loglen, "replace");
done:
  free(log);
  Py_XDECREF(seq);
  Py_DECREF(path);
  Py_DECREF(out);
  return res;
}

static PyMethodDef ablate_functions[] = {
    {"ablation_names", t_ablation_names, METH_NOARGS,
     "ablation_names($module, /)\n--\n\n"
     "ablation_names() -> list[str]\nThe camera-stage ablation variants, in order."},
    {"ablation_edit", KW t_ablation_edit, METH_VARARGS | METH_KEYWORDS,
     "ablation_edit($module, json, variant, frames=0)\n--\n\n"
     "ablation_edit(json, variant, frames=0) -> (json, notes)\nA scenario's text edited for one\n"
     "variant (cameras only; duration for `frames` frames when > 0) and what changed."},
    {"ablate_run", KW t_ablate_run, METH_VARARGS | METH_KEYWORDS,
     "ablate_run($module, scenario_path, out_dir, *, threads=None, frames=0, variants=None)\n--\n\n"
     "ablate_run(scenario_path, out_dir, *, threads=None, frames=0, variants=None) -> str\n"
     "Render the scenario once per variant into out_dir/<variant>/; returns the log of what\n"
     "each variant changed."},
    {NULL, NULL, 0, NULL}};

int sp_tools_ablate_init(PyObject *m) { return PyModule_AddFunctions(m, ablate_functions); }
