/* python/src/io.c: files and formats (sensim/io.h, nmea.h, geodesy.h):
 * frame writers (PNG, PCD, PLY, CSV, NumPy .npy), PNG reading, NMEA sentences,
 * folders, WGS84 conversions and UTC times.
 *
 * Frames are only read; the GIL is released around every file access. A
 * Frame must not be changed by another thread (a FilterChain.run on it)
 * while a writer reads it. */
#include "module.h"

/* ---- frame writers ------------------------------------------------------- */

typedef sensim_status (*frame_writer)(const char *path, const sensim_frame *f, int binary);

static sensim_status png_writer(const char *path, const sensim_frame *f, int binary) {
  (void)binary;
  return sensim_write_png(path, f);
}

static PyObject *write_frame(PyObject *args, PyObject *kw, const char *fmt, frame_writer fn) {
  static char *kwlist[] = {"path", "frame", "binary", NULL};
  PyObject *path = NULL, *fobj = NULL;
  int binary = 1;
  if (!PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, PyUnicode_FSConverter, &path, &fobj,
                                   &binary))
    return NULL;
  sensim_frame *f = sp_frame_ptr(fobj);
  if (!f) {
    Py_DECREF(path);
    return NULL;
  }
  const char *p = PyBytes_AS_STRING(path);
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = fn(p, f, binary);
  Py_END_ALLOW_THREADS
  Py_DECREF(path);
  if (st != SENSIM_OK) return sp_raise(st);
  Py_RETURN_NONE;
}

static sensim_status npy_writer(const char *path, const sensim_frame *f, int binary) {
  (void)binary;
  return sensim_write_npy(path, f);
}

/* A writer of (path, frame) alone: `name` for messages. */
static PyObject *write_frame_only(PyObject *args, PyObject *kw, const char *name, frame_writer fn) {
  static char *kwlist[] = {"path", "frame", NULL};
  char fmt[64], fmt_binary[64];
  snprintf(fmt, sizeof fmt, "O&O:%s", name);
  snprintf(fmt_binary, sizeof fmt_binary, "O&O|p:%s", name);
  PyObject *path = NULL, *fobj = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, PyUnicode_FSConverter, &path, &fobj)) return NULL;
  PyObject *a = Py_BuildValue("(NO)", path, fobj);
  if (!a) return NULL;
  PyObject *r = write_frame(a, NULL, fmt_binary, fn);
  Py_DECREF(a);
  return r;
}

static PyObject *io_write_png(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  return write_frame_only(args, kw, "write_png", png_writer);
}

static PyObject *io_write_npy(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  return write_frame_only(args, kw, "write_npy", npy_writer);
}

static PyObject *io_write_pcd(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  return write_frame(args, kw, "O&O|p:write_pcd", sensim_write_pcd);
}

static PyObject *io_write_ply(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  return write_frame(args, kw, "O&O|p:write_ply", sensim_write_ply);
}

static PyObject *io_read_png(PyObject *self, PyObject *arg) {
  (void)self;
  PyObject *path = NULL;
  if (!PyUnicode_FSConverter(arg, &path)) return NULL;
  const char *p = PyBytes_AS_STRING(path);
  sensim_image img;
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_read_png(p, &img);
  Py_END_ALLOW_THREADS
  Py_DECREF(path);
  if (st != SENSIM_OK) return sp_raise(st);
  return sp_image_to(&img);
}

static PyObject *io_mkdirs(PyObject *self, PyObject *arg) {
  (void)self;
  PyObject *path = NULL;
  if (!PyUnicode_FSConverter(arg, &path)) return NULL;
  const char *p = PyBytes_AS_STRING(path);
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_mkdirs(p);
  Py_END_ALLOW_THREADS
  Py_DECREF(path);
  if (st != SENSIM_OK) return sp_raise(st);
  Py_RETURN_NONE;
}

/* image_stats_pngs(paths, weights=None): per-channel (mean, std) tuples,
 * or with weights (w_r, w_g, w_b) the (mean, std) of the weighted sum. */
static PyObject *io_image_stats_pngs(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"paths", "weights", NULL};
  PyObject *paths = NULL, *weights = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O|O:image_stats_pngs", kwlist, &paths, &weights))
    return NULL;
  double w[3];
  if (weights != Py_None && sp_doubles_from(weights, w, 3, "weights") != 0) return NULL;
  if (PyUnicode_Check(paths) || PyBytes_Check(paths))
    return PyErr_Format(PyExc_TypeError, "image_stats_pngs: paths is a sequence of paths, not one path");
  PyObject *seq = PySequence_Fast(paths, "image_stats_pngs: paths must be a sequence of paths");
  if (!seq) return NULL;
  Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
  PyObject *bytes = PyList_New(n);
  const char **cp = PyMem_Calloc(n > 0 ? (size_t)n : 1, sizeof *cp);
  PyObject *res = NULL;
  if (!bytes || !cp) {
    PyErr_NoMemory();
    goto done;
  }
  for (Py_ssize_t i = 0; i < n; i++) {
    PyObject *b = NULL;
    if (!PyUnicode_FSConverter(PySequence_Fast_GET_ITEM(seq, i), &b)) goto done;
    PyList_SET_ITEM(bytes, i, b);
    cp[i] = PyBytes_AS_STRING(b);
  }
  double mean[3], std[3];
  sensim_status st;
  int weighted = weights != Py_None;
  Py_BEGIN_ALLOW_THREADS
  st = weighted ? sensim_image_stats_pngs_weighted(cp, (size_t)n, w, mean, std)
                : sensim_image_stats_pngs(cp, (size_t)n, mean, std);
  Py_END_ALLOW_THREADS
  if (st != SENSIM_OK)
    sp_raise(st);
  else if (weighted)
    res = Py_BuildValue("(dd)", mean[0], std[0]);
  else
    res = Py_BuildValue("((ddd)(ddd))", mean[0], mean[1], mean[2], std[0], std[1], std[2]);
done:
  PyMem_Free(cp);
  Py_XDECREF(bytes);
  Py_DECREF(seq);
  return res;
}

/* ---- CSV ------------------------------------------------------------------ */

typedef struct sp_csv {
  PyObject_HEAD
  sensim_csv *csv;       /* NULL before opening and once closed */
  sensim_payload type;
  PyObject *path;        /* str */
  int busy;              /* 1 while append works without the GIL */
} sp_csv;

static PyObject *csv_new(PyTypeObject *type, PyObject *args, PyObject *kw) {
  (void)args;
  (void)kw;
  sp_csv *c = (sp_csv *)type->tp_alloc(type, 0);
  if (c) {
    c->csv = NULL;
    c->path = NULL;
    c->busy = 0;
    c->type = SENSIM_PAYLOAD_NONE;
  }
  return (PyObject *)c;
}

static int csv_init(PyObject *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"path", "type", NULL};
  sp_csv *c = (sp_csv *)self;
  PyObject *path = NULL, *type = NULL;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O:CsvWriter", kwlist, PyUnicode_FSConverter, &path,
                                   &type))
    return -1;
  sensim_payload pt;
  if (c->csv || c->busy) {
    Py_DECREF(path);
    sp_state_error("CsvWriter.__init__: the writer is already open");
    return -1;
  }
  if (sp_payload_from(type, &pt) != 0) {
    Py_DECREF(path);
    return -1;
  }
  const char *p = PyBytes_AS_STRING(path);
  sensim_csv *csv = NULL;
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_csv_open(p, pt, &csv);
  Py_END_ALLOW_THREADS
  if (st != SENSIM_OK) {
    Py_DECREF(path);
    return sp_raise_int(st);
  }
  Py_XSETREF(c->path, PyUnicode_DecodeFSDefault(p));
  Py_DECREF(path);
  c->csv = csv;
  c->type = pt;
  return 0;
}

static sensim_status csv_close_now(sp_csv *c) {
  sensim_csv *csv = c->csv;
  c->csv = NULL;
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_csv_close(csv);
  Py_END_ALLOW_THREADS
  return st;
}

static void csv_dealloc(PyObject *self) {
  sp_csv *c = (sp_csv *)self;
  /* An unclosed writer is closed (the file appears); a failure can only
   * be reported as unraisable here. */
  if (c->csv && csv_close_now(c) != SENSIM_OK) {
    sp_raise(SENSIM_EIO);
    PyErr_WriteUnraisable(self);
  }
  Py_CLEAR(c->path);
  Py_TYPE(self)->tp_free(self);
}

static int csv_check(sp_csv *c) {
  if (c->busy) {
    sp_state_error("CsvWriter: the writer is in use on another thread");
    return -1;
  }
  if (!c->csv) {
    sp_state_error("CsvWriter: the writer is closed");
    return -1;
  }
  return 0;
}

static PyObject *csv_append(PyObject *self, PyObject *fobj) {
  sp_csv *c = (sp_csv *)self;
  if (csv_check(c) != 0) return NULL;
  sensim_frame *f = sp_frame_ptr(fobj);
  if (!f) return NULL;
  sensim_status st;
  sensim_csv *csv = c->csv;
  c->busy = 1;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_csv_append(csv, f);
  Py_END_ALLOW_THREADS
  c->busy = 0;
  if (st != SENSIM_OK) return sp_raise(st);
  Py_RETURN_NONE;
}

static PyObject *csv_close(PyObject *self, PyObject *unused) {
  (void)unused;
  sp_csv *c = (sp_csv *)self;
  if (c->busy) return sp_state_error("CsvWriter.close: the writer is in use on another thread");
  if (!c->csv) Py_RETURN_NONE;
  sensim_status st = csv_close_now(c);
  if (st != SENSIM_OK) return sp_raise(st);
  Py_RETURN_NONE;
}

static PyObject *csv_enter(PyObject *self, PyObject *unused) {
  (void)unused;
  if (csv_check((sp_csv *)self) != 0) return NULL;
  return Py_NewRef(self);
}

static PyObject *csv_exit(PyObject *self, PyObject *args) {
  (void)args;
  PyObject *r = csv_close(self, NULL);
  if (!r) return NULL;
  Py_DECREF(r);
  Py_RETURN_FALSE;
}

static PyObject *csv_get_closed(PyObject *self, void *u) {
  (void)u;
  return PyBool_FromLong(((sp_csv *)self)->csv == NULL);
}

static PyObject *csv_get_type(PyObject *self, void *u) {
  (void)u;
  return PyUnicode_FromString(sensim_payload_name(((sp_csv *)self)->type));
}

static PyObject *csv_get_path(PyObject *self, void *u) {
  (void)u;
  sp_csv *c = (sp_csv *)self;
  return Py_NewRef(c->path ? c->path : Py_None);
}

static PyMethodDef csv_methods[] = {
    {"append", csv_append, METH_O,
     "append($self, frame, /)\n--\n\n"
     "append(frame)\nAppend a frame's rows (one per gnss/imu/mag/detection frame, one per point\n"
     "of a points frame); PayloadTypeError for a frame of another type than the file's."},
    {"close", csv_close, METH_NOARGS,
     "close($self, /)\n--\n\n"
     "close()\nFlush and close; the file appears under its path only now. IOError if any\n"
     "write failed. Closing twice is a no-op."},
    {"__enter__", csv_enter, METH_NOARGS, "__enter__($self, /)\n--\n\nEnter a with block: returns self."},
    {"__exit__", csv_exit, METH_VARARGS, "__exit__($self, exc_type, exc_value, traceback, /)\n--\n\nLeave a with block: close()."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef csv_getset[] = {
    {"closed", csv_get_closed, NULL, "True once closed.", NULL},
    {"type", csv_get_type, NULL, "The payload name of the file's frames.", NULL},
    {"path", csv_get_path, NULL, "The file's path.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyTypeObject sp_CsvWriterType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sensim.CsvWriter",
    .tp_basicsize = sizeof(sp_csv),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "CsvWriter(path, type)\n--\n\n"
              "CsvWriter(path, type)\nCSV of frames of payload `type` (\"gnss\", \"imu\", \"mag\",\n"
              "\"detection\", \"points\"): a header line, then rows whose numbers read back exactly.\n"
              "The file appears under `path` only when closed (close() or the end of a with block).",
    .tp_new = csv_new,
    .tp_init = csv_init,
    .tp_dealloc = csv_dealloc,
    .tp_methods = csv_methods,
    .tp_getset = csv_getset,
};

/* ---- NMEA ------------------------------------------------------------------ */

/* utc_start: None (the default), POSIX seconds, or ISO 8601 text. */
static int nmea_params_from(PyObject *utc, PyObject *talker, sensim_nmea_params *p) {
  sensim_nmea_params_init(p);
  if (utc && utc != Py_None) {
    if (PyUnicode_Check(utc)) {
      const char *text = PyUnicode_AsUTF8(utc);
      if (!text) return -1;
      sensim_status st = sensim_utc_parse_iso8601(text, &p->utc_start);
      if (st != SENSIM_OK) return sp_raise_int(st);
    } else {
      p->utc_start = PyFloat_AsDouble(utc);
      if (p->utc_start == -1.0 && PyErr_Occurred()) return -1;
    }
  }
  if (talker && talker != Py_None) {
    Py_ssize_t n = 0;
    const char *t = PyUnicode_Check(talker) ? PyUnicode_AsUTF8AndSize(talker, &n) : NULL;
    if (!t) {
      if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "talker must be a str of two letters");
      return -1;
    }
    if (n != 2) {
      PyErr_Format(PyExc_ValueError, "talker must be two letters A-Z (\"GP\", \"GN\"), got %R", talker);
      return -1;
    }
    p->talker[0] = t[0];
    p->talker[1] = t[1];
    p->talker[2] = '\0';
  }
  return 0;
}

/* The GNSS fix of a gnss Frame, or NULL with PayloadTypeError. */
static const sensim_frame *gnss_frame(PyObject *o, const char *what) {
  const sensim_frame *f = sp_frame_ptr(o);
  if (!f) return NULL;
  if (f->type != SENSIM_PAYLOAD_GNSS || f->count < 1 || !f->data) {
    sensim_error_set(SENSIM_ETYPE, "%s: expected a gnss frame, got a %s frame", what,
                     sensim_payload_name(f->type));
    sp_raise(SENSIM_ETYPE);
    return NULL;
  }
  return f;
}

enum { NMEA_GGA, NMEA_RMC, NMEA_GSA };

static PyObject *nmea_sentence(PyObject *args, PyObject *kw, int which, const char *fmt) {
  static char *kwlist[] = {"frame", "t", "utc_start", "talker", NULL};
  PyObject *fobj = NULL, *t_obj = Py_None, *utc = Py_None, *talker = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, fmt, kwlist, &fobj, &t_obj, &utc, &talker)) return NULL;
  const sensim_frame *f = gnss_frame(fobj, strchr(fmt, ':') + 1);
  if (!f) return NULL;
  double t = f->t_capture;
  if (t_obj != Py_None) {
    t = PyFloat_AsDouble(t_obj);
    if (t == -1.0 && PyErr_Occurred()) return NULL;
  }
  sensim_nmea_params p;
  if (nmea_params_from(utc, talker, &p) != 0) return NULL;
  char buf[SENSIM_NMEA_MAX];
  const sensim_gnss_fix *fix = f->data;
  sensim_status st = which == NMEA_GGA   ? sensim_nmea_gga(&p, fix, t, buf, sizeof buf)
                     : which == NMEA_RMC ? sensim_nmea_rmc(&p, fix, t, buf, sizeof buf)
                                         : sensim_nmea_gsa(&p, fix, buf, sizeof buf);
  if (st != SENSIM_OK) return sp_raise(st);
  return PyUnicode_FromString(buf);
}

static PyObject *io_nmea_gga(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  return nmea_sentence(args, kw, NMEA_GGA, "O|O$OO:nmea_gga");
}

static PyObject *io_nmea_rmc(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  return nmea_sentence(args, kw, NMEA_RMC, "O|O$OO:nmea_rmc");
}

static PyObject *io_nmea_gsa(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  return nmea_sentence(args, kw, NMEA_GSA, "O|O$OO:nmea_gsa");
}

static PyObject *io_nmea_append(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"path", "frame", "utc_start", "talker", NULL};
  PyObject *path = NULL, *fobj = NULL, *utc = Py_None, *talker = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "O&O|$OO:nmea_append", kwlist, PyUnicode_FSConverter,
                                   &path, &fobj, &utc, &talker))
    return NULL;
  sensim_nmea_params p;
  const sensim_frame *f = sp_frame_ptr(fobj);
  if (!f || nmea_params_from(utc, talker, &p) != 0) {
    Py_DECREF(path);
    return NULL;
  }
  const char *cp = PyBytes_AS_STRING(path);
  sensim_status st;
  Py_BEGIN_ALLOW_THREADS
  st = sensim_nmea_append(cp, &p, f);
  Py_END_ALLOW_THREADS
  Py_DECREF(path);
  if (st != SENSIM_OK) return sp_raise(st);
  Py_RETURN_NONE;
}

static PyObject *io_nmea_checksum(PyObject *self, PyObject *arg) {
  (void)self;
  Py_ssize_t n = 0;
  const char *s = PyUnicode_Check(arg) ? PyUnicode_AsUTF8AndSize(arg, &n) : NULL;
  if (!s) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "nmea_checksum: expected a str");
    return NULL;
  }
  return PyLong_FromUnsignedLong(sensim_nmea_checksum(s, (size_t)n));
}

/* ---- time ------------------------------------------------------------------ */

static PyObject *io_utc_from_civil(PyObject *self, PyObject *args, PyObject *kw) {
  (void)self;
  static char *kwlist[] = {"year", "month", "day", "hour", "minute", "second", NULL};
  int y, mo, d, h = 0, mi = 0;
  double s = 0.0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "iii|iid:utc_from_civil", kwlist, &y, &mo, &d, &h, &mi,
                                   &s))
    return NULL;
  double out;
  sensim_status st = sensim_utc_from_civil(y, mo, d, h, mi, s, &out);
  if (st != SENSIM_OK) return sp_raise(st);
  return PyFloat_FromDouble(out);
}

static PyObject *io_utc_parse_iso8601(PyObject *self, PyObject *arg) {
  (void)self;
  const char *s = PyUnicode_Check(arg) ? PyUnicode_AsUTF8(arg) : NULL;
  if (!s) {
    if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "utc_parse_iso8601: expected a str");
    return NULL;
  }
  double out;
  sensim_status st = sensim_utc_parse_iso8601(s, &out);
  if (st != SENSIM_OK) return sp_raise(st);
  return PyFloat_FromDouble(out);
}

/* ---- geodesy ------------------------------------------------------------- */

/* Exactly 3 finite numbers (None is refused, unlike sp_doubles_from). */
static int vec3_arg(PyObject *o, double out[3], const char *what) {
  if (o == Py_None) {
    PyErr_Format(PyExc_TypeError, "%s: expected 3 numbers, not None", what);
    return -1;
  }
  return sp_doubles_from(o, out, 3, what);
}

static PyObject *io_geodetic_to_ecef(PyObject *self, PyObject *arg) {
  (void)self;
  double g[3], e[3];
  if (vec3_arg(arg, g, "geodetic (lat deg, lon deg, height m)") != 0) return NULL;
  sensim_geodetic_to_ecef(g[0], g[1], g[2], e);
  return Py_BuildValue("(ddd)", e[0], e[1], e[2]);
}

static PyObject *io_ecef_to_geodetic(PyObject *self, PyObject *arg) {
  (void)self;
  double e[3], lat, lon, h;
  if (vec3_arg(arg, e, "ecef (x, y, z) m") != 0) return NULL;
  sensim_ecef_to_geodetic(e, &lat, &lon, &h);
  return Py_BuildValue("(ddd)", lat, lon, h);
}

static PyObject *io_enu_to_geodetic(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *oo, *eo;
  double origin[3], enu[3], lat, lon, h;
  if (!PyArg_ParseTuple(args, "OO:enu_to_geodetic", &oo, &eo)) return NULL;
  if (vec3_arg(oo, origin, "origin (lat deg, lon deg, height m)") != 0 ||
      vec3_arg(eo, enu, "enu (east, north, up) m") != 0)
    return NULL;
  sensim_enu_to_geodetic(origin, enu, &lat, &lon, &h);
  return Py_BuildValue("(ddd)", lat, lon, h);
}

static PyObject *io_geodetic_to_enu(PyObject *self, PyObject *args) {
  (void)self;
  PyObject *oo, *go;
  double origin[3], g[3], enu[3];
  if (!PyArg_ParseTuple(args, "OO:geodetic_to_enu", &oo, &go)) return NULL;
  if (vec3_arg(oo, origin, "origin (lat deg, lon deg, height m)") != 0 ||
      vec3_arg(go, g, "geodetic (lat deg, lon deg, height m)") != 0)
    return NULL;
  sensim_geodetic_to_enu(origin, g[0], g[1], g[2], enu);
  return Py_BuildValue("(ddd)", enu[0], enu[1], enu[2]);
}

#define KW (PyCFunction)(void (*)(void))

static PyMethodDef io_functions[] = {
    {"write_png", KW io_write_png, METH_VARARGS | METH_KEYWORDS,
     "write_png($module, path, frame)\n--\n\n"
     "write_png(path, frame)\nPNG of an rgba8, gray8, gray16, rgb16, raw16, depth_f32 (16-bit mm)\n"
     "or labels (16-bit class id) frame, or a radar_rd heat map; PayloadTypeError for float images."},
    {"write_npy", KW io_write_npy, METH_VARARGS | METH_KEYWORDS,
     "write_npy($module, path, frame)\n--\n\n"
     "write_npy(path, frame)\nNumPy .npy (complex64) of a radar_cube (chirps, channels, samples) or\n"
     "radar_rd (channels, doppler, range) frame; numpy.load reads it."},
    {"write_pcd", KW io_write_pcd, METH_VARARGS | METH_KEYWORDS,
     "write_pcd($module, path, frame, binary=True)\n--\n\n"
     "write_pcd(path, frame, binary=True)\nPCD v0.7 of a points frame."},
    {"write_ply", KW io_write_ply, METH_VARARGS | METH_KEYWORDS,
     "write_ply($module, path, frame, binary=True)\n--\n\n"
     "write_ply(path, frame, binary=True)\nPLY of a points frame (binary little-endian or ascii)."},
    {"read_png", io_read_png, METH_O,
     "read_png($module, path, /)\n--\n\n"
     "read_png(path) -> float32 array (H, W, C)\nThe stored samples scaled to [0, 1] (not\n"
     "linearised); C is 1 for grey files, 3 for colour (alpha dropped)."},
    {"mkdirs", io_mkdirs, METH_O, "mkdirs($module, path, /)\n--\n\n"
     "mkdirs(path)\nCreate every missing folder of path (mkdir -p)."},
    {"image_stats_pngs", KW io_image_stats_pngs, METH_VARARGS | METH_KEYWORDS,
     "image_stats_pngs($module, paths, weights=None)\n--\n\n"
     "image_stats_pngs(paths, weights=None) -> ((mean r, g, b), (std r, g, b))\n"
     "Per-channel mean and population std of the stored values of PNG files; with weights\n"
     "(w_r, w_g, w_b) the (mean, std) of the weighted channel sum."},
    {"nmea_gga", KW io_nmea_gga, METH_VARARGS | METH_KEYWORDS,
     "nmea_gga($module, frame, t=None, *, utc_start=None, talker=None)\n--\n\n"
     "nmea_gga(frame, t=None, *, utc_start=None, talker='GP') -> str\n"
     "GGA sentence ($ to CR LF) of a gnss frame at simulation time t (None: frame.t_capture);\n"
     "utc_start is UTC at t = 0, POSIX seconds or ISO 8601 text (None: 2026-01-01T00:00:00Z)."},
    {"nmea_rmc", KW io_nmea_rmc, METH_VARARGS | METH_KEYWORDS,
     "nmea_rmc($module, frame, t=None, *, utc_start=None, talker=None)\n--\n\n"
     "nmea_rmc(frame, t=None, *, utc_start=None, talker='GP') -> str\nRMC sentence, as nmea_gga."},
    {"nmea_gsa", KW io_nmea_gsa, METH_VARARGS | METH_KEYWORDS,
     "nmea_gsa($module, frame, t=None, *, utc_start=None, talker=None)\n--\n\n"
     "nmea_gsa(frame, t=None, *, utc_start=None, talker='GP') -> str\nGSA sentence (it carries\n"
     "no time: t is accepted for symmetry and ignored)."},
    {"nmea_append", KW io_nmea_append, METH_VARARGS | METH_KEYWORDS,
     "nmea_append($module, path, frame, *, utc_start=None, talker=None)\n--\n\n"
     "nmea_append(path, frame, *, utc_start=None, talker='GP')\nAppend a gnss frame's GGA, RMC\n"
     "and GSA sentences to the file (created if missing)."},
    {"nmea_checksum", io_nmea_checksum, METH_O,
     "nmea_checksum($module, chars, /)\n--\n\n"
     "nmea_checksum(chars) -> int\nXOR of the characters between '$' and '*'."},
    {"utc_from_civil", KW io_utc_from_civil, METH_VARARGS | METH_KEYWORDS,
     "utc_from_civil($module, year, month, day, hour=0, minute=0, second=0.0)\n--\n\n"
     "utc_from_civil(year, month, day, hour=0, minute=0, second=0.0) -> float\n"
     "POSIX seconds of a UTC instant (years 1970..2099)."},
    {"utc_parse_iso8601", io_utc_parse_iso8601, METH_O,
     "utc_parse_iso8601($module, text, /)\n--\n\n"
     "utc_parse_iso8601(text) -> float\nPOSIX seconds of \"YYYY-MM-DDThh:mm:ss[.s]Z\"."},
    {"geodetic_to_ecef", io_geodetic_to_ecef, METH_O,
     "geodetic_to_ecef($module, lla, /)\n--\n\n"
     "geodetic_to_ecef((lat deg, lon deg, h m)) -> (x, y, z) m, WGS84."},
    {"ecef_to_geodetic", io_ecef_to_geodetic, METH_O,
     "ecef_to_geodetic($module, xyz, /)\n--\n\n"
     "ecef_to_geodetic((x, y, z) m) -> (lat deg, lon deg, h m), WGS84 (exact closed form)."},
    {"enu_to_geodetic", io_enu_to_geodetic, METH_VARARGS,
     "enu_to_geodetic($module, origin, enu, /)\n--\n\n"
     "enu_to_geodetic(origin, enu) -> (lat deg, lon deg, h m)\nLocal ENU (m) at origin\n"
     "(lat deg, lon deg, h m) to geodetic."},
    {"geodetic_to_enu", io_geodetic_to_enu, METH_VARARGS,
     "geodetic_to_enu($module, origin, lla, /)\n--\n\n"
     "geodetic_to_enu(origin, (lat, lon, h)) -> (e, n, u) m."},
    {NULL, NULL, 0, NULL}};

int sp_io_init(PyObject *m) {
  if (PyModule_AddFunctions(m, io_functions) < 0) return -1;
  if (PyType_Ready(&sp_CsvWriterType) < 0) return -1;
  Py_INCREF(&sp_CsvWriterType);
  if (PyModule_AddObject(m, "CsvWriter", (PyObject *)&sp_CsvWriterType) < 0) {
    Py_DECREF(&sp_CsvWriterType);
    return -1;
  }
  if (PyModule_AddIntConstant(m, "NMEA_DEFAULT_UTC_START", (long)SENSIM_NMEA_DEFAULT_UTC_START) < 0)
    return -1;
  return 0;
}
