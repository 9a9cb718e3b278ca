/* python/src/tools_draw.c: the tools for Python, part 4: pictures written
 * as PNG (sensim_tools/plot.h, colormap.h, preview.h, contact_sheet.h,
 * birdseye.h): the Plot type, the colour maps (vectorised over arrays),
 * depth and label previews, contact sheets and the bird's-eye figure.
 * Inputs are Frames (their depth or label planes included) or arrays. */
#include "module.h"

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL sensim_ARRAY_API
#include <numpy/arrayobject.h>

#include <math.h>
#include <sensim_tools/sensim_tools.h>

#define ARR(o) ((PyArrayObject *)(o))
#define KW (PyCFunction)(void (*)(void))

/* ---- plots -------------------------------------------------------------------- */

typedef struct sp_plot {
  PyObject_HEAD
  sensim_plot *plot;
  int busy; /* 1 while write_png renders without the GIL */
} sp_plot;

/* The plot, or NULL with StateError (not initialised, or rendering on
 * another thread: drawing into it then would race the renderer). */
static sensim_plot *plot_ptr(PyObject *self) {
  sp_plot *p = (sp_plot *)self;
  if (!p->plot) return sp_state_error("Plot: not initialised"), NULL;
  if (p->busy) return sp_state_error("Plot: busy writing on another thread"), NULL;
  return p->plot;
}

static int plot_init(PyObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"width", "height", "title", "xlabel", "ylabel", "log_x", "log_y", NULL};
  int w = 800, h = 500, lx = 0, ly = 0;
  const char *title = NULL, *xl = NULL, *yl = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "|iizzzpp:Plot", kwlist, &w, &h, &title, &xl, &yl, &lx, &ly))
    return -1;
  if (((sp_plot *)self)->plot) {
    sp_state_error("Plot.__init__: the plot is already made");
    return -1;
  }
  sensim_plot *p = NULL;
  sensim_status st = sensim_plot_create(w, h, title, xl, yl, lx, ly, &p);
  if (st != SENSIM_OK) return sp_raise_int(st);
  sensim_plot_destroy(((sp_plot *)self)->plot);
  ((sp_plot *)self)->plot = p;
  return 0;
}

static void plot_dealloc(PyObject *self) {
  sensim_plot_destroy(((sp_plot *)self)->plot);
  Py_TYPE(self)->tp_free(self);
}

/* Style keywords: color=(r, g, b) 0..255, dashed, marker, legend. */
static int style_from(PyObject *color, int dashed, int marker, const char *legend, sensim_plot_style *s) {
  memset(s, 0, sizeof *s);
  s->dashed = dashed;
  s->marker = marker;
  s->legend = legend;
  if (color && color != Py_None) {
    double c[3];
    if (sp_doubles_from(color, c, 3, "color (r, g, b), 0..255") != 0) return -1;
    for (int i = 0; i < 3; i++) {
      if (c[i] < 0 || c[i] > 255) {
        PyErr_SetString(PyExc_ValueError, "color: each of r, g, b in 0..255");
        return -1;
      }
      s->rgb[i] = (uint8_t)lround(c[i]);
    }
  }
  return 0;
}

static PyObject *plot_draw(PyObject *self, PyObject *args, PyObject *kw, int bars) {
  static char *kwlist[] = {"x", "y", "color", "dashed", "marker", "legend", NULL};
  PyObject *xo, *yo, *color = Py_None;
  int dashed = 0, marker = 0;
  const char *legend = NULL;
  sensim_plot *p = plot_ptr(self);
  if (!p) return NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, bars ? "OO|$Oppz:bars" : "OO|$Oppz:line", kwlist, &xo, &yo,
                                   &color, &dashed, &marker, &legend))
    return NULL;
  sensim_plot_style s;
  if (style_from(color, dashed, marker, legend, &s) != 0) return NULL;
  PyObject *x = sp_tools_doubles(xo, 1, 1, bars ? "bars: edges" : "line: x");
  PyObject *y = x ? sp_tools_doubles(yo, 1, 1, bars ? "bars: counts" : "line: y") : NULL;
  PyObject *res = NULL;
  if (y) {
    size_t nx = (size_t)PyArray_DIM(ARR(x), 0), ny = (size_t)PyArray_DIM(ARR(y), 0);
    if (bars ? nx != ny + 1 : nx != ny) {
      PyErr_SetString(PyExc_ValueError, bars ? "bars: len(edges) must be len(counts) + 1"
                                             : "line: x and y differ in length");
    } else {
      sensim_status st = bars ? sensim_plot_bars(p, PyArray_DATA(ARR(x)), PyArray_DATA(ARR(y)), ny, &s)
                              : sensim_plot_line(p, PyArray_DATA(ARR(x)), PyArray_DATA(ARR(y)), ny, &s);
      res = st != SENSIM_OK ? sp_raise(st) : Py_NewRef(Py_None);
    }
  }
  Py_XDECREF(x);
  Py_XDECREF(y);
  return res;
}

static PyObject *plot_line(PyObject *self, PyObject *args, PyObject *kw) {
  return plot_draw(self, args, kw, 0);
}

static PyObject *plot_bars(PyObject *self, PyObject *args, PyObject *kw) {
  return plot_draw(self, args, kw, 1);
}

static PyObject *plot_write_png(PyObject *self, PyObject *arg) {
  sensim_plot *p = plot_ptr(self);
  if (!p) return NULL;
  PyObject *path = NULL;
  if (!PyUnicode_FSConverter(arg, &path)) return NULL;
  const char *cp = PyBytes_AS_STRING(path);
  sensim_status st;
  ((sp_plot *)self)->busy = 1;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_plot_write_png(p, cp);
  Py_END_ALLOW_THREADS
  ((sp_plot *)self)->busy = 0;
  Py_DECREF(path);
  return st != SENSIM_OK ? sp_raise(st) : Py_NewRef(Py_None);
}

static PyMethodDef plot_methods[] = {
    {"line", KW plot_line, METH_VARARGS | METH_KEYWORDS,
     "line($self, x, y, *, color=None, dashed=False, marker=False, legend=None)\n--\n\n"
     "line(x, y, *, color=(0, 0, 0), dashed=False, marker=False, legend=None)\nA polyline."},
    {"bars", KW plot_bars, METH_VARARGS | METH_KEYWORDS,
     "bars($self, edges, counts, *, color=None, dashed=False, marker=False, legend=None)\n--\n\n"
     "bars(edges, counts, *, color=..., dashed=False, marker=False, legend=None)\nA histogram:\n"
     "len(edges) = len(counts) + 1."},
    {"write_png", plot_write_png, METH_O, "write_png($self, path, /)\n--\n\n"
     "write_png(path)\nRender and write an 8-bit PNG."},
    {NULL, NULL, 0, NULL}};

static PyTypeObject sp_PlotType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sensim.Plot",
    .tp_basicsize = sizeof(sp_plot),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "Plot(width=800, height=500, title=None, xlabel=None, ylabel=None, log_x=False, log_y=False)\n--\n\n"
              "Plot(width=800, height=500, title=None, xlabel=None, ylabel=None, log_x=False,\n"
              "log_y=False)\nA plot drawn with cairo and written as PNG; axes fit everything drawn.",
    .tp_new = PyType_GenericNew,
    .tp_init = plot_init,
    .tp_dealloc = plot_dealloc,
    .tp_methods = plot_methods,
};

/* ---- colour maps ---------------------------------------------------------------- */

/* A scalar gives an (r, g, b) tuple; an array of shape S a uint8 array
 * (S..., 3). */
static PyObject *colormap(PyObject *o, int labels) {
  if (PyFloat_Check(o) || PyLong_Check(o)) {
    uint8_t rgb[3];
    if (labels) {
      long long id = PyLong_AsLongLong(o);
      if (id == -1 && PyErr_Occurred()) return NULL;
      if (id < 0 || id > UINT32_MAX) return PyErr_Format(PyExc_ValueError, "label_color: id in 0..2^32-1");
      sensim_label_color((uint32_t)id, rgb);
    } else {
      double t = PyFloat_AsDouble(o);
      if (t == -1.0 && PyErr_Occurred()) return NULL;
      sensim_colormap_viridis(t, rgb);
    }
    return Py_BuildValue("(iii)", rgb[0], rgb[1], rgb[2]);
  }
  PyObject *a = labels ? PyArray_FROMANY(o, NPY_INT64, 0, 0, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED)
                       : sp_tools_doubles(o, 0, NPY_MAXDIMS - 1, "colormap_viridis: t");
  if (!a) return NULL;
  if (labels) {
    const int64_t *ids = PyArray_DATA(ARR(a));
    for (npy_intp i = 0, n = PyArray_SIZE(ARR(a)); i < n; i++)
      if (ids[i] < 0 || ids[i] > UINT32_MAX) {
        Py_DECREF(a);
        return PyErr_Format(PyExc_ValueError, "label_color: ids in 0..2^32-1, got %lld", (long long)ids[i]);
      }
  }
  int nd = PyArray_NDIM(ARR(a));
  if (nd >= NPY_MAXDIMS) {
    Py_DECREF(a);
    return PyErr_Format(PyExc_ValueError, "too many dimensions");
  }
  npy_intp dims[NPY_MAXDIMS];
  for (int i = 0; i < nd; i++) dims[i] = PyArray_DIM(ARR(a), i);
  dims[nd] = 3;
  PyObject *out = PyArray_SimpleNew(nd + 1, dims, NPY_UINT8);
  if (out) {
    npy_intp n = PyArray_SIZE(ARR(a));
    uint8_t *d = PyArray_DATA(ARR(out));
    const void *in = PyArray_DATA(ARR(a));
    Py_BEGIN_ALLOW_THREADS
    for (npy_intp i = 0; i < n; i++) {
      if (labels)
        sensim_label_color((uint32_t)((const int64_t *)in)[i], d + 3 * i);
      else
        sensim_colormap_viridis(((const double *)in)[i], d + 3 * i);
    }
    Py_END_ALLOW_THREADS
  }
  Py_DECREF(a);
  return out;
}

static PyObject *t_colormap_viridis(PyObject *self, PyObject *arg) {
  (void)self;
  return colormap(arg, 0);
}

static PyObject *t_label_color(PyObject *self, PyObject *arg) {
  (void)self;
  return colormap(arg, 1);
}

/* ---- previews ---------------------------------------------------------------------- */

/* Depth from a Frame (a depth_f32 payload or its depth plane) or an array
 * (H, W); the data stays in *holder (new reference) or the frame. */
static const float *depth_from(PyObject *o, uint32_t *w, uint32_t *h, PyObject **holder) {
  *holder = NULL;
  if (PyObject_TypeCheck(o, &sp_FrameType)) {
    const sensim_frame *f = sp_frame_ptr(o);
    const float *d = f->type == SENSIM_PAYLOAD_DEPTH_F32 ? f->data : f->depth;
    if (!d) {
      sensim_error_set(SENSIM_ETYPE, "depth preview: a %s frame without a depth plane",
                       sensim_payload_name(f->type));
      sp_raise(SENSIM_ETYPE);
      return NULL;
    }
    *w = f->width;
    *h = f->height;
    *holder = Py_NewRef(o);
    return d;
  }
  PyObject *a = PyArray_FROMANY(o, NPY_FLOAT32, 2, 2, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED | NPY_ARRAY_FORCECAST);
  if (!a) return NULL;
  *h = (uint32_t)PyArray_DIM(ARR(a), 0);
  *w = (uint32_t)PyArray_DIM(ARR(a), 1);
  *holder = a;
  return PyArray_DATA(ARR(a));
}

static PyObject *t_depth_preview(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"depth", "path", "min_range", "max_range", NULL};
  PyObject *d, *path = NULL;
  sensim_depth_preview_params p;
  sensim_depth_preview_params_init(&p);
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO&|dd:depth_preview", kwlist, &d, PyUnicode_FSConverter,
                                   &path, &p.min_range, &p.max_range))
    return NULL;
  uint32_t w = 0, h = 0;
  PyObject *holder = NULL, *res = NULL;
  const float *depth = depth_from(d, &w, &h, &holder);
  if (depth) {
    const char *cp = PyBytes_AS_STRING(path);
    sensim_status st;
    Py_BEGIN_ALLOW_THREADS
    st = sensim_depth_preview_write_png(depth, w, h, &p, cp);
    Py_END_ALLOW_THREADS
    res = st != SENSIM_OK ? sp_raise(st) : Py_NewRef(Py_None);
  }
  Py_XDECREF(holder);
  Py_DECREF(path);
  return res;
}

static PyObject *t_depth_preview_png(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"in_path", "out_path", "min_range", "max_range", NULL};
  PyObject *in = NULL, *out = NULL;
  sensim_depth_preview_params p;
  sensim_depth_preview_params_init(&p);
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|dd:depth_preview_png", kwlist, PyUnicode_FSConverter,
                                   &in, PyUnicode_FSConverter, &out, &p.min_range, &p.max_range))
    return NULL;
  const char *a = PyBytes_AS_STRING(in), *b = PyBytes_AS_STRING(out);
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_depth_preview_png(a, &p, b);
  Py_END_ALLOW_THREADS
  Py_DECREF(in);
  Py_DECREF(out);
  return st != SENSIM_OK ? sp_raise(st) : Py_NewRef(Py_None);
}

/* Labels from a Frame (labels payload or plane), a structured array with
 * class_id and instance_id fields, or an integer array (H, W) of the ids
 * of `field`. *owned is a PyMem buffer to free, or NULL. */
static const sensim_label *labels_from(PyObject *o, sensim_label_field field, uint32_t *w, uint32_t *h,
                                       sensim_label **owned) {
  *owned = NULL;
  if (PyObject_TypeCheck(o, &sp_FrameType)) {
    const sensim_frame *f = sp_frame_ptr(o);
    const sensim_label *l = f->type == SENSIM_PAYLOAD_LABELS ? f->data : f->labels;
    if (!l) {
      sensim_error_set(SENSIM_ETYPE, "label preview: a %s frame without a label plane",
                       sensim_payload_name(f->type));
      sp_raise(SENSIM_ETYPE);
      return NULL;
    }
    *w = f->width;
    *h = f->height;
    return l;
  }
  PyObject *arr = PyArray_FROMANY(o, NPY_NOTYPE, 2, 2, 0);
  if (!arr) return NULL;
  PyArray_Descr *dt = PyArray_DESCR(ARR(arr));
  PyObject *cls = NULL, *ins = NULL;
  if (PyDataType_HASFIELDS(dt)) {
    PyObject *kc = PyUnicode_FromString("class_id"), *ki = PyUnicode_FromString("instance_id");
    PyObject *fc = kc ? PyObject_GetItem(arr, kc) : NULL;
    PyObject *fi = fc && ki ? PyObject_GetItem(arr, ki) : NULL;
    Py_XDECREF(kc);
    Py_XDECREF(ki);
    if (fi) {
      cls = PyArray_FROMANY(fc, NPY_UINT32, 2, 2, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED | NPY_ARRAY_FORCECAST);
      ins = cls ? PyArray_FROMANY(fi, NPY_UINT32, 2, 2, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED | NPY_ARRAY_FORCECAST) : NULL;
    }
    Py_XDECREF(fc);
    Py_XDECREF(fi);
  } else if (PyDataType_ISINTEGER(dt)) {
    PyObject *ids = PyArray_FROMANY(arr, NPY_UINT32, 2, 2, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED | NPY_ARRAY_FORCECAST);
    if (ids) {
      cls = field == SENSIM_LABEL_CLASS ? ids : Py_NewRef(ids);
      ins = field == SENSIM_LABEL_CLASS ? Py_NewRef(ids) : ids;
    }
  } else {
    PyErr_SetString(PyExc_TypeError, "label preview: labels are a Frame, a structured array with "
                                     "class_id and instance_id, or an integer array (H, W)");
  }
  Py_DECREF(arr);
  if (!cls || !ins) {
    Py_XDECREF(cls);
    Py_XDECREF(ins);
    return NULL;
  }
  npy_intp n = PyArray_SIZE(ARR(cls));
  *h = (uint32_t)PyArray_DIM(ARR(cls), 0);
  *w = (uint32_t)PyArray_DIM(ARR(cls), 1);
  sensim_label *l = PyMem_Calloc(n ? (size_t)n : 1, sizeof *l);
  if (!l) {
    PyErr_NoMemory();
  } else {
    const uint32_t *c = PyArray_DATA(ARR(cls)), *i = PyArray_DATA(ARR(ins));
    for (npy_intp k = 0; k < n; k++) {
      l[k].class_id = (uint16_t)c[k];
      l[k].instance_id = i[k];
    }
  }
  Py_DECREF(cls);
  Py_DECREF(ins);
  *owned = l;
  return l;
}

static int label_field_from(const char *s, sensim_label_field *f) {
  if (!strcmp(s, "class")) *f = SENSIM_LABEL_CLASS;
  else if (!strcmp(s, "instance")) *f = SENSIM_LABEL_INSTANCE;
  else {
    PyErr_Format(PyExc_ValueError, "field is 'class' or 'instance', not '%s'", s);
    return -1;
  }
  return 0;
}

static PyObject *t_label_preview(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"labels", "path", "field", NULL};
  PyObject *lo, *path = NULL;
  const char *fname = "class";
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO&|s:label_preview", kwlist, &lo, PyUnicode_FSConverter,
                                   &path, &fname))
    return NULL;
  sensim_label_field field;
  sensim_label *owned = NULL;
  uint32_t w = 0, h = 0;
  PyObject *res = NULL;
  const sensim_label *l = label_field_from(fname, &field) == 0 ? labels_from(lo, field, &w, &h, &owned) : NULL;
  if (l) {
    const char *cp = PyBytes_AS_STRING(path);
    sensim_status st;
    Py_BEGIN_ALLOW_THREADS
    st = sensim_label_preview_write_png(l, w, h, field, cp);
    Py_END_ALLOW_THREADS
    res = st != SENSIM_OK ? sp_raise(st) : Py_NewRef(Py_None);
  }
  PyMem_Free(owned);
  Py_DECREF(path);
  return res;
}

static PyObject *t_label_preview_png(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *in = NULL, *out = NULL;
  if (!PyArg_ParseTuple(args, "O&O&:label_preview_png", PyUnicode_FSConverter, &in, PyUnicode_FSConverter,
                        &out))
    return NULL;
  const char *a = PyBytes_AS_STRING(in), *b = PyBytes_AS_STRING(out);
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_label_preview_png(a, b);
  Py_END_ALLOW_THREADS
  Py_DECREF(in);
  Py_DECREF(out);
  return st != SENSIM_OK ? sp_raise(st) : Py_NewRef(Py_None);
}

/* ---- contact sheets ------------------------------------------------------------------ */

static PyObject *t_contact_sheet(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"dir", "path", "cols", "max_frames", "cell_width", "title", NULL};
  PyObject *dir = NULL, *path = NULL;
  sensim_contact_sheet_params p;
  sensim_contact_sheet_params_init(&p);
  Py_ssize_t maxf = (Py_ssize_t)p.max_frames;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O&|$inix:contact_sheet", kwlist, PyUnicode_FSConverter, &dir,
                                   PyUnicode_FSConverter, &path, &p.cols, &maxf, &p.cell_width, &p.title))
    return NULL;
  PyObject *res = NULL;
  if (maxf < 0) {
    PyErr_SetString(PyExc_ValueError, "contact_sheet: max_frames must be >= 0 (0: all)");
  } else {
    p.max_frames = (size_t)maxf;
    sensim_contact_sheet_info info;
    const char *d = PyBytes_AS_STRING(dir), *cp = PyBytes_AS_STRING(path);
    sensim_status st;
    Py_BEGIN_ALLOW_THREADS
    st = sensim_contact_sheet_write_png(d, &p, cp, &info);
    Py_END_ALLOW_THREADS
    if (st != SENSIM_OK)
      sp_raise(st);
    else
      res = Py_BuildValue("{s:i,s:i,s:i,s:i,s:i,s:i,s:n,s:n}", "width", info.width, "height", info.height,
                          "cols", info.cols, "rows", info.rows, "cell_w", info.cell_w, "cell_h", info.cell_h,
                          "frames", (Py_ssize_t)info.frames, "files", (Py_ssize_t)info.files);
  }
  Py_DECREF(dir);
  Py_DECREF(path);
  return res;
}

/* ---- the bird's-eye figure ------------------------------------------------------------ */

static char *birdseye_kwlist[] = {"range", "color", "z_min", "z_max", "rings", "vehicle_length",
                                  "vehicle_width", "vehicle_x", "vehicle_y", "title", NULL};

static int birdseye_params_from(PyObject *kw, sensim_birdseye_figure_params *p) {
  sensim_birdseye_figure_params_init(p);
  const char *color = NULL;
  PyObject *empty = PyTuple_New(0);
  if (!empty) return -1;
  int ok = PyArg_ParseTupleAndKeywords(empty, kw, "|dsddiddddz:birdseye_figure", birdseye_kwlist, &p->range,
                                       &color, &p->z_min, &p->z_max, &p->rings, &p->vehicle_length,
                                       &p->vehicle_width, &p->vehicle_x, &p->vehicle_y, &p->title);
  Py_DECREF(empty);
  if (!ok) return -1;
  if (color) {
    if (!strcmp(color, "intensity")) p->color = SENSIM_BIRDSEYE_INTENSITY;
    else if (!strcmp(color, "height")) p->color = SENSIM_BIRDSEYE_HEIGHT;
    else if (!strcmp(color, "ring")) p->color = SENSIM_BIRDSEYE_RING;
    else {
      PyErr_Format(PyExc_ValueError, "birdseye_figure: color is 'intensity', 'height' or 'ring', not '%s'",
                   color);
      return -1;
    }
  }
  return 0;
}

static PyObject *birdseye_info(const sensim_birdseye_figure_info *i) {
  return Py_BuildValue("{s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:i,s:d,s:d}", "width", i->width, "height", i->height,
                       "image_x", i->image_x, "image_y", i->image_y, "bar_x", i->bar_x, "bar_y", i->bar_y,
                       "bar_w", i->bar_w, "bar_h", i->bar_h, "tick_step", i->tick_step, "scale_bar",
                       i->scale_bar);
}

/* birdseye_figure(image, path, **params): image an rgba8 Frame or a uint8
 * array (S, S, 4). The title borrowed from kw stays alive with kw. */
static PyObject *t_birdseye_figure(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  PyObject *io, *path = NULL;
  if (!PyArg_ParseTuple(args, "OO&:birdseye_figure", &io, PyUnicode_FSConverter, &path)) return NULL;
  sensim_birdseye_figure_params p;
  PyObject *holder = NULL, *res = NULL;
  const uint8_t *rgba = NULL;
  uint32_t size = 0;
  if (birdseye_params_from(kw, &p) != 0) goto done;
  if (PyObject_TypeCheck(io, &sp_FrameType)) {
    const sensim_frame *f = sp_frame_ptr(io);
    if (f->type != SENSIM_PAYLOAD_RGBA8 || f->width != f->height || !f->data) {
      sensim_error_set(SENSIM_ETYPE, "birdseye_figure: expected a square rgba8 frame, got %s %ux%u",
                       sensim_payload_name(f->type), f->width, f->height);
      sp_raise(SENSIM_ETYPE);
      goto done;
    }
    rgba = f->data;
    size = f->width;
  } else {
    holder = PyArray_FROMANY(io, NPY_UINT8, 3, 3, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED);
    if (!holder) goto done;
    npy_intp *d = PyArray_DIMS(ARR(holder));
    if (d[0] != d[1] || d[2] != 4 || d[0] > UINT32_MAX) {
      PyErr_SetString(PyExc_ValueError, "birdseye_figure: the image is a uint8 array (S, S, 4)");
      goto done;
    }
    rgba = PyArray_DATA(ARR(holder));
    size = (uint32_t)d[0];
  }
  sensim_birdseye_figure_info info;
  const char *cp = PyBytes_AS_STRING(path);
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_birdseye_figure_write_png(rgba, size, &p, cp, &info);
  Py_END_ALLOW_THREADS
  res = st != SENSIM_OK ? sp_raise(st) : birdseye_info(&info);
done:
  Py_XDECREF(holder);
  Py_DECREF(path);
  return res;
}

static PyObject *t_birdseye_figure_png(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  PyObject *in = NULL, *out = NULL, *res = NULL;
  if (!PyArg_ParseTuple(args, "O&O&:birdseye_figure_png", PyUnicode_FSConverter, &in, PyUnicode_FSConverter,
                        &out))
    return NULL;
  sensim_birdseye_figure_params p;
  if (birdseye_params_from(kw, &p) == 0) {
    sensim_birdseye_figure_info info;
    const char *a = PyBytes_AS_STRING(in), *b = PyBytes_AS_STRING(out);
    sensim_status st;
    Py_BEGIN_ALLOW_THREADS
    st = sensim_birdseye_figure_png(a, &p, b, &info);
    Py_END_ALLOW_THREADS
    res = st != SENSIM_OK ? sp_raise(st) : birdseye_info(&info);
  }
  Py_DECREF(in);
  Py_DECREF(out);
  return res;
}

static PyMethodDef draw_functions[] = {
    {"colormap_viridis", t_colormap_viridis, METH_O,
     "colormap_viridis($module, t, /)\n--\n\n"
     "colormap_viridis(t) -> (r, g, b) or uint8 array (..., 3)\nviridis at t in [0, 1] (clamped)."},
    {"label_color", t_label_color, METH_O,
     "label_color($module, id, /)\n--\n\n"
     "label_color(id) -> (r, g, b) or uint8 array (..., 3)\nA distinct colour per class or\n"
     "instance id (black for 0), the same in every run."},
    {"depth_preview", KW t_depth_preview, METH_VARARGS | METH_KEYWORDS,
     "depth_preview($module, depth, path, min_range=0.0, max_range=80.0)\n--\n\n"
     "depth_preview(depth, path, min_range=0.0, max_range=80.0)\nviridis picture of a depth image\n"
     "(m) with a colour bar: depth is a Frame (depth_f32 or a camera's depth plane) or (H, W)."},
    {"depth_preview_png", KW t_depth_preview_png, METH_VARARGS | METH_KEYWORDS,
     "depth_preview_png($module, in_path, out_path, min_range=0.0, max_range=80.0)\n--\n\n"
     "depth_preview_png(in_path, out_path, min_range=0.0, max_range=80.0)\nThe same from a depth\n"
     "PNG sensim wrote (16-bit mm)."},
    {"label_preview", KW t_label_preview, METH_VARARGS | METH_KEYWORDS,
     "label_preview($module, labels, path, field='class')\n--\n\n"
     "label_preview(labels, path, field='class')\nA colour per id with a legend: labels is a Frame\n"
     "(labels payload or plane), a structured array (class_id, instance_id) or an integer (H, W)\n"
     "array of the ids of `field` ('class' or 'instance')."},
    {"label_preview_png", t_label_preview_png, METH_VARARGS,
     "label_preview_png($module, in_path, out_path, /)\n--\n\n"
     "label_preview_png(in_path, out_path)\nThe same from a label PNG sensim wrote."},
    {"contact_sheet", KW t_contact_sheet, METH_VARARGS | METH_KEYWORDS,
     "contact_sheet($module, dir, path, *, cols=0, max_frames=64, cell_width=240, title=None)\n--\n\n"
     "contact_sheet(dir, path, *, cols=0, max_frames=64, cell_width=240, title=None) -> dict\n"
     "A grid of a folder's PNG files as one PNG; returns its geometry."},
    {"birdseye_figure", KW t_birdseye_figure, METH_VARARGS | METH_KEYWORDS,
     "birdseye_figure($module, image, path, /, *, range=50.0, color='intensity', z_min=-2.0, z_max=2.0, rings=16, vehicle_length=4.5, vehicle_width=1.8, vehicle_x=0.0, vehicle_y=0.0, title=None)\n--\n\n"
     "birdseye_figure(image, path, *, range=50, color='intensity', z_min=-2, z_max=2, rings=16,\n"
     "vehicle_length=4.5, vehicle_width=1.8, vehicle_x=0, vehicle_y=0, title=None) -> dict\n"
     "The lidar birdseye filter's image (rgba8 Frame or uint8 (S, S, 4)) with metric axes."},
    {"birdseye_figure_png", KW t_birdseye_figure_png, METH_VARARGS | METH_KEYWORDS,
     "birdseye_figure_png($module, in_path, out_path, /, *, range=50.0, color='intensity', z_min=-2.0, z_max=2.0, rings=16, vehicle_length=4.5, vehicle_width=1.8, vehicle_x=0.0, vehicle_y=0.0, title=None)\n--\n\n"
     "birdseye_figure_png(in_path, out_path, **params) -> dict\nThe same from a PNG."},
    {NULL, NULL, 0, NULL}};

int sp_tools_draw_init(PyObject *m) {
  if (PyModule_AddFunctions(m, draw_functions) < 0) return -1;
  if (PyType_Ready(&sp_PlotType) < 0) return -1;
  Py_INCREF(&sp_PlotType);
  if (PyModule_AddObject(m, "Plot", (PyObject *)&sp_PlotType) < 0) {
    Py_DECREF(&sp_PlotType);
    return -1;
  }
  return 0;
}
