/* python/src/tools_images.c: the tools for Python, part 3: images as data
 * (sensim_tools/image_stats.h, augment.h, image_files.h): statistics of
 * one image and of image sets (the ImageSetStats type), the augmentations
 * (lens distortion through the DistortMap type, noise, mosaic, white
 * balance, statistics matching) and folders of PNG files.
 *
 * Images are float arrays (H, W) or (H, W, C), C in {1, 3}, values as
 * stored ([0, 1] for PNG code values), as read_png gives them. The
 * augmentations never change their input: each returns a new float32
 * array (H, W, C). */
#include "module.h"

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL sensim_ARRAY_API
#include <numpy/arrayobject.h>

#include <math.h>
#include <stdlib.h>
#include <sensim_tools/sensim_tools.h>

static PyObject *tuple_of(const double *v, int n) {
  PyObject *t = PyTuple_New(n);
  for (int i = 0; t && i < n; i++) {
    PyObject *x = PyFloat_FromDouble(v[i]);
    if (!x) {
      Py_CLEAR(t);
      break;
    }
    PyTuple_SET_ITEM(t, i, x);
  }
  return t;
}

/* The image's holder array reshaped to (H, W, C) (a new reference). */
static PyObject *as_hwc(PyObject *holder, const sensim_image *img) {
  npy_intp dims[3] = {(npy_intp)img->height, (npy_intp)img->width, (npy_intp)img->channels};
  PyArray_Dims shape = {dims, 3};
  return PyArray_Newshape((PyArrayObject *)holder, &shape, NPY_CORDER);
}

/* ---- one image ------------------------------------------------------------------ */

static PyObject *t_image_moments(PyObject *self, PyObject *arg) {
  (void)self;
  sensim_image img;
  PyObject *holder;
  if (sp_image_from(arg, &img, &holder, "image_moments") != 0) return NULL;
  double mean[3], std[3];
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_image_moments(&img, mean, std);
  Py_END_ALLOW_THREADS
  PyObject *res = st != SENSIM_OK ? sp_raise(st)
                                  : Py_BuildValue("(NN)", tuple_of(mean, img.channels), tuple_of(std, img.channels));
  Py_DECREF(holder);
  return res;
}

/* ---- image sets ---------------------------------------------------------------- */

typedef struct sp_image_set {
  PyObject_HEAD
  sensim_image_set_stats s;
  int busy; /* 1 while a call reads or adds without the GIL */
} sp_image_set;

/* -1 with StateError while another thread works on the set without the GIL. */
static int iset_check(PyObject *self) {
  if (((sp_image_set *)self)->busy) {
    sp_state_error("ImageSetStats: busy in a call on another thread");
    return -1;
  }
  return 0;
}

static PyTypeObject sp_ImageSetStatsType;

static int iset_init(PyObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"nbins", NULL};
  Py_ssize_t nbins = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|n:ImageSetStats", kwlist, &nbins)) return -1;
  if (iset_check(self) < 0) return -1;
  if (nbins < 0) {
    PyErr_SetString(PyExc_ValueError, "ImageSetStats: nbins must be >= 0 (0: 64)");
    return -1;
  }
  sensim_status st = sensim_image_set_stats_init(&((sp_image_set *)self)->s, (size_t)nbins);
  return st != SENSIM_OK ? sp_raise_int(st) : 0;
}

static PyObject *iset_add(PyObject *self, PyObject *arg) {
  sensim_image img;
  PyObject *holder;
  if (iset_check(self) < 0 || sp_image_from(arg, &img, &holder, "ImageSetStats.add") != 0) return NULL;
  sensim_status st;
  sensim_image_set_stats *s = &((sp_image_set *)self)->s;
  ((sp_image_set *)self)->busy = 1;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_image_set_stats_add(s, &img);
  Py_END_ALLOW_THREADS
  ((sp_image_set *)self)->busy = 0;
  Py_DECREF(holder);
  return st != SENSIM_OK ? sp_raise(st) : Py_NewRef(Py_None);
}

static PyObject *iset_from_dir(PyObject *cls, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"dir", "nbins", NULL};
  PyObject *dir = NULL;
  Py_ssize_t nbins = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&|n:ImageSetStats.from_dir", kwlist, PyUnicode_FSConverter,
                                   &dir, &nbins))
    return NULL;
  if (nbins < 0) {
    Py_DECREF(dir);
    return PyErr_Format(PyExc_ValueError, "ImageSetStats.from_dir: nbins must be >= 0 (0: 64)");
  }
  sp_image_set *o = (sp_image_set *)((PyTypeObject *)cls)->tp_alloc((PyTypeObject *)cls, 0);
  if (!o) {
    Py_DECREF(dir);
    return NULL;
  }
  const char *d = PyBytes_AS_STRING(dir);
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_image_set_stats_dir(d, (size_t)nbins, &o->s);
  Py_END_ALLOW_THREADS
  Py_DECREF(dir);
  if (st != SENSIM_OK) {
    Py_DECREF(o);
    return sp_raise(st);
  }
  return (PyObject *)o;
}

static sensim_image_set_stats *other_set(PyObject *o) {
  if (!PyObject_TypeCheck(o, &sp_ImageSetStatsType)) {
    PyErr_Format(PyExc_TypeError, "expected a sensim.ImageSetStats, got %.100s", Py_TYPE(o)->tp_name);
    return NULL;
  }
  return &((sp_image_set *)o)->s;
}

static PyObject *iset_w1(PyObject *self, PyObject *args) {
  PyObject *o;
  int c = 0;
  if (!PyArg_ParseTuple(args, "O|i:w1", &o, &c)) return NULL;
  sensim_image_set_stats *b = other_set(o);
  if (!b || iset_check(self) < 0 || iset_check(o) < 0) return NULL;
  if (c < 0 || c > 2) return PyErr_Format(PyExc_ValueError, "w1: channel c in 0..2, got %d", c);
  return PyFloat_FromDouble(sensim_image_set_w1(&((sp_image_set *)self)->s, b, c));
}

static PyObject *iset_report_text(PyObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"other", "name_a", "name_b", NULL};
  PyObject *o;
  const char *na = "a", *nb = "b";
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|ss:report_text", kwlist, &o, &na, &nb)) return NULL;
  sensim_image_set_stats *b = other_set(o);
  if (!b || iset_check(self) < 0 || iset_check(o) < 0) return NULL;
  char *buf = NULL;
  size_t len = 0;
  FILE *fp = open_memstream(&buf, &len);
  if (!fp) return PyErr_SetFromErrno(PyExc_OSError);
  sensim_status st = sensim_image_report_text(fp, &((sp_image_set *)self)->s, na, b, nb);
  fclose(fp);
  PyObject *res = st != SENSIM_OK ? sp_raise(st) : PyUnicode_DecodeUTF8(buf ? buf : "", (Py_ssize_t)len, "replace");
  free(buf);
  return res;
}

static PyObject *iset_report_png(PyObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "other", "name_a", "name_b", NULL};
  PyObject *path = NULL, *o;
  const char *na = "a", *nb = "b";
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O|ss:report_png", kwlist, PyUnicode_FSConverter, &path,
                                   &o, &na, &nb))
    return NULL;
  sensim_image_set_stats *b = other_set(o);
  PyObject *res = NULL;
  if (b && iset_check(self) == 0 && iset_check(o) == 0) {
    const char *p = PyBytes_AS_STRING(path);
    sensim_image_set_stats *a = &((sp_image_set *)self)->s;
    sensim_status st;
    int self_busy = ((sp_image_set *)self)->busy, o_busy = ((sp_image_set *)o)->busy;
    ((sp_image_set *)self)->busy = ((sp_image_set *)o)->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    st = sensim_image_report_png(p, a, na, b, nb);
    Py_END_ALLOW_THREADS
    ((sp_image_set *)self)->busy = self_busy;
    ((sp_image_set *)o)->busy = o_busy;
    res = st != SENSIM_OK ? sp_raise(st) : Py_NewRef(Py_None);
  }
  Py_DECREF(path);
  return res;
}

static PyObject *iset_get(PyObject *self, void *which) {
  const sensim_image_set_stats *s = &((sp_image_set *)self)->s;
  int c = s->channels;
  switch ((int)(intptr_t)which) {
  case 0: return PyLong_FromSize_t(s->nimages);
  case 1: return PyLong_FromUnsignedLongLong((unsigned long long)s->npixels);
  case 2: return PyLong_FromLong(c);
  case 3: return tuple_of(s->mean, c);
  case 4: return tuple_of(s->std, c);
  case 5: return tuple_of(s->min, c);
  case 6: return tuple_of(s->max, c);
  case 7: return PyLong_FromSize_t(s->nbins);
  default: {
    npy_intp dims[2] = {c, (npy_intp)s->nbins};
    PyObject *h = PyArray_SimpleNew(2, dims, NPY_UINT64);
    for (int k = 0; h && k < c; k++)
      memcpy((uint64_t *)PyArray_DATA((PyArrayObject *)h) + (size_t)k * s->nbins, s->hist[k],
             s->nbins * sizeof(uint64_t));
    return h;
  }
  }
}

static PyGetSetDef iset_getset[] = {
    {"nimages", iset_get, NULL, "images added", (void *)0},
    {"npixels", iset_get, NULL, "pixels over all images", (void *)1},
    {"channels", iset_get, NULL, "1 or 3 (0 before the first image)", (void *)2},
    {"mean", iset_get, NULL, "per-channel mean", (void *)3},
    {"std", iset_get, NULL, "per-channel population standard deviation", (void *)4},
    {"min", iset_get, NULL, "per-channel minimum", (void *)5},
    {"max", iset_get, NULL, "per-channel maximum", (void *)6},
    {"nbins", iset_get, NULL, "histogram bins over [0, 1]", (void *)7},
    {"hist", iset_get, NULL, "histogram counts, uint64 (channels, nbins)", (void *)8},
    {NULL, NULL, NULL, NULL, NULL}};

#define KW (PyCFunction)(void (*)(void))

static PyMethodDef iset_methods[] = {
    {"add", iset_add, METH_O, "add($self, image, /)\n--\n\n"
     "add(image)\nAdd one image (InvalidArgument for NaN or inf values)."},
    {"from_dir", KW iset_from_dir, METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "from_dir($type, dir, nbins=0)\n--\n\n"
     "ImageSetStats.from_dir(dir, nbins=0)\nThe statistics of every *.png of a folder."},
    {"w1", iset_w1, METH_VARARGS,
     "w1($self, other, c=0, /)\n--\n\n"
     "w1(other, c=0) -> float\nWasserstein-1 distance of channel c's value distributions (from\n"
     "the histograms); NaN if a set is empty or the bins differ."},
    {"report_text", KW iset_report_text, METH_VARARGS | METH_KEYWORDS,
     "report_text($self, other, name_a='a', name_b='b')\n--\n\n"
     "report_text(other, name_a='a', name_b='b') -> str\nThe two sets side by side as text."},
    {"report_png", KW iset_report_png, METH_VARARGS | METH_KEYWORDS,
     "report_png($self, path, other, name_a='a', name_b='b')\n--\n\n"
     "report_png(path, other, name_a='a', name_b='b')\nThe two sets' histograms as a PNG plot."},
    {NULL, NULL, 0, NULL}};

static PyObject *iset_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  (void)args;
  (void)kw;
  sp_image_set *o = (sp_image_set *)type->tp_alloc(type, 0);
  if (o && sensim_image_set_stats_init(&o->s, 0) != SENSIM_OK) Py_CLEAR(o);
  return (PyObject *)o;
}

static PyTypeObject sp_ImageSetStatsType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sensim.ImageSetStats",
    .tp_basicsize = sizeof(sp_image_set),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "ImageSetStats(nbins=0)\n--\n\n"
              "ImageSetStats(nbins=0)\nStatistics of a set of images: per-channel mean, std,\n"
              "extremes and histograms over [0, 1] (nbins 0: 64).",
    .tp_new = iset_new,
    .tp_init = iset_init,
    .tp_methods = iset_methods,
    .tp_getset = iset_getset,
};

/* ---- lens distortion ----------------------------------------------------------- */

typedef struct sp_distort {
  PyObject_HEAD
  sensim_distort_map *map;
  uint32_t width, height;
} sp_distort;

static int distort_init(PyObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"lens", "width", "height", NULL};
  sp_distort *d = (sp_distort *)self;
  PyObject *lens;
  Py_ssize_t w = 0, h = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|nn:DistortMap", kwlist, &lens, &w, &h)) return -1;
  if (w < 0 || h < 0 || w > UINT32_MAX || h > UINT32_MAX) {
    PyErr_SetString(PyExc_ValueError, "DistortMap: width and height are >= 0 (0: from the lens keys)");
    return -1;
  }
  PyObject *holder = NULL;
  const char *json = NULL;
  if (PyUnicode_Check(lens)) {
    json = PyUnicode_AsUTF8(lens);
    if (!json) return -1;
  } else if (sp_json_dumps(lens, &holder, &json) != 0) {
    return -1;
  } else if (!json) {
    PyErr_SetString(PyExc_TypeError, "DistortMap: lens is a dict of camera keys or their JSON text");
    return -1;
  }
  if (d->map) {
    Py_XDECREF(holder);
    sp_state_error("DistortMap.__init__: the map is already made (it may be in use)");
    return -1;
  }
  sensim_camera_params cp;
  sensim_distort_map *map = NULL;
  sensim_status st = sensim_lens_params_from_json(json, (uint32_t)w, (uint32_t)h, &cp);
  Py_XDECREF(holder);
  if (st == SENSIM_OK) {
    Py_BEGIN_ALLOW_THREADS
    st = sensim_distort_map_create(&cp, &map);
    Py_END_ALLOW_THREADS
  }
  if (st != SENSIM_OK) return sp_raise_int(st);
  d->map = map;
  d->width = cp.width;
  d->height = cp.height;
  return 0;
}

static void distort_dealloc(PyObject *self) {
  sensim_distort_map_destroy(((sp_distort *)self)->map);
  Py_TYPE(self)->tp_free(self);
}

static sensim_distort_map *distort_ptr(PyObject *self) {
  sensim_distort_map *m = ((sp_distort *)self)->map;
  if (!m) sp_state_error("DistortMap: not initialised");
  return m;
}

static PyObject *distort_apply(PyObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"image", "fill", NULL};
  PyObject *io;
  float fill = 0.0f;
  sensim_distort_map *map = distort_ptr(self);
  if (!map || !PyArg_ParseTupleAndKeywords(args, kw, "O|f:apply", kwlist, &io, &fill)) return NULL;
  sensim_image in, out;
  PyObject *holder;
  if (sp_image_from(io, &in, &holder, "DistortMap.apply") != 0) return NULL;
  memset(&out, 0, sizeof out);
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_distort_apply(map, &in, fill, &out);
  Py_END_ALLOW_THREADS
  Py_DECREF(holder);
  return st != SENSIM_OK ? sp_raise(st) : sp_image_to(&out);
}

static PyObject *distort_source(PyObject *self, PyObject *args) {
  unsigned int x, y;
  int c = 1;
  sensim_distort_map *map = distort_ptr(self);
  if (!map || !PyArg_ParseTuple(args, "II|i:source", &x, &y, &c)) return NULL;
  const sp_distort *d = (sp_distort *)self;
  if (x >= d->width || y >= d->height || c < 0 || c > 2)
    return PyErr_Format(PyExc_ValueError, "source: pixel (%u, %u) channel %d outside the %ux%u map", x, y,
                        c, d->width, d->height);
  double u, v;
  if (!sensim_distort_map_source(map, x, y, c, &u, &v)) Py_RETURN_NONE;
  return Py_BuildValue("(dd)", u, v);
}

static PyObject *distort_get_size(PyObject *self, void *u) {
  (void)u;
  const sp_distort *d = (sp_distort *)self;
  return Py_BuildValue("(II)", d->width, d->height);
}

static PyMethodDef distort_methods[] = {
    {"apply", KW distort_apply, METH_VARARGS | METH_KEYWORDS,
     "apply($self, image, fill=0.0)\n--\n\n"
     "apply(image, fill=0.0) -> float32 (H, W, C)\nThe image a pinhole camera with the lens's\n"
     "intrinsics made, as the lens makes it (bilinear; `fill` where no input ray is)."},
    {"source", distort_source, METH_VARARGS,
     "source($self, x, y, c=1, /)\n--\n\n"
     "source(x, y, c=1) -> (u, v) or None\nThe input position output pixel (x, y) of channel c\n"
     "reads (OpenCV pixel convention)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef distort_getset[] = {{"size", distort_get_size, NULL, "(width, height), px", NULL},
                                       {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject sp_DistortMapType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sensim.DistortMap",
    .tp_basicsize = sizeof(sp_distort),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "DistortMap(lens, width=0, height=0)\n--\n\n"
              "DistortMap(lens, width=0, height=0)\nA lens's distortion as a remap: lens is a dict\n"
              "(or JSON text) of a scenario camera's keys (lens, dist, fx, fy, cx, cy, hfov_deg,\n"
              "lateral_ca, width, height); width and height, when given, are the image's size.",
    .tp_new = PyType_GenericNew,
    .tp_init = distort_init,
    .tp_dealloc = distort_dealloc,
    .tp_methods = distort_methods,
    .tp_getset = distort_getset,
};

/* ---- augmentations --------------------------------------------------------------- */

static PyObject *t_augment_noise(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"image", "s1", "s2", "seed", "index", NULL};
  PyObject *io;
  double s1, s2;
  uint64_t seed = 1;
  unsigned int index = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "Odd|O&I:augment_noise", kwlist, &io, &s1, &s2,
                                   sp_seed_converter, &seed, &index))
    return NULL;
  sensim_image img;
  PyObject *holder;
  if (sp_image_from(io, &img, &holder, "augment_noise") != 0) return NULL;
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_augment_noise(&img, s1, s2, (uint64_t)seed, (uint32_t)index);
  Py_END_ALLOW_THREADS
  PyObject *res = st != SENSIM_OK ? sp_raise(st) : as_hwc(holder, &img);
  Py_DECREF(holder);
  return res;
}

static PyObject *t_augment_cfa(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"image", "pattern", NULL};
  PyObject *io;
  const char *pattern = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|z:augment_cfa", kwlist, &io, &pattern)) return NULL;
  sensim_image img, raw;
  PyObject *holder;
  if (sp_image_from(io, &img, &holder, "augment_cfa") != 0) return NULL;
  memset(&raw, 0, sizeof raw);
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_augment_cfa(&img, pattern, &raw);
  Py_END_ALLOW_THREADS
  Py_DECREF(holder);
  return st != SENSIM_OK ? sp_raise(st) : sp_image_to(&raw);
}

static PyObject *t_augment_mosaic(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"image", "pattern", "method", NULL};
  PyObject *io;
  const char *pattern = NULL, *method = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|zz:augment_mosaic", kwlist, &io, &pattern, &method))
    return NULL;
  sensim_image img;
  PyObject *holder;
  if (sp_image_from(io, &img, &holder, "augment_mosaic") != 0) return NULL;
  /* The input array is left alone: the tool works in place on a malloc'd
   * copy, which sp_image_to then hands to NumPy. */
  size_t bytes = (size_t)img.width * img.height * (size_t)img.channels * sizeof(float);
  float *buf = malloc(bytes ? bytes : 1);
  if (!buf) {
    Py_DECREF(holder);
    return PyErr_NoMemory();
  }
  memcpy(buf, img.data, bytes);
  Py_DECREF(holder);
  img.data = buf;
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_augment_mosaic(&img, pattern, method);
  Py_END_ALLOW_THREADS
  if (st != SENSIM_OK) {
    sensim_image_free(&img);
    return sp_raise(st);
  }
  return sp_image_to(&img);
}

static PyObject *t_gray_world_gains(PyObject *self, PyObject *arg) {
  (void)self;
  double mean[3], g[3];
  if (arg == Py_None) return PyErr_Format(PyExc_TypeError, "gray_world_gains: expected 3 channel means");
  if (sp_doubles_from(arg, mean, 3, "gray_world_gains: mean") != 0) return NULL;
  sensim_status st = sensim_gray_world_gains(mean, g);
  return st != SENSIM_OK ? sp_raise(st) : tuple_of(g, 3);
}

static PyObject *t_augment_gains(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *io, *go;
  double g[3];
  if (!PyArg_ParseTuple(args, "OO:augment_gains", &io, &go)) return NULL;
  if (go == Py_None) return PyErr_Format(PyExc_TypeError, "augment_gains: expected 3 gains");
  if (sp_doubles_from(go, g, 3, "augment_gains: gains") != 0) return NULL;
  sensim_image img;
  PyObject *holder;
  if (sp_image_from(io, &img, &holder, "augment_gains") != 0) return NULL;
  sensim_status st = sensim_augment_gains(&img, g);
  PyObject *res = st != SENSIM_OK ? sp_raise(st) : as_hwc(holder, &img);
  Py_DECREF(holder);
  return res;
}

static PyObject *t_augment_match_stats(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *io, *o[4];
  if (!PyArg_ParseTuple(args, "OOOOO:augment_match_stats", &io, &o[0], &o[1], &o[2], &o[3])) return NULL;
  sensim_image img;
  PyObject *holder;
  if (sp_image_from(io, &img, &holder, "augment_match_stats") != 0) return NULL;
  static const char *names[4] = {"mean", "std", "ref_mean", "ref_std"};
  double v[4][3];
  PyObject *res = NULL;
  for (int i = 0; i < 4; i++)
    if (o[i] == Py_None || sp_doubles_from(o[i], v[i], img.channels, names[i]) != 0) {
      if (!PyErr_Occurred())
        PyErr_Format(PyExc_TypeError, "augment_match_stats: %s needs %d numbers", names[i], img.channels);
      goto done;
    }
  sensim_status st = sensim_augment_match_stats(&img, v[0], v[1], v[2], v[3]);
  res = st != SENSIM_OK ? sp_raise(st) : as_hwc(holder, &img);
done:
  Py_DECREF(holder);
  return res;
}

/* ---- folders of PNG files --------------------------------------------------------- */

static PyObject *t_list_pngs(PyObject *self, PyObject *arg) {
  (void)self;
  PyObject *dir = NULL;
  if (!PyUnicode_FSConverter(arg, &dir)) return NULL;
  char **paths = NULL;
  size_t n = 0;
  const char *d = PyBytes_AS_STRING(dir);
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_list_pngs(d, &paths, &n);
  Py_END_ALLOW_THREADS
  Py_DECREF(dir);
  if (st != SENSIM_OK) return sp_raise(st);
  PyObject *l = PyList_New((Py_ssize_t)n);
  for (size_t i = 0; l && i < n; i++) {
    PyObject *s = PyUnicode_DecodeFSDefault(paths[i]);
    if (!s) {
      Py_CLEAR(l);
      break;
    }
    PyList_SET_ITEM(l, (Py_ssize_t)i, s);
  }
  sensim_free_paths(paths, n);
  return l;
}

static PyObject *t_image_write_png(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"path", "image", "bits", NULL};
  PyObject *path = NULL, *io;
  int bits = 8;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O|i:image_write_png", kwlist, PyUnicode_FSConverter, &path,
                                   &io, &bits))
    return NULL;
  sensim_image img;
  PyObject *holder = NULL, *res = NULL;
  if (bits != 8 && bits != 16) {
    PyErr_Format(PyExc_ValueError, "image_write_png: bits is 8 or 16, not %d", bits);
  } else if (sp_image_from(io, &img, &holder, "image_write_png") == 0) {
    const char *p = PyBytes_AS_STRING(path);
    sensim_status st;
    Py_BEGIN_ALLOW_THREADS
    st = sensim_image_write_png(p, &img, bits);
    Py_END_ALLOW_THREADS
    res = st != SENSIM_OK ? sp_raise(st) : Py_NewRef(Py_None);
  }
  Py_XDECREF(holder);
  Py_DECREF(path);
  return res;
}

static PyMethodDef image_functions[] = {
    {"image_moments", t_image_moments, METH_O,
     "image_moments($module, image, /)\n--\n\n"
     "image_moments(image) -> (mean, std)\nPer-channel mean and population std (tuples)."},
    {"augment_noise", KW t_augment_noise, METH_VARARGS | METH_KEYWORDS,
     "augment_noise($module, image, s1, s2, seed=1, index=0)\n--\n\n"
     "augment_noise(image, s1, s2, seed=1, index=0) -> image\nx + sqrt(s1^2 max(x, 0) + s2^2) n,\n"
     "n ~ N(0, 1), in the image's unit; the same seed and index give the same noise."},
    {"augment_cfa", KW t_augment_cfa, METH_VARARGS | METH_KEYWORDS,
     "augment_cfa($module, image, pattern='RGGB')\n--\n\n"
     "augment_cfa(image, pattern='RGGB') -> (H, W, 1) mosaic of a colour image."},
    {"augment_mosaic", KW t_augment_mosaic, METH_VARARGS | METH_KEYWORDS,
     "augment_mosaic($module, image, pattern='RGGB', method='mhc')\n--\n\n"
     "augment_mosaic(image, pattern='RGGB', method='mhc') -> image\nMosaic then demosaic with the\n"
     "built-in cfa and demosaic filters ('bilinear' or 'mhc')."},
    {"gray_world_gains", t_gray_world_gains, METH_O,
     "gray_world_gains($module, mean, /)\n--\n\n"
     "gray_world_gains(mean) -> (g_r, g_g, g_b)\nGains mean_G / mean_c (Buchsbaum 1980)."},
    {"augment_gains", t_augment_gains, METH_VARARGS,
     "augment_gains($module, image, gains, /)\n--\n\n"
     "augment_gains(image, gains) -> image\nout_c = g_c in_c on a colour image."},
    {"augment_match_stats", t_augment_match_stats, METH_VARARGS,
     "augment_match_stats($module, image, mean, std, ref_mean, ref_std, /)\n--\n\n"
     "augment_match_stats(image, mean, std, ref_mean, ref_std) -> image\n"
     "out_c = (in_c - mean_c) ref_std_c / std_c + ref_mean_c (Reinhard et al. 2001)."},
    {"list_pngs", t_list_pngs, METH_O,
     "list_pngs($module, dir, /)\n--\n\n"
     "list_pngs(dir) -> list[str]\nEvery *.png (any case) of a folder as 'dir/name', by name."},
    {"image_write_png", KW t_image_write_png, METH_VARARGS | METH_KEYWORDS,
     "image_write_png($module, path, image, bits=8)\n--\n\n"
     "image_write_png(path, image, bits=8)\nAn image in [0, 1] as an 8- or 16-bit grey or RGB PNG."},
    {NULL, NULL, 0, NULL}};

static int add_type(PyObject *m, PyTypeObject *t, const char *name) {
  if (PyType_Ready(t) < 0) return -1;
  Py_INCREF(t);
  if (PyModule_AddObject(m, name, (PyObject *)t) < 0) {
    Py_DECREF(t);
    return -1;
  }
  return 0;
}

int sp_tools_images_init(PyObject *m) {
  if (PyModule_AddFunctions(m, image_functions) < 0) return -1;
  if (add_type(m, &sp_ImageSetStatsType, "ImageSetStats") < 0 ||
      add_type(m, &sp_DistortMapType, "DistortMap") < 0)
    return -1;
  return 0;
}
