/* python/src/filter.c: Python callables as filters, and standalone filter
 * chains (FilterChain).
 *
 * A Python filter runs on a worker thread (or the host thread inside
 * advance) and takes the GIL for the call. The callable gets a Frame that
 * holds the chain's buffers, moved, not copied; when it returns, the
 * buffers move back. If the callable kept the Frame or one of its arrays
 * (anything still refers to it), the chain gets a copy instead and Python
 * keeps the original, so nothing the callable holds can dangle. */
#include "module.h"
#include <math.h>
#include <string.h>

typedef struct pyfilter {
  PyObject *fn;
  PyObject *sink;     /* list the exceptions go to (module.h), or NULL */
  char name[64];
  sensim_payload out; /* checked after the call (ANY: the input's type) */
} pyfilter;

/* Most exceptions a sink keeps: frames keep failing while nobody advances
 * to their delivery, and memory must stay bounded. The first ones are kept
 * (the first failure is the one an advance reports). */
enum { SINK_MAX = 64 };

/* The message of the exception being handled, as "Type: text"; the
 * exception itself (its traceback attached) goes into `sink` with the
 * frame's delivery time, sensor id and index. The error is cleared. */
static void exception_text(char *buf, size_t size, PyObject *sink, const sensim_frame *f) {
  PyObject *type, *value, *tb;
  PyErr_Fetch(&type, &value, &tb);
  PyErr_NormalizeException(&type, &value, &tb);
  if (value && tb) PyException_SetTraceback(value, tb);
  PyObject *s = value ? PyObject_Str(value) : NULL;
  const char *text = s ? PyUnicode_AsUTF8(s) : NULL;
  snprintf(buf, size, "%s: %s", type ? ((PyTypeObject *)type)->tp_name : "error",
           text ? text : "(no message)");
  Py_XDECREF(s);
  PyErr_Clear();
  if (sink && value && PyList_GET_SIZE(sink) < SINK_MAX) {
    PyObject *entry = Py_BuildValue("(diKO)", f->t_deliver, f->sensor_id, (unsigned long long)f->index, value);
    if (!entry || PyList_Append(sink, entry) < 0) PyErr_Clear();
    Py_XDECREF(entry);
  }
  Py_XDECREF(type), Py_XDECREF(value), Py_XDECREF(tb);
}

/* The index of the sink's first entry (delivery time, then sensor, then
 * index) with delivery time <= t, or -1. */
static Py_ssize_t sink_first(PyObject *sink, double t) {
  Py_ssize_t best = -1;
  double bt = 0;
  int bs = 0;
  unsigned long long bi = 0;
  for (Py_ssize_t i = 0; sink && i < PyList_GET_SIZE(sink); i++) {
    double td;
    int sid;
    unsigned long long idx;
    PyObject *exc;
    if (!PyArg_ParseTuple(PyList_GET_ITEM(sink, i), "diKO", &td, &sid, &idx, &exc)) {
      PyErr_Clear();
      continue;
    }
    if (!(td <= t)) continue;
    if (best < 0 || td < bt || (td == bt && (sid < bs || (sid == bs && idx < bi)))) {
      best = i;
      bt = td, bs = sid, bi = idx;
    }
  }
  return best;
}

void sp_sink_forget(PyObject *sink, double t) {
  for (Py_ssize_t i = sink ? PyList_GET_SIZE(sink) : 0; i-- > 0;) {
    double td = PyFloat_AsDouble(PyTuple_GET_ITEM(PyList_GET_ITEM(sink, i), 0));
    if (td <= t && PySequence_DelItem(sink, i) < 0) PyErr_Clear();
  }
}

PyObject *sp_raise_from(sensim_status st, PyObject *sink, double t) {
  Py_ssize_t k = sink_first(sink, t);
  PyObject *cause = k < 0 ? NULL : Py_NewRef(PyTuple_GET_ITEM(PyList_GET_ITEM(sink, k), 3));
  sp_sink_forget(sink, t);
  if (cause) sp_raise_filter_error(st);
  else sp_raise(st);
  if (cause) {
    /* raise sensim.X(...) from cause: __cause__ shows the filter's own
     * exception and traceback above sensim's message. */
    PyObject *type, *value, *tb;
    PyErr_Fetch(&type, &value, &tb);
    PyErr_NormalizeException(&type, &value, &tb);
    if (value) {
      PyException_SetContext(value, Py_NewRef(cause));
      PyException_SetCause(value, cause); /* steals */
    } else {
      Py_DECREF(cause);
    }
    PyErr_Restore(type, value, tb);
  }
  return NULL;
}

static sensim_status pyfilter_apply(void *user, sensim_frame *frame, sensim_filter_ctx *ctx) {
  (void)ctx;
  pyfilter *pf = user;
  sensim_payload in = frame->type;
  PyGILState_STATE g = PyGILState_Ensure();
  sensim_status st = SENSIM_OK;
  char msg[400] = "";
  sensim_frame moved = *frame;
  const sensim_frame head = *frame; /* its header, for the error sink (buffers not used) */
  memset(frame, 0, sizeof *frame);
  PyObject *obj = sp_frame_adopt(&moved, Py_None);
  if (!obj) {
    exception_text(msg, sizeof msg, pf->sink, &head);
    st = SENSIM_ENOMEM; /* sp_frame_adopt freed the buffers: the frame is dropped */
    goto out;
  }
  sp_frame *fo = (sp_frame *)obj;
  fo->lent = 1;
  PyObject *r = PyObject_CallOneArg(pf->fn, obj);
  if (!r) {
    exception_text(msg, sizeof msg, pf->sink, &head);
    st = SENSIM_EINVAL;
  }
  Py_XDECREF(r);
  fo->lent = 0;
  if (Py_REFCNT(obj) == 1) {
    *frame = fo->frame; /* nobody kept it: the buffers go back as they are */
    memset(&fo->frame, 0, sizeof fo->frame);
  } else {
    sensim_status cs = sensim_frame_copy(&fo->frame, frame);
    if (cs && !st) {
      snprintf(msg, sizeof msg, "%s", sensim_last_error());
      st = cs;
    }
  }
  Py_DECREF(obj);
  if (!st && frame->type != (pf->out == SENSIM_PAYLOAD_ANY ? in : pf->out)) {
    snprintf(msg, sizeof msg, "left a %s frame, declared output %s", sensim_payload_name(frame->type),
             sensim_payload_name(pf->out == SENSIM_PAYLOAD_ANY ? in : pf->out));
    st = SENSIM_ETYPE;
  }
out:
  PyGILState_Release(g);
  if (st) return sensim_error_set(st, "python filter '%s': %s", pf->name, msg);
  return SENSIM_OK;
}

static void pyfilter_free(pyfilter *pf) {
  if (!pf) return;
  if (Py_IsInitialized()) {
    PyGILState_STATE g = PyGILState_Ensure();
    Py_XDECREF(pf->fn);
    Py_XDECREF(pf->sink);
    PyGILState_Release(g);
  }
  PyMem_RawFree(pf);
}

static void pyfilter_destroy(void *user) { pyfilter_free(user); }

void sp_user_filter_discard(void *user) {
  pyfilter *pf = user;
  if (!pf) return;
  Py_XDECREF(pf->fn); /* called with the GIL held */
  Py_XDECREF(pf->sink);
  PyMem_RawFree(pf);
}

int sp_user_filter_make(PyObject *fn, PyObject *in, PyObject *out, PyObject *name, PyObject *sink,
                        sensim_filter_def *def, void **user) {
  sensim_payload pin, pout = SENSIM_PAYLOAD_ANY;
  if (sp_payload_from(in, &pin) < 0) return -1;
  if (out && out != Py_None && sp_payload_from(out, &pout) < 0) return -1;
  pyfilter *pf = PyMem_RawCalloc(1, sizeof *pf);
  if (!pf) {
    PyErr_NoMemory();
    return -1;
  }
  PyObject *n = name && name != Py_None ? PyObject_Str(name) : PyObject_GetAttrString(fn, "__name__");
  if (!n) {
    PyErr_Clear();
    n = PyUnicode_FromString("callable");
  }
  const char *ns = n ? PyUnicode_AsUTF8(n) : NULL;
  snprintf(pf->name, sizeof pf->name, "%s", ns ? ns : "callable");
  Py_XDECREF(n);
  PyErr_Clear();
  pf->fn = Py_NewRef(fn);
  pf->sink = sink ? Py_NewRef(sink) : NULL;
  pf->out = pout;
  memset(def, 0, sizeof *def);
  def->name = pf->name;
  def->in = pin;
  def->out = pout;
  def->apply = pyfilter_apply;
  def->destroy = pyfilter_destroy;
  *user = pf;
  return 0;
}

/* ---- FilterChain ---------------------------------------------------------------------- */

typedef struct sp_chain {
  PyObject_HEAD
  sensim_filter_chain *chain;
  sensim_payload input;
  PyObject *names;  /* list of str: the filters' names, in order (repr) */
  PyObject *errors; /* the Python filters' exceptions of the current run */
} sp_chain;

static int chain_init(sp_chain *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"input", NULL};
  PyObject *in;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O:FilterChain", kwlist, &in)) return -1;
  sensim_payload t;
  if (sp_payload_from(in, &t) < 0) return -1;
  if (self->chain) {
    PyErr_SetString(PyExc_RuntimeError, "FilterChain.__init__ called twice");
    return -1;
  }
  Py_XSETREF(self->names, PyList_New(0));
  Py_XSETREF(self->errors, PyList_New(0));
  if (!self->names || !self->errors) return -1;
  self->input = t;
  sensim_status st = sensim_filter_chain_create(t, &self->chain);
  return st ? sp_raise_int(st) : 0;
}

static void chain_dealloc(sp_chain *self) {
  sensim_filter_chain *c = self->chain;
  self->chain = NULL;
  Py_BEGIN_ALLOW_THREADS
  sensim_filter_chain_destroy(c);
  Py_END_ALLOW_THREADS
  Py_CLEAR(self->names);
  Py_CLEAR(self->errors);
  Py_TYPE(self)->tp_free((PyObject *)self);
}

static PyObject *chain_add(sp_chain *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"filter", "params", "input", "output", "name", NULL};
  PyObject *what, *params = Py_None, *in = Py_None, *out = Py_None, *name = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|OOOO:add", kwlist, &what, &params, &in, &out, &name))
    return NULL;
  if (!self->chain) return sp_state_error("FilterChain: not initialised");
  sensim_status st;
  PyObject *fname = NULL; /* the name repr shows */
  if (PyUnicode_Check(what)) {
    PyObject *holder = NULL;
    const char *json = NULL;
    if (sp_json_dumps(params, &holder, &json) < 0) return NULL;
    st = sensim_filter_chain_add(self->chain, PyUnicode_AsUTF8(what), json);
    Py_XDECREF(holder);
    fname = Py_NewRef(what);
  } else if (PyCallable_Check(what)) {
    PyObject *inp = in != Py_None ? Py_NewRef(in)
                                  : PyUnicode_FromString(sensim_payload_name(
                                        sensim_filter_chain_output(self->chain)));
    if (!inp) return NULL;
    sensim_filter_def def;
    void *user = NULL;
    int rc = sp_user_filter_make(what, inp, out, name, self->errors, &def, &user);
    Py_DECREF(inp);
    if (rc < 0) return NULL;
    fname = PyUnicode_FromString(def.name);
    st = sensim_filter_chain_add_user(self->chain, &def, user);
    if (st) sp_user_filter_discard(user);
  } else {
    PyErr_Format(PyExc_TypeError, "add: expected a filter name or a callable, got %.80s",
                 Py_TYPE(what)->tp_name);
    return NULL;
  }
  if (st) {
    Py_XDECREF(fname);
    return sp_raise(st);
  }
  int rc = fname ? PyList_Append(self->names, fname) : -1;
  Py_XDECREF(fname);
  if (rc < 0) return NULL;
  Py_RETURN_NONE;
}

/* <sensim.FilterChain rgb_f32 -> rgba8: noise, srgb8> */
static PyObject *chain_repr(sp_chain *self) {
  if (!self->chain) return PyUnicode_FromString("<sensim.FilterChain (not initialised)>");
  PyObject *sep = PyUnicode_FromString(", ");
  PyObject *list = sep ? PyUnicode_Join(sep, self->names) : NULL;
  Py_XDECREF(sep);
  if (!list) return NULL;
  const char *in = sensim_payload_name(self->input);
  const char *out = sensim_payload_name(sensim_filter_chain_output(self->chain));
  PyObject *r = PyList_GET_SIZE(self->names)
                    ? PyUnicode_FromFormat("<sensim.FilterChain %s -> %s: %U>", in, out, list)
                    : PyUnicode_FromFormat("<sensim.FilterChain %s, no filters>", in);
  Py_DECREF(list);
  return r;
}

static PyObject *chain_run(sp_chain *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"frame", "seed", "stream", NULL};
  PyObject *fo;
  uint64_t seed = 1;
  unsigned int stream = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O&I:run", kwlist, &fo, sp_seed_converter, &seed, &stream))
    return NULL;
  if (!PyObject_TypeCheck(fo, &sp_FrameType)) {
    PyErr_Format(PyExc_TypeError, "run: expected a sensim.Frame, got %.80s", Py_TYPE(fo)->tp_name);
    return NULL;
  }
  sp_frame *sf = (sp_frame *)fo;
  if (!self->chain) return sp_state_error("FilterChain: not initialised");
  if (sf->lent) return sp_state_error("run: this frame is inside a filter right now");
  if (sf->writing) return sp_state_error("run: another FilterChain is running on this frame");
  /* The chain may free and replace buffers: give it buffers no view or
   * reader holds (sp_frame_unshare keeps the old ones with the Frame). */
  if (sp_frame_unshare(sf) < 0) return NULL;
  sf->writing = 1;
  sensim_status st;
  sensim_filter_chain *c = self->chain;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_filter_chain_run(c, &sf->frame, seed, stream);
  Py_END_ALLOW_THREADS
  sf->writing = 0;
  if (st) return sp_raise_from(st, self->errors, INFINITY);
  sp_sink_forget(self->errors, INFINITY);
  return Py_NewRef(fo);
}

static PyObject *chain_output(sp_chain *self, void *c) {
  (void)c;
  if (!self->chain) return sp_state_error("FilterChain: not initialised");
  return PyUnicode_FromString(sensim_payload_name(sensim_filter_chain_output(self->chain)));
}

static PyMethodDef chain_methods[] = {
    {"add", (PyCFunction)(void (*)(void))chain_add, METH_VARARGS | METH_KEYWORDS,
     "add($self, filter, params=None, input=None, output=None, name=None)\n--\n\n"
     "add(filter, params=None, input=None, output=None, name=None): append a built-in filter "
     "(name and dict params) or a Python callable, as Sensor.add_filter."},
    {"run", (PyCFunction)(void (*)(void))chain_run, METH_VARARGS | METH_KEYWORDS,
     "run($self, frame, seed=1, stream=0)\n--\n\n"
     "run(frame, seed=1, stream=0) -> frame, filtered in place. Random draws are keyed by "
     "(seed, stream, frame.index, filter position), as in a sensor's chain."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef chain_getset[] = {
    {"output", (getter)chain_output, NULL, "Payload type the chain gives.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject sp_FilterChainType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sensim.FilterChain",
    .tp_basicsize = sizeof(sp_chain),
    .tp_dealloc = (destructor)chain_dealloc,
    .tp_repr = (reprfunc)chain_repr,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "FilterChain(input)\n--\n\n"
              "FilterChain(input): a filter chain outside any sensor, for frames you make "
              "(Frame.from_array): the same filters a sensor runs, run the same way.",
    .tp_methods = chain_methods,
    .tp_getset = chain_getset,
    .tp_init = (initproc)chain_init,
    .tp_new = PyType_GenericNew,
};

int sp_filter_init(PyObject *m) {
  if (PyType_Ready(&sp_FilterChainType) < 0) return -1;
  return PyModule_AddObjectRef(m, "FilterChain", (PyObject *)&sp_FilterChainType);
}
