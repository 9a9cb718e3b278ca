/* python/src/frame.c: Frame, a sensor's frame owned by Python, and its
 * NumPy views.
 *
 * A Frame owns its sensim_frame's buffers (taken from the sensor with
 * sensim_sensor_take, so nothing is copied). Each array it hands out is a
 * view of those buffers whose NumPy base is the Frame: a view keeps the
 * Frame, and so the memory, alive for as long as the view exists. There is
 * no point after which a view goes stale, so there is nothing to misuse. */
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL sensim_ARRAY_API
#include "module.h"
#include <numpy/arrayobject.h>
#include <stddef.h>
#include <string.h>

/* ---- dtypes ------------------------------------------------------------------
 * Built from offsetof and sizeof of the C structs, so they match the
 * library's layout by construction. */

typedef struct field {
  const char *name;
  const char *format; /* NumPy type string, e.g. "<f4", "(3,)<f8" */
  size_t offset;
} field;

#define F(n, fmt, type, member) {n, fmt, offsetof(type, member)}
static const field label_fields[] = {F("class_id", "<u2", sensim_label, class_id),
                                     F("instance_id", "<u4", sensim_label, instance_id), {0}};
static const field beam_fields[] = {
    F("range", "<f4", sensim_beam, range), F("intensity", "<f4", sensim_beam, intensity),
    F("azimuth", "<f4", sensim_beam, azimuth), F("elevation", "<f4", sensim_beam, elevation),
    F("time", "<f4", sensim_beam, time_offset), F("ring", "<u2", sensim_beam, ring),
    F("return", "u1", sensim_beam, return_index), F("class_id", "<u2", sensim_beam, class_id),
    F("instance_id", "<u4", sensim_beam, instance_id), {0}};
static const field point_fields[] = {
    F("x", "<f4", sensim_point, x), F("y", "<f4", sensim_point, y), F("z", "<f4", sensim_point, z),
    F("intensity", "<f4", sensim_point, intensity), F("time", "<f4", sensim_point, time_offset),
    F("ring", "<u2", sensim_point, ring), F("return", "u1", sensim_point, return_index),
    F("class_id", "<u2", sensim_point, class_id), F("instance_id", "<u4", sensim_point, instance_id), {0}};
static const field gnss_fields[] = {
    F("lat", "<f8", sensim_gnss_fix, lat), F("lon", "<f8", sensim_gnss_fix, lon),
    F("height", "<f8", sensim_gnss_fix, height), F("enu", "(3,)<f8", sensim_gnss_fix, enu),
    F("vel_enu", "(3,)<f8", sensim_gnss_fix, vel_enu),
    F("cov_enu", "(3,3)<f8", sensim_gnss_fix, cov_enu),
    F("origin", "(3,)<f8", sensim_gnss_fix, origin), F("speed", "<f8", sensim_gnss_fix, speed),
    F("course", "<f8", sensim_gnss_fix, course), F("hdop", "<f8", sensim_gnss_fix, hdop),
    F("vdop", "<f8", sensim_gnss_fix, vdop), F("pdop", "<f8", sensim_gnss_fix, pdop),
    F("satellites", "<i4", sensim_gnss_fix, satellites),
    F("fix_type", "<i4", sensim_gnss_fix, fix_type), {0}};
static const field imu_fields[] = {F("accel", "(3,)<f8", sensim_imu_sample, accel),
                                   F("gyro", "(3,)<f8", sensim_imu_sample, gyro),
                                   F("accel_var", "(3,)<f8", sensim_imu_sample, accel_var),
                                   F("gyro_var", "(3,)<f8", sensim_imu_sample, gyro_var), {0}};
static const field mag_fields[] = {F("field", "(3,)<f8", sensim_mag_sample, field),
                                   F("field_var", "(3,)<f8", sensim_mag_sample, field_var), {0}};
static const field detection_fields[] = {
    F("detected", "<i4", sensim_detection, detected),
    F("instance_id", "<u4", sensim_detection, instance_id),
    F("class_id", "<u2", sensim_detection, class_id), F("range", "<f8", sensim_detection, range),
    F("azimuth", "<f8", sensim_detection, azimuth),
    F("elevation", "<f8", sensim_detection, elevation),
    F("point", "(3,)<f8", sensim_detection, point),
    F("speed_diff", "<f8", sensim_detection, speed_diff),
    F("radial_speed", "<f8", sensim_detection, radial_speed),
    F("rel_vel", "(3,)<f8", sensim_detection, rel_vel),
    F("speed", "<f8", sensim_detection, speed), {0}};
static const field radar_fields[] = {
    F("range", "<f8", sensim_radar_detection, range),
    F("azimuth", "<f8", sensim_radar_detection, azimuth),
    F("elevation", "<f8", sensim_radar_detection, elevation),
    F("radial_velocity", "<f8", sensim_radar_detection, radial_velocity),
    F("point", "(3,)<f8", sensim_radar_detection, point), F("rcs", "<f8", sensim_radar_detection, rcs),
    F("power", "<f8", sensim_radar_detection, power), F("snr", "<f8", sensim_radar_detection, snr),
    F("instance_id", "<u4", sensim_radar_detection, instance_id),
    F("class_id", "<u2", sensim_radar_detection, class_id),
    F("cells", "<u2", sensim_radar_detection, cells), {0}};
#undef F

static PyArray_Descr *dtypes[SENSIM_PAYLOAD_ANY + 1];

static PyArray_Descr *struct_dtype(const field *fs, size_t itemsize) {
  PyObject *names = PyList_New(0), *formats = PyList_New(0), *offsets = PyList_New(0);
  PyArray_Descr *d = NULL;
  if (!names || !formats || !offsets) goto done;
  for (const field *f = fs; f->name; f++) {
    PyObject *n = PyUnicode_FromString(f->name), *fm = PyUnicode_FromString(f->format);
    PyObject *o = PyLong_FromSize_t(f->offset);
    int bad = !n || !fm || !o || PyList_Append(names, n) || PyList_Append(formats, fm) ||
              PyList_Append(offsets, o);
    Py_XDECREF(n);
    Py_XDECREF(fm);
    Py_XDECREF(o);
    if (bad) goto done;
  }
  PyObject *spec = Py_BuildValue("{s:O,s:O,s:O,s:n}", "names", names, "formats", formats,
                                 "offsets", offsets, "itemsize", (Py_ssize_t)itemsize);
  if (spec) {
    if (!PyArray_DescrConverter(spec, &d)) d = NULL;
    Py_DECREF(spec);
  }
done:
  Py_XDECREF(names);
  Py_XDECREF(formats);
  Py_XDECREF(offsets);
  return d;
}

static int build_dtypes(void) {
  static const struct {
    sensim_payload t;
    const field *fs;
    size_t size;
  } structs[] = {{SENSIM_PAYLOAD_LABELS, label_fields, sizeof(sensim_label)},
                 {SENSIM_PAYLOAD_BEAMS, beam_fields, sizeof(sensim_beam)},
                 {SENSIM_PAYLOAD_POINTS, point_fields, sizeof(sensim_point)},
                 {SENSIM_PAYLOAD_GNSS, gnss_fields, sizeof(sensim_gnss_fix)},
                 {SENSIM_PAYLOAD_IMU, imu_fields, sizeof(sensim_imu_sample)},
                 {SENSIM_PAYLOAD_MAG, mag_fields, sizeof(sensim_mag_sample)},
                 {SENSIM_PAYLOAD_DETECTION, detection_fields, sizeof(sensim_detection)},
                 {SENSIM_PAYLOAD_RADAR, radar_fields, sizeof(sensim_radar_detection)}};
  for (size_t i = 0; i < sizeof structs / sizeof structs[0]; i++) {
    if (!(dtypes[structs[i].t] = struct_dtype(structs[i].fs, structs[i].size))) return -1;
    if ((size_t)dtypes[structs[i].t]->elsize != sensim_payload_elem_size(structs[i].t)) {
      PyErr_Format(PyExc_ImportError, "sensim: the %s dtype does not match the library",
                   sensim_payload_name(structs[i].t));
      return -1;
    }
  }
  /* The radar's raw FMCW samples: NumPy's complex64 is two floats, real
   * first, as sensim_complex32. */
  dtypes[SENSIM_PAYLOAD_RADAR_CUBE] = PyArray_DescrFromType(NPY_COMPLEX64);
  dtypes[SENSIM_PAYLOAD_RADAR_RD] = PyArray_DescrFromType(NPY_COMPLEX64);
  for (int t = 1; t < SENSIM_PAYLOAD_ANY; t++) {
    if (dtypes[t]) continue;
    int num = -1;
    switch (sensim_payload_sample((sensim_payload)t)) {
      case SENSIM_SAMPLE_U8: num = NPY_UINT8; break;
      case SENSIM_SAMPLE_U16: num = NPY_UINT16; break;
      case SENSIM_SAMPLE_F32: num = NPY_FLOAT32; break;
      default: break;
    }
    if (num < 0) {
      PyErr_Format(PyExc_ImportError, "sensim: payload %s has no NumPy type",
                   sensim_payload_name((sensim_payload)t));
      return -1;
    }
    dtypes[t] = PyArray_DescrFromType(num);
  }
  return 0;
}

PyObject *sp_payload_dtype(sensim_payload t) {
  if (t <= SENSIM_PAYLOAD_NONE || t >= SENSIM_PAYLOAD_ANY || !dtypes[t]) {
    PyErr_Format(PyExc_ValueError, "payload %s has no elements", sensim_payload_name(t));
    return NULL;
  }
  return Py_NewRef((PyObject *)dtypes[t]);
}

int sp_payload_from(PyObject *o, sensim_payload *out) {
  const char *name = PyUnicode_Check(o) ? PyUnicode_AsUTF8(o) : NULL;
  if (!name) {
    PyErr_Format(PyExc_TypeError, "a payload type is a str such as 'rgb_f32' or 'points', got %.80s",
                 Py_TYPE(o)->tp_name);
    return -1;
  }
  sensim_status st = sensim_payload_from_name(name, out);
  return st ? sp_raise_int(st) : 0;
}

PyObject *sp_array(PyObject *base, void *data, PyObject *dtype, int typenum, int nd,
                   const long *dims) {
  if (PyObject_TypeCheck(base, &sp_FrameType)) ((sp_frame *)base)->shared = 1;
  npy_intp d[4];
  for (int i = 0; i < nd; i++) d[i] = (npy_intp)dims[i];
  PyArray_Descr *descr = dtype ? (PyArray_Descr *)Py_NewRef(dtype) : PyArray_DescrFromType(typenum);
  if (!descr) return NULL;
  if (!data) return PyArray_Zeros(nd, d, descr, 0); /* an empty payload */
  PyObject *arr = PyArray_NewFromDescr(&PyArray_Type, descr, nd, d, NULL, data,
                                       NPY_ARRAY_CARRAY, NULL);
  if (!arr) return NULL;
  if (PyArray_SetBaseObject((PyArrayObject *)arr, Py_NewRef(base)) < 0) {
    Py_DECREF(arr);
    return NULL;
  }
  return arr;
}

/* ---- Frame ---------------------------------------------------------------------- */

PyObject *sp_frame_adopt(sensim_frame *f, PyObject *sensor_name) {
  sp_frame *self = PyObject_New(sp_frame, &sp_FrameType);
  if (!self) {
    sensim_frame_release(f);
    return NULL;
  }
  self->frame = *f;
  memset(f, 0, sizeof *f);
  self->sensor_name = Py_NewRef(sensor_name ? sensor_name : Py_None);
  self->lent = self->shared = self->writing = 0;
  self->grave = NULL;
  self->ngrave = self->capgrave = 0;
  self->world_ref = NULL;
  self->sensor = NULL;
  return (PyObject *)self;
}

PyObject *sp_frame_adopt_taken(sensim_frame *f, PyObject *sensor_name, PyObject *w, sensim_sensor *s) {
  PyObject *ref = PyWeakref_NewRef(w, NULL);
  if (!ref) {
    sensim_frame_release(f);
    return NULL;
  }
  PyObject *o = sp_frame_adopt(f, sensor_name);
  if (!o) {
    Py_DECREF(ref);
    return NULL;
  }
  ((sp_frame *)o)->world_ref = ref;
  ((sp_frame *)o)->sensor = s;
  return o;
}

/* The sensor a dying Frame's buffers go back to, or NULL (freed). The
 * sensor lives as long as its world: while the World object exists and
 * is open. Closing sets World.world to NULL before destroying the world
 * with the GIL released (world.c, scenario.c), so a Frame dying on
 * another thread meanwhile sees it closed. A world busy in advance on
 * another thread is fine: sensim_sensor_recycle may run beside it (the
 * frame pool has its own lock), and the world cannot close while busy. */
static sensim_sensor *recycle_target(sp_frame *self) {
  if (!self->world_ref || !self->sensor) return NULL;
  PyObject *w = PyWeakref_GetObject(self->world_ref); /* borrowed */
  if (!w || w == Py_None) {
    PyErr_Clear();
    return NULL;
  }
  return ((sp_world *)w)->world ? self->sensor : NULL;
}

sensim_frame *sp_frame_ptr(PyObject *o) {
  if (!PyObject_TypeCheck(o, &sp_FrameType)) {
    PyErr_Format(PyExc_TypeError, "expected a sensim.Frame, got %.80s", Py_TYPE(o)->tp_name);
    return NULL;
  }
  ((sp_frame *)o)->shared = 1;
  return &((sp_frame *)o)->frame;
}

/* Room for n more buffers in the frame's grave; 0 or -1 (MemoryError). */
static int reserve_grave(sp_frame *self, size_t n) {
  if (self->ngrave + n <= self->capgrave) return 0;
  size_t cap = 2 * self->capgrave + n;
  void **g = PyMem_Realloc(self->grave, cap * sizeof *g);
  if (!g) {
    PyErr_NoMemory();
    return -1;
  }
  self->grave = g;
  self->capgrave = cap;
  return 0;
}

/* Keep a replaced buffer until the Frame dies (a view or a reader on
 * another thread may still point into it); room was reserved. */
static void bury(sp_frame *self, void *p) {
  if (p) self->grave[self->ngrave++] = p;
}

int sp_frame_unshare(sp_frame *self) {
  if (!self->shared) return 0;
  sensim_frame copy;
  sensim_status st = sensim_frame_copy(&self->frame, &copy);
  if (st) return sp_raise_int(st);
  void *old[5] = {self->frame.data, self->frame.depth, self->frame.labels, self->frame.normals,
                  self->frame.trajectory};
  /* Room first, so that either every old buffer is kept or none moved. */
  if (reserve_grave(self, 5) < 0) {
    sensim_frame_release(&copy);
    return -1;
  }
  for (int i = 0; i < 5; i++) bury(self, old[i]);
  self->frame = copy;
  self->shared = 0;
  return 0;
}

static void frame_dealloc(sp_frame *self) {
  for (size_t i = 0; i < self->ngrave; i++) free(self->grave[i]);
  PyMem_Free(self->grave);
  /* Back to the sensor for its next frames (no allocation in steady
   * state, issue 17); freed when there is none. */
  sensim_sensor_recycle(recycle_target(self), &self->frame);
  Py_XDECREF(self->world_ref);
  Py_XDECREF(self->sensor_name);
  PyObject_Free(self);
}

/* The payload as an array: images (H, W) or (H, W, C); records (count,),
 * or (height, width) for an organised cloud (height > 1). */
static PyObject *frame_data(sp_frame *self, void *closure) {
  (void)closure;
  const sensim_frame *f = &self->frame;
  if (f->type <= SENSIM_PAYLOAD_NONE || f->type >= SENSIM_PAYLOAD_ANY) Py_RETURN_NONE;
  PyObject *dt = (PyObject *)dtypes[f->type];
  long dims[3];
  int nd;
  const sensim_fmcw_info *h = &f->fmcw;
  const long ch = (long)h->tx * h->rx;
  const int fmcw = (f->type == SENSIM_PAYLOAD_RADAR_CUBE || f->type == SENSIM_PAYLOAD_RADAR_RD) &&
                   (size_t)ch * h->chirps * h->samples == f->count;
  if (fmcw) {
    /* The payloads' own layouts (frame.h): [chirp][channel][sample] and
     * [channel][doppler][range]. */
    dims[0] = f->type == SENSIM_PAYLOAD_RADAR_CUBE ? (long)h->chirps : ch;
    dims[1] = f->type == SENSIM_PAYLOAD_RADAR_CUBE ? ch : (long)h->chirps;
    dims[2] = (long)h->samples;
    nd = 3;
  } else if (sensim_payload_is_image(f->type)) {
    int c = sensim_payload_channels(f->type);
    if (sensim_payload_sample(f->type) == SENSIM_SAMPLE_STRUCT) c = 1;
    dims[0] = f->height;
    dims[1] = f->width;
    dims[2] = c;
    nd = c > 1 ? 3 : 2;
    if ((size_t)f->width * f->height != f->count) {
      dims[0] = (long)f->count;
      nd = 1;
      if (c > 1) {
        dims[1] = c;
        nd = 2;
      }
    }
  } else if (f->height > 1 && (size_t)f->width * f->height == f->count) {
    dims[0] = f->height;
    dims[1] = f->width;
    nd = 2;
  } else {
    dims[0] = (long)f->count;
    nd = 1;
  }
  return sp_array((PyObject *)self, f->data, dt, 0, nd, dims);
}

static PyObject *frame_depth(sp_frame *self, void *closure) {
  (void)closure;
  if (!self->frame.depth) Py_RETURN_NONE;
  long dims[2] = {self->frame.height, self->frame.width};
  return sp_array((PyObject *)self, self->frame.depth, NULL, NPY_FLOAT32, 2, dims);
}

static PyObject *frame_labels(sp_frame *self, void *closure) {
  (void)closure;
  if (!self->frame.labels) Py_RETURN_NONE;
  long dims[2] = {self->frame.height, self->frame.width};
  return sp_array((PyObject *)self, self->frame.labels, (PyObject *)dtypes[SENSIM_PAYLOAD_LABELS],
                  0, 2, dims);
}

static PyObject *frame_normals(sp_frame *self, void *closure) {
  (void)closure;
  if (!self->frame.normals) Py_RETURN_NONE;
  long dims[3] = {self->frame.height, self->frame.width, 3};
  return sp_array((PyObject *)self, self->frame.normals, NULL, NPY_FLOAT32, 3, dims);
}

static PyObject *frame_trajectory(sp_frame *self, void *closure) {
  (void)closure;
  if (!self->frame.trajectory) Py_RETURN_NONE;
  long dims[2] = {self->frame.ntraj, 7};
  return sp_array((PyObject *)self, self->frame.trajectory, NULL, NPY_FLOAT64, 2, dims);
}

/* The single record of a fix, sample or detection frame (a numpy.void
 * viewing the frame's memory); None for other payloads. */
static PyObject *frame_record(sp_frame *self, void *closure) {
  (void)closure;
  if (sensim_payload_is_image(self->frame.type) || self->frame.count != 1 ||
      self->frame.type == SENSIM_PAYLOAD_POINTS || self->frame.type == SENSIM_PAYLOAD_BEAMS)
    Py_RETURN_NONE;
  PyObject *arr = frame_data(self, NULL);
  if (!arr || arr == Py_None) return arr;
  PyObject *r = PySequence_GetItem(arr, 0);
  Py_DECREF(arr);
  return r;
}

static PyObject *frame_pose(sp_frame *self, void *closure) {
  (void)closure;
  return sp_pose_to(&self->frame.pose);
}

static PyObject *frame_type(sp_frame *self, void *closure) {
  (void)closure;
  return PyUnicode_FromString(sensim_payload_name(self->frame.type));
}

static PyObject *frame_unit(sp_frame *self, void *closure) {
  (void)closure;
  return PyUnicode_FromString(sensim_image_unit_name(self->frame.unit));
}

static const char *const cfa_names[] = {"none", "rggb", "bggr", "grbg", "gbrg", NULL};

static PyObject *frame_cfa(sp_frame *self, void *closure) {
  (void)closure;
  unsigned c = (unsigned)self->frame.cfa;
  return PyUnicode_FromString(c < 5 ? cfa_names[c] : "unknown");
}

static PyObject *frame_sensor(sp_frame *self, void *closure) {
  (void)closure;
  return Py_NewRef(self->sensor_name);
}

#define GET_NUM(fname, expr, conv)                                   \
  static PyObject *frame_##fname(sp_frame *self, void *closure) {    \
    (void)closure;                                                   \
    return conv(self->frame.expr);                                   \
  }
GET_NUM(sensor_id, sensor_id, PyLong_FromLong)
GET_NUM(index, index, PyLong_FromUnsignedLongLong)
GET_NUM(t_capture, t_capture, PyFloat_FromDouble)
GET_NUM(t_deliver, t_deliver, PyFloat_FromDouble)
GET_NUM(window, window, PyFloat_FromDouble)
GET_NUM(width, width, PyLong_FromUnsignedLong)
GET_NUM(height, height, PyLong_FromUnsignedLong)
GET_NUM(count, count, PyLong_FromSize_t)
GET_NUM(exposure_time, exposure_time, PyFloat_FromDouble)
GET_NUM(gain, gain, PyFloat_FromDouble)
GET_NUM(returns, returns, PyLong_FromUnsignedLong)
#undef GET_NUM

/* The radar's raw FMCW header (frame.h, sensim_fmcw_info), or None. */
static PyObject *frame_fmcw(sp_frame *self, void *closure) {
  (void)closure;
  const sensim_frame *f = &self->frame;
  if (f->type != SENSIM_PAYLOAD_RADAR_CUBE && f->type != SENSIM_PAYLOAD_RADAR_RD) Py_RETURN_NONE;
  static const char *const windows[] = {"rect", "hann", "hamming", "blackman"};
  const sensim_fmcw_info *h = &f->fmcw;
  return Py_BuildValue("{s:I,s:I,s:I,s:I,s:s,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d,s:d}", "samples", h->samples, "chirps",
                       h->chirps, "tx", h->tx, "rx", h->rx, "window", windows[h->window & 3], "frequency",
                       h->frequency, "sample_rate", h->sample_rate, "chirp_slope", h->chirp_slope,
                       "chirp_interval", h->chirp_interval, "range_bin", h->range_bin, "velocity_bin",
                       h->velocity_bin, "noise_power", h->noise_power, "gain", h->gain,
                       "radar_constant", h->radar_constant);
}

static PyGetSetDef frame_getset[] = {
    {"data", (getter)frame_data, NULL,
     "The payload as a NumPy view (no copy): images (H, W) for one channel, (H, W, C) for "
     "more; records a structured array of `count` elements ((rings, columns) for an "
     "organised cloud; radar_cube complex64 (chirps, channels, samples), radar_rd "
     "(channels, doppler, range)). See sensim.dtype(type) for the fields.", NULL},
    {"fmcw", (getter)frame_fmcw, NULL,
     "Radar raw FMCW frames: dict of samples, chirps, tx, rx, window, frequency, sample_rate, "
     "chirp_slope, chirp_interval, range_bin, velocity_bin, noise_power, gain, radar_constant "
     "(docs/radar.md); "
     "None for other payloads.", NULL},
    {"depth", (getter)frame_depth, NULL, "Camera depth plane (H, W) float32, m, or None.", NULL},
    {"labels", (getter)frame_labels, NULL,
     "Camera label plane (H, W) of (class_id, instance_id), or None.", NULL},
    {"normals", (getter)frame_normals, NULL,
     "Camera normal plane (H, W, 3) float32, unit, sensor frame (0 where nothing was hit), or None.",
     NULL},
    {"trajectory", (getter)frame_trajectory, NULL,
     "Lidar: the sensor's pose over the window, (ntraj, 7) float64 x y z qw qx qy qz, or None.", NULL},
    {"record", (getter)frame_record, NULL,
     "GNSS fix, IMU or magnetometer sample, detection: the frame's single record.", NULL},
    {"pose", (getter)frame_pose, NULL, "True sensor pose in the world at t_capture.", NULL},
    {"type", (getter)frame_type, NULL, "Payload type name ('rgb_f32', 'points', ...).", NULL},
    {"unit", (getter)frame_unit, NULL, "Meaning of float image data ('radiance', 'electrons', 'signal').", NULL},
    {"cfa", (getter)frame_cfa, NULL, "Mosaic layout of raw payloads ('none', 'rggb', ...).", NULL},
    {"sensor", (getter)frame_sensor, NULL, "Name of the sensor that made the frame (or None).", NULL},
    {"sensor_id", (getter)frame_sensor_id, NULL, "Id of the sensor (creation order).", NULL},
    {"index", (getter)frame_index, NULL, "k in t_capture = phase + k / rate.", NULL},
    {"t_capture", (getter)frame_t_capture, NULL, "s, end of the collection window.", NULL},
    {"t_deliver", (getter)frame_t_deliver, NULL, "s, t_capture + lag.", NULL},
    {"window", (getter)frame_window, NULL, "s, length of the collection window.", NULL},
    {"width", (getter)frame_width, NULL, "Images: columns; other payloads: count.", NULL},
    {"height", (getter)frame_height, NULL, "Images: rows; other payloads: 1 (rings if organised).", NULL},
    {"count", (getter)frame_count, NULL, "Number of elements of the payload.", NULL},
    {"exposure_time", (getter)frame_exposure_time, NULL, "s, the camera's exposure.", NULL},
    {"gain", (getter)frame_gain, NULL, "Analog gain applied by 'image_sensor' (0 before it).", NULL},
    {"returns", (getter)frame_returns, NULL, "Lidar beams: returns per beam.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

static PyObject *frame_copy(sp_frame *self, PyObject *noargs) {
  (void)noargs;
  sensim_frame c;
  sensim_status st = sensim_frame_copy(&self->frame, &c);
  if (st) return sp_raise(st);
  return sp_frame_adopt(&c, self->sensor_name);
}

/* Frame.alloc(type, width, height): replace the payload with a zeroed
 * buffer (for Python filters that change the payload type). */
static PyObject *frame_alloc(sp_frame *self, PyObject *args) {
  PyObject *to;
  unsigned long w, h;
  sensim_payload t;
  if (!PyArg_ParseTuple(args, "Okk:alloc", &to, &w, &h)) return NULL;
  if (sp_payload_from(to, &t) < 0) return NULL;
  if (w > UINT32_MAX || h > UINT32_MAX) {
    PyErr_SetString(PyExc_ValueError, "alloc: width and height must fit 32 bits");
    return NULL;
  }
  if (self->writing) return sp_state_error("alloc: a FilterChain is running on this frame");
  /* The old payload, and the camera planes when the size changes (they
   * are width x height), leave the frame; views of them keep them: they
   * are freed with the Frame. */
  sensim_frame f = self->frame;
  int resize = (uint32_t)w != f.width || (uint32_t)h != f.height;
  void *old[4] = {f.data, resize ? f.depth : NULL, resize ? (void *)f.labels : NULL,
                  resize ? f.normals : NULL};
  f.data = NULL;
  f.count = 0;
  if (resize) f.depth = NULL, f.labels = NULL, f.normals = NULL;
  if (self->shared && reserve_grave(self, 4) < 0) return NULL;
  sensim_status st = sensim_frame_alloc(&f, t, (uint32_t)w, (uint32_t)h);
  if (st) return sp_raise(st);
  for (int i = 0; i < 4; i++) {
    if (self->shared) bury(self, old[i]);
    else free(old[i]);
  }
  self->frame = f;
  Py_RETURN_NONE;
}

/* Frame.from_array(array, type, unit="radiance", cfa="none", index=0,
 * t_capture=0.0): a new Frame holding a copy of `array` as a payload of
 * `type` (images (H, W) or (H, W, C) of the payload's sample type; records
 * a 1-D array of sensim.dtype(type)). */
static PyObject *frame_from_array(PyObject *cls, PyObject *args, PyObject *kw) {
  (void)cls;
  static char *kwlist[] = {"array", "type", "unit", "cfa", "index", "t_capture", NULL};
  PyObject *ao, *to;
  const char *unit = "radiance", *cfa = "none";
  unsigned long long index = 0;
  double tc = 0.0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|ssKd:from_array", kwlist, &ao, &to, &unit, &cfa,
                                   &index, &tc))
    return NULL;
  sensim_payload t;
  if (sp_payload_from(to, &t) < 0) return NULL;
  if (t == SENSIM_PAYLOAD_NONE || t == SENSIM_PAYLOAD_ANY)
    return sensim_error_set(SENSIM_EINVAL, "from_array: %s frames hold no data", sensim_payload_name(t)),
           sp_raise(SENSIM_EINVAL);
  PyArrayObject *a = (PyArrayObject *)PyArray_FromAny(
      ao, (PyArray_Descr *)Py_NewRef(dtypes[t]), 0, 0, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED |
      NPY_ARRAY_FORCECAST, NULL);
  if (!a) return NULL;
  npy_intp *d = PyArray_DIMS(a);
  int nd = PyArray_NDIM(a);
  uint64_t w = 0, h = 1;
  int ok = 0;
  if (sensim_payload_is_image(t)) {
    int c = sensim_payload_channels(t);
    if (sensim_payload_sample(t) == SENSIM_SAMPLE_STRUCT) c = 1;
    ok = (c == 1 && nd == 2) || (nd == 3 && d[2] == c);
    if (ok) h = (uint64_t)d[0], w = (uint64_t)d[1];
    if (!ok)
      PyErr_Format(PyExc_ValueError, "from_array: a %s image is (H, W%s) with %d channel%s; got "
                   "%d dimensions", sensim_payload_name(t), c > 1 ? ", C" : "", c, c > 1 ? "s" : "",
                   nd);
  } else {
    ok = nd == 1;
    if (ok) w = (uint64_t)d[0];
    else PyErr_Format(PyExc_ValueError, "from_array: %s records are a 1-D array", sensim_payload_name(t));
  }
  if (ok && (w > UINT32_MAX || h > UINT32_MAX || w * h == 0)) {
    PyErr_SetString(PyExc_ValueError, "from_array: sizes must be in 1 .. 2^32 - 1");
    ok = 0;
  }
  sensim_frame f;
  memset(&f, 0, sizeof f);
  sensim_status st = SENSIM_OK;
  if (ok) st = sensim_frame_alloc(&f, t, (uint32_t)w, (uint32_t)h);
  if (ok && st == SENSIM_OK) memcpy(f.data, PyArray_DATA(a), (size_t)PyArray_NBYTES(a));
  Py_DECREF(a);
  if (!ok) return NULL;
  if (st) return sp_raise(st);
  static const char *const units[] = {"radiance", "electrons", "signal", NULL};
  int u = -1, c = -1;
  for (int i = 0; units[i]; i++) if (strcmp(unit, units[i]) == 0) u = i;
  for (int i = 0; cfa_names[i]; i++) if (strcmp(cfa, cfa_names[i]) == 0) c = i;
  if (u < 0 || c < 0) {
    sensim_frame_release(&f);
    sensim_error_set(SENSIM_EINVAL, u < 0 ? "from_array: unknown unit '%s' (radiance, electrons, signal)"
                                          : "from_array: unknown cfa '%s' (none, rggb, bggr, grbg, gbrg)",
                     u < 0 ? unit : cfa);
    return sp_raise(SENSIM_EINVAL);
  }
  f.unit = (sensim_image_unit)u;
  f.cfa = (sensim_cfa)c;
  f.index = index;
  f.t_capture = f.t_deliver = tc;
  f.pose = sensim_pose_identity();
  f.sensor_id = -1;
  return sp_frame_adopt(&f, NULL);
}

static PyObject *frame_repr(sp_frame *self) {
  const sensim_frame *f = &self->frame;
  char t[40];
  snprintf(t, sizeof t, "%.6f", f->t_capture);
  return PyUnicode_FromFormat("<sensim.Frame %R #%llu %s %ux%u t=%s>", self->sensor_name,
                              (unsigned long long)f->index, sensim_payload_name(f->type), f->width,
                              f->height, t);
}

static PyMethodDef frame_methods[] = {
    {"copy", (PyCFunction)frame_copy, METH_NOARGS, "copy($self, /)\n--\n\n"
     "An independent deep copy of the frame."},
    {"alloc", (PyCFunction)frame_alloc, METH_VARARGS,
     "alloc($self, type, width, height, /)\n--\n\n"
     "alloc(type, width, height): replace the payload with a zeroed one (Python filters)."},
    {"from_array", (PyCFunction)(void (*)(void))frame_from_array,
     METH_VARARGS | METH_KEYWORDS | METH_CLASS,
     "from_array($type, array, type, unit='radiance', cfa='none', index=0, t_capture=0.0)\n--\n\n"
     "Frame.from_array(array, type, unit='radiance', cfa='none', index=0, t_capture=0.0) -> a "
     "Frame holding a copy of the array (for writers and standalone filter chains)."},
    {NULL, NULL, 0, NULL}};

PyTypeObject sp_FrameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sensim.Frame",
    .tp_basicsize = sizeof(sp_frame),
    .tp_dealloc = (destructor)frame_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A sensor frame. It owns its buffers: its arrays (data, depth, labels, normals, "
              "trajectory) are views of them with no copy, and each view keeps the frame alive, "
              "so views stay valid for as long as they exist, whatever later happens to the "
              "sensor or the world. A buffer replaced under a view (alloc, FilterChain.run) "
              "is kept, unchanged, until the frame dies: old views keep showing the old data.",
    .tp_methods = frame_methods,
    .tp_getset = frame_getset,
    .tp_repr = (reprfunc)frame_repr,
};

int sp_frame_init(PyObject *m) {
  if (build_dtypes() < 0 || PyType_Ready(&sp_FrameType) < 0) return -1;
  return PyModule_AddObjectRef(m, "Frame", (PyObject *)&sp_FrameType);
}
