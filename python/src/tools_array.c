/* python/src/tools_array.c: NumPy arrays as the library's tools and
 * readers take and give them: float64 arrays of numbers, and sensim_image
 * (sensim/io.h: floats in [0, 1], 1 or 3 channels, row 0 on top) to and
 * from (H, W[, C]) float32 arrays. Shared by io.c and the tools*.c files
 * (declared in module.h). */
#include "module.h"

#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL sensim_ARRAY_API
#include <numpy/arrayobject.h>

PyObject *sp_tools_doubles(PyObject *o, int min_nd, int max_nd, const char *what) {
  if (!o || o == Py_None)
    return PyErr_Format(PyExc_TypeError, "%s: expected an array of numbers, not None", what);
  PyObject *a = PyArray_FROMANY(o, NPY_FLOAT64, min_nd, max_nd, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED);
  if (!a) {
    if (PyErr_ExceptionMatches(PyExc_ValueError) || PyErr_ExceptionMatches(PyExc_TypeError)) {
      PyErr_Clear();
      PyErr_Format(PyExc_ValueError, "%s: expected a numeric array of %d to %d dimensions", what,
                   min_nd, max_nd);
    }
    return NULL;
  }
  return a;
}

/* ---- images to and from NumPy ------------------------------------------ */

int sp_image_from(PyObject *o, sensim_image *img, PyObject **holder, const char *what) {
  memset(img, 0, sizeof *img);
  *holder = NULL;
  if (!o || o == Py_None) {
    PyErr_Format(PyExc_TypeError, "%s: expected an image array (H, W) or (H, W, C), not None", what);
    return -1;
  }
  PyObject *a = PyArray_FROMANY(o, NPY_FLOAT32, 2, 3, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED |
                                                          NPY_ARRAY_ENSURECOPY | NPY_ARRAY_FORCECAST);
  if (!a) return -1; /* NumPy's own error: not numeric, or not 2-D or 3-D */
  PyArrayObject *arr = (PyArrayObject *)a;
  npy_intp *d = PyArray_DIMS(arr);
  int c = PyArray_NDIM(arr) == 3 ? (int)d[2] : 1;
  if (c != 1 && c != 3) {
    Py_DECREF(a);
    PyErr_Format(PyExc_ValueError, "%s: an image has 1 or 3 channels, not %d", what, c);
    return -1;
  }
  if (d[0] < 1 || d[1] < 1 || d[0] > UINT32_MAX || d[1] > UINT32_MAX) {
    Py_DECREF(a);
    PyErr_Format(PyExc_ValueError, "%s: an image needs at least one row and one column", what);
    return -1;
  }
  img->height = (uint32_t)d[0];
  img->width = (uint32_t)d[1];
  img->channels = c;
  img->data = (float *)PyArray_DATA(arr);
  *holder = a;
  return 0;
}

static void image_capsule_free(PyObject *cap) {
  sensim_image img;
  memset(&img, 0, sizeof img);
  img.data = PyCapsule_GetPointer(cap, "sensim.image");
  sensim_image_free(&img);
}

PyObject *sp_image_to(sensim_image *img) {
  npy_intp dims[3] = {(npy_intp)img->height, (npy_intp)img->width, (npy_intp)img->channels};
  if (!img->data) {
    memset(img, 0, sizeof *img);
    return PyArray_ZEROS(3, dims, NPY_FLOAT32, 0);
  }
  PyObject *cap = PyCapsule_New(img->data, "sensim.image", image_capsule_free);
  if (!cap) {
    sensim_image_free(img);
    memset(img, 0, sizeof *img);
    return NULL;
  }
  memset(img, 0, sizeof *img); /* the capsule owns the data now */
  PyObject *a = PyArray_SimpleNewFromData(3, dims, NPY_FLOAT32, PyCapsule_GetPointer(cap, "sensim.image"));
  if (!a || PyArray_SetBaseObject((PyArrayObject *)a, cap) < 0) {
    Py_XDECREF(a);
    Py_DECREF(cap);
    return NULL;
  }
  return a;
}
