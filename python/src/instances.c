/* python/src/instances.c: World.add_instances, one mesh placed many times
 * by one static body (sensim_body_create_instances), from NumPy arrays. */
#include "module.h"
#include <math.h>
#include <stdlib.h>
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL sensim_ARRAY_API
#include <numpy/arrayobject.h>

/* A unit quaternion (w, x, y, z) of the rotation part of a row-major 4 x 4
 * rigid transform m, or -1 with ValueError if m is not rigid (rotation
 * orthonormal with determinant +1 to 1e-5, last row 0 0 0 1): placements
 * may not scale or shear, as the kernel's rays keep their length through
 * them. Shepperd's method (J. Guidance and Control 1(3), 1978): the
 * largest of 4 w^2, 4 x^2, 4 y^2, 4 z^2 is the square root taken. */
static int rigid_quat(const double *m, Py_ssize_t k, sensim_pose *out) {
  double r[3][3];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) r[i][j] = m[4 * i + j];
  for (int i = 0; i < 3; i++)
    for (int j = 0; j < 3; j++) {
      const double d = r[0][i] * r[0][j] + r[1][i] * r[1][j] + r[2][i] * r[2][j];
      if (!(fabs(d - (i == j)) <= 1e-5)) {
        PyErr_Format(PyExc_ValueError, "poses[%zd]: the rotation is not orthonormal (a placement may not scale or shear)", k);
        return -1;
      }
    }
  const double det = r[0][0] * (r[1][1] * r[2][2] - r[1][2] * r[2][1]) - r[0][1] * (r[1][0] * r[2][2] - r[1][2] * r[2][0]) +
                     r[0][2] * (r[1][0] * r[2][1] - r[1][1] * r[2][0]);
  if (!(det > 0) || m[12] != 0 || m[13] != 0 || m[14] != 0 || m[15] != 1) {
    PyErr_Format(PyExc_ValueError, "poses[%zd]: not a rigid transform (determinant +1, last row 0 0 0 1)", k);
    return -1;
  }
  const double t = r[0][0] + r[1][1] + r[2][2];
  double w, x, y, z;
  if (t >= r[0][0] && t >= r[1][1] && t >= r[2][2]) {
    const double s = 2.0 * sqrt(1.0 + t);
    w = 0.25 * s, x = (r[2][1] - r[1][2]) / s, y = (r[0][2] - r[2][0]) / s, z = (r[1][0] - r[0][1]) / s;
  } else if (r[0][0] >= r[1][1] && r[0][0] >= r[2][2]) {
    const double s = 2.0 * sqrt(1.0 + r[0][0] - r[1][1] - r[2][2]);
    w = (r[2][1] - r[1][2]) / s, x = 0.25 * s, y = (r[0][1] + r[1][0]) / s, z = (r[0][2] + r[2][0]) / s;
  } else if (r[1][1] >= r[2][2]) {
    const double s = 2.0 * sqrt(1.0 + r[1][1] - r[0][0] - r[2][2]);
    w = (r[0][2] - r[2][0]) / s, x = (r[0][1] + r[1][0]) / s, y = 0.25 * s, z = (r[1][2] + r[2][1]) / s;
  } else {
    const double s = 2.0 * sqrt(1.0 + r[2][2] - r[0][0] - r[1][1]);
    w = (r[1][0] - r[0][1]) / s, x = (r[0][2] + r[2][0]) / s, y = (r[1][2] + r[2][1]) / s, z = 0.25 * s;
  }
  const double n = sqrt(w * w + x * x + y * y + z * z);
  out->rot = (sensim_quat){w / n, x / n, y / n, z / n};
  out->pos = (sensim_vec3){m[3], m[7], m[11]};
  return 0;
}

/* n poses from an (n, 7) array of x, y, z, qw, qx, qy, qz or an (n, 4, 4)
 * array of rigid transforms; NULL with an exception. */
static sensim_pose *poses_from(PyObject *o, size_t *n) {
  PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(o, NPY_FLOAT64, 2, 3, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED);
  if (!a) return NULL;
  const int nd = PyArray_NDIM(a);
  const Py_ssize_t rows = PyArray_DIM(a, 0);
  const int seven = nd == 2 && PyArray_DIM(a, 1) == 7, mat = nd == 3 && PyArray_DIM(a, 1) == 4 && PyArray_DIM(a, 2) == 4;
  if (!seven && !mat) {
    PyErr_SetString(PyExc_ValueError, "poses: expected shape (n, 7) (x, y, z, qw, qx, qy, qz) or (n, 4, 4)");
    Py_DECREF(a);
    return NULL;
  }
  sensim_pose *p = malloc((rows ? (size_t)rows : 1) * sizeof *p);
  if (!p) {
    Py_DECREF(a);
    PyErr_NoMemory();
    return NULL;
  }
  const double *d = PyArray_DATA(a);
  for (Py_ssize_t k = 0; k < rows; k++) {
    if (mat) {
      if (rigid_quat(d + 16 * k, k, &p[k]) < 0) {
        free(p);
        Py_DECREF(a);
        return NULL;
      }
      continue;
    }
    const double *r = d + 7 * k;
    p[k].pos = (sensim_vec3){r[0], r[1], r[2]};
    p[k].rot = (sensim_quat){r[3], r[4], r[5], r[6]}; /* the library checks it is unit */
  }
  Py_DECREF(a);
  *n = (size_t)rows;
  return p;
}

/* n integers in [lo, hi] from a 1-D array (None: NULL and no error). */
static int ids_from(PyObject *o, size_t n, double lo, double hi, const char *what, int64_t **out) {
  *out = NULL;
  if (o == Py_None) return 0;
  PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(o, NPY_INT64, 1, 1, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED);
  if (!a) return -1;
  int rc = 0;
  if ((size_t)PyArray_DIM(a, 0) != n) {
    PyErr_Format(PyExc_ValueError, "%s: %zd ids for %zu poses", what, (Py_ssize_t)PyArray_DIM(a, 0), n);
    rc = -1;
  }
  const int64_t *v = PyArray_DATA(a);
  for (size_t k = 0; rc == 0 && k < n; k++)
    if (!((double)v[k] >= lo && (double)v[k] <= hi)) {
      PyErr_Format(PyExc_ValueError, "%s[%zu]: %lld is outside [%.0f, %.0f]", what, k, (long long)v[k], lo, hi);
      rc = -1;
    }
  if (rc == 0 && !(*out = malloc((n ? n : 1) * sizeof **out))) rc = -1, PyErr_NoMemory();
  for (size_t k = 0; rc == 0 && k < n; k++) (*out)[k] = v[k];
  Py_DECREF(a);
  return rc;
}

PyObject *sp_world_add_instances(sp_world *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"mesh", "poses", "class_id", "class_ids", "instance_ids", "albedo_jitter",
                           "reflectance_jitter", "fast_bvh", NULL};
  PyObject *mo, *po, *co = Py_None, *io = Py_None;
  unsigned int cls = 0;
  double aj = 0.0, rj = 0.0;
  int fast = 0;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "OO|IOOddp:add_instances", kwlist, &mo, &po, &cls, &co, &io, &aj, &rj,
                                   &fast))
    return NULL;
  if (sp_world_check(self) < 0) return NULL;
  if (cls > UINT16_MAX) {
    PyErr_Format(PyExc_ValueError, "class_id: must be in 0 .. 65535 (got %u)", cls);
    return NULL;
  }
  sensim_instances_desc d;
  sensim_instances_desc_init(&d);
  if (!(d.mesh = sp_handle_ptr(mo, &sp_MeshType, self, 0, "mesh"))) return NULL;
  size_t n = 0;
  sensim_pose *poses = poses_from(po, &n);
  if (!poses) return NULL;
  int64_t *c64 = NULL, *i64 = NULL;
  uint16_t *cids = NULL;
  uint32_t *iids = NULL;
  PyObject *result = NULL;
  if (ids_from(co, n, 0, 65535, "class_ids", &c64) < 0 || ids_from(io, n, 1, 4294967295.0, "instance_ids", &i64) < 0)
    goto done;
  if ((c64 && !(cids = malloc(n * sizeof *cids))) || (i64 && !(iids = malloc(n * sizeof *iids)))) {
    PyErr_NoMemory();
    goto done;
  }
  for (size_t k = 0; c64 && k < n; k++) cids[k] = (uint16_t)c64[k];
  for (size_t k = 0; i64 && k < n; k++) iids[k] = (uint32_t)i64[k];
  d.n = n, d.poses = poses, d.class_id = (uint16_t)cls, d.class_ids = cids, d.instance_ids = iids;
  d.albedo_jitter = (float)aj, d.reflectance_jitter = (float)rj, d.fast_bvh = fast;
  sensim_body *b = NULL;
  sensim_status st = sensim_body_create_instances(self->world, &d, &b);
  if (st) {
    sp_raise(st);
    goto done;
  }
  result = sp_handle_new_info(&sp_BodyType, self, b, "%zu placements, class_id=%u", n, cls);
done:
  free(poses);
  free(c64);
  free(i64);
  free(cids);
  free(iids);
  return result;
}
