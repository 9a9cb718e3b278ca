/* python/src/tools_published.c: the tools for Python, part 7: what the
 * papers behind sensim's studies report (sensim_tools/published.h), so the
 * judge's report prints the camera component study beside its own
 * numbers from the same one record the commands print. */
#include "module.h"

#include <string.h>
#include <sensim_tools/sensim_tools.h>

/* A str, or None for NULL. */
static PyObject *str_or_none(const char *s) {
  if (s) return PyUnicode_FromString(s);
  Py_RETURN_NONE;
}

/* The record as a dict: cite, read_from, unread, differs (str or None),
 * claims (list of str), variants (dict: sensim's name -> (paper, finding)). */
static PyObject *record_dict(const sensim_published *p) {
  PyObject *d = PyDict_New(), *claims = PyList_New(0), *vars = PyDict_New();
  int ok = d && claims && vars;
  const char *keys[] = {"cite", "read_from", "unread", "differs"};
  const char *vals[] = {p->cite, p->read_from, p->unread, p->differs};
  for (int i = 0; ok && i < 4; i++) {
    PyObject *v = str_or_none(vals[i]);
    ok = v && PyDict_SetItemString(d, keys[i], v) == 0;
    Py_XDECREF(v);
  }
  for (size_t i = 0; ok && i < p->nclaims; i++) {
    PyObject *v = PyUnicode_FromString(p->claims[i]);
    ok = v && PyList_Append(claims, v) == 0;
    Py_XDECREF(v);
  }
  for (size_t i = 0; ok && i < p->nvariants; i++) {
    PyObject *f = str_or_none(p->variants[i].finding);
    PyObject *t = f ? Py_BuildValue("(sO)", p->variants[i].paper, f) : NULL;
    ok = t && PyDict_SetItemString(vars, p->variants[i].variant, t) == 0;
    Py_XDECREF(f);
    Py_XDECREF(t);
  }
  ok = ok && PyDict_SetItemString(d, "claims", claims) == 0 && PyDict_SetItemString(d, "variants", vars) == 0;
  Py_XDECREF(claims);
  Py_XDECREF(vars);
  if (!ok) Py_CLEAR(d);
  return d;
}

/* published(paper) -> dict. */
static PyObject *t_published(PyObject *self, PyObject *arg) {
  (void)self;
  const char *name = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
  if (!name) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "published: the paper is named by a str");
    return NULL;
  }
  if (strcmp(name, "vepd") == 0) return record_dict(sensim_published_vepd());
  if (strcmp(name, "camera_components") == 0) return record_dict(sensim_published_camera_components());
  sensim_error_set(SENSIM_ENOTFOUND, "published: no paper '%s' (vepd, camera_components)", name);
  return sp_raise(SENSIM_ENOTFOUND);
}

static PyMethodDef published_functions[] = {
    {"published", t_published, METH_O,
     "published($module, paper, /)\n--\n\n"
     "published(paper) -> dict\nWhat a study's paper reports, from sensim's one record of it\n"
     "(docs/vepd.md, docs/ablation.md): paper 'vepd' or 'camera_components'. Keys: cite,\n"
     "read_from, unread (the results that could not be read, or None), differs, claims (list\n"
     "of str) and variants (sensim's variant -> (the paper's component, its finding or None))."},
    {NULL, NULL, 0, NULL}};

int sp_tools_published_init(PyObject *m) { return PyModule_AddFunctions(m, published_functions); }
