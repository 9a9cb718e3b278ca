/* python/src/many.c: advance_all, stepping many worlds in one call.
 *
 * With threads > 1 the worlds are split into that many contiguous shares,
 * each advanced by its own thread (the calling thread takes the first):
 * a world's advance waits for its own frames, so one thread per share lets
 * the worlds' captures run side by side instead of one world after
 * another. Each world is still advanced by exactly one thread, and that
 * thread is the world's "busy" thread for the call, so a frame callback
 * (which runs on it) may call into its world as it may inside advance(). */
#include "module.h"
#include <pthread.h>
#include <string.h>

typedef struct share {
  sensim_world **ws;
  Py_ssize_t lo, hi; /* worlds [lo, hi) */
  double t;
  sensim_status st;  /* first failure of the share */
  Py_ssize_t bad;    /* its world */
  char msg[512];     /* its message (sensim_last_error is per thread) */
  pthread_t tid;
  int threaded;      /* 1 when it runs on a thread of its own */
} share;

static void *run_share(void *arg) {
  share *sh = arg;
  for (Py_ssize_t i = sh->lo; i < sh->hi; i++) {
    sensim_status st = sensim_world_advance(sh->ws[i], sh->t);
    if (st != SENSIM_OK) {
      sh->st = st;
      sh->bad = i;
      snprintf(sh->msg, sizeof sh->msg, "%s", sensim_last_error());
      break;
    }
  }
  return NULL;
}

/* The worlds of a sequence, checked and marked busy; NULL with an error. */
static sp_world **begin_all(PyObject *fast, Py_ssize_t n) {
  PyObject **items = PySequence_Fast_ITEMS(fast);
  sp_world **w = PyMem_Calloc((size_t)n + 1, sizeof *w);
  if (!w) return (sp_world **)PyErr_NoMemory();
  for (Py_ssize_t i = 0; i < n; i++) {
    if (!PyObject_TypeCheck(items[i], &sp_WorldType)) {
      PyErr_Format(PyExc_TypeError, "advance_all: item %zd is %.80s, not a World", i,
                   Py_TYPE(items[i])->tp_name);
      goto fail;
    }
    w[i] = (sp_world *)items[i];
    if (sp_world_check(w[i]) < 0) goto fail;
  }
  /* A world listed twice would be advanced twice: tag each idle world once. */
  Py_ssize_t dup = -1;
  for (Py_ssize_t i = 0; i < n && dup < 0; i++) {
    if (w[i]->busy == 2) dup = i;
    else if (!w[i]->busy) w[i]->busy = 2;
  }
  for (Py_ssize_t i = 0; i < n; i++)
    if (w[i]->busy == 2) w[i]->busy = 0;
  if (dup >= 0) {
    PyErr_Format(PyExc_ValueError, "advance_all: world %zd appears twice in the list", dup);
    goto fail;
  }
  for (Py_ssize_t i = 0; i < n; i++)
    if (sp_world_begin(w[i], "advance_all") < 0) {
      while (i-- > 0) sp_world_end(w[i]);
      goto fail;
    }
  return w;
fail:
  PyMem_Free(w);
  return NULL;
}

static PyObject *m_advance_all(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"worlds", "t", "threads", NULL};
  PyObject *seq;
  double t;
  int threads = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "Od|i:advance_all", kwlist, &seq, &t, &threads))
    return NULL;
  if (threads < 1 || threads > 1024) {
    PyErr_Format(PyExc_ValueError, "advance_all: threads must be in 1 .. 1024 (got %d)", threads);
    return NULL;
  }
  PyObject *fast = PySequence_Fast(seq, "advance_all: worlds must be a sequence of World");
  if (!fast) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
  sp_world **w = begin_all(fast, n);
  sensim_world **ws = w ? PyMem_Calloc((size_t)n + 1, sizeof *ws) : NULL;
  Py_ssize_t nsh = n < threads ? (n ? n : 1) : threads;
  share *sh = ws ? PyMem_Calloc((size_t)nsh, sizeof *sh) : NULL;
  PyObject *result = NULL;
  if (!sh) {
    if (w) {
      for (Py_ssize_t i = 0; i < n; i++) sp_world_end(w[i]);
      PyErr_NoMemory();
    }
    goto done;
  }
  for (Py_ssize_t i = 0; i < n; i++) ws[i] = w[i]->world;
  for (Py_ssize_t k = 0; k < nsh; k++) {
    sh[k] = (share){ws, n * k / nsh, n * (k + 1) / nsh, t, SENSIM_OK, -1, "", 0, 0};
    /* Share 0 and any share whose thread cannot start run here. */
    if (k > 0 && pthread_create(&sh[k].tid, NULL, run_share, &sh[k]) == 0) sh[k].threaded = 1;
  }
  /* Threads that run a callback need the GIL, which this thread holds
   * until every world knows the thread advancing it (CPython's thread
   * ident is pthread_self()). */
  unsigned long me = PyThread_get_thread_ident();
  for (Py_ssize_t k = 0; k < nsh; k++)
    for (Py_ssize_t i = sh[k].lo; i < sh[k].hi; i++)
      w[i]->busy_thread = sh[k].threaded ? (unsigned long)sh[k].tid : me;
  Py_BEGIN_ALLOW_THREADS
  for (Py_ssize_t k = 0; k < nsh; k++)
    if (!sh[k].threaded) run_share(&sh[k]);
  for (Py_ssize_t k = 0; k < nsh; k++)
    if (sh[k].threaded) pthread_join(sh[k].tid, NULL);
  Py_END_ALLOW_THREADS
  for (Py_ssize_t i = 0; i < n; i++) sp_world_end(w[i]);
  int pending = 0;
  for (Py_ssize_t i = 0; i < n; i++)
    if (!pending && sp_world_take_pending(w[i]) < 0) pending = 1;
    else Py_CLEAR(w[i]->pending);
  if (pending) goto done;
  for (Py_ssize_t k = 0; k < nsh; k++)
    if (sh[k].st != SENSIM_OK) { /* the first failing world in list order */
      sensim_error_set(sh[k].st, "world %zd: %s", sh[k].bad, sh[k].msg);
      sp_raise_from(sh[k].st, w[sh[k].bad]->filter_errors, t);
      goto done;
    }
  for (Py_ssize_t i = 0; i < n; i++) sp_sink_forget(w[i]->filter_errors, t);
  result = Py_NewRef(Py_None);
done:
  PyMem_Free(sh);
  PyMem_Free(ws);
  PyMem_Free(w);
  Py_DECREF(fast);
  return result;
}

static PyMethodDef many_methods[] = {
    {"advance_all", (PyCFunction)(void (*)(void))m_advance_all, METH_VARARGS | METH_KEYWORDS,
     "advance_all($module, worlds, t, threads=1)\n--\n\n"
     "advance_all(worlds, t, threads=1): advance every World to t (s) in one call, the GIL "
     "released once. threads > 1 splits the worlds into that many shares advanced side by "
     "side (each world by one thread; a frame callback runs on its world's thread). A failure "
     "is raised naming the first failing world's position; the others have advanced."},
    {NULL, NULL, 0, NULL}};

int sp_many_init(PyObject *m) { return PyModule_AddFunctions(m, many_methods); }
