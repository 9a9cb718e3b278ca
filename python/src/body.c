/* python/src/body.c: handles of what a world owns (Body, Mesh, Texture).
 * Each holds its World, so the world outlives it; a call through a handle
 * whose world is closed, or a destroyed body, raises StateError. */
#include "module.h"
#include <math.h>
#include <stdarg.h>
#include <string.h>
#define NO_IMPORT_ARRAY
#define PY_ARRAY_UNIQUE_SYMBOL sensim_ARRAY_API
#include <numpy/arrayobject.h>

PyObject *sp_handle_new(PyTypeObject *type, sp_world *w, void *ptr) {
  sp_handle *h = PyObject_GC_New(sp_handle, type);
  if (!h) return NULL;
  h->world = (sp_world *)Py_NewRef(w);
  h->ptr = ptr;
  h->info = NULL;
  PyObject_GC_Track(h);
  return (PyObject *)h;
}

PyObject *sp_handle_new_info(PyTypeObject *type, sp_world *w, void *ptr, const char *fmt, ...) {
  PyObject *h = sp_handle_new(type, w, ptr);
  if (!h) return NULL;
  va_list ap;
  va_start(ap, fmt);
  ((sp_handle *)h)->info = PyUnicode_FromFormatV(fmt, ap);
  va_end(ap);
  if (!((sp_handle *)h)->info) Py_CLEAR(h);
  return h;
}

static const char *handle_noun(PyTypeObject *type) {
  return type == &sp_BodyType ? "body" : type == &sp_MeshType ? "mesh" : "texture";
}

void *sp_handle_ptr(PyObject *o, PyTypeObject *type, sp_world *w, int allow_none, const char *what) {
  if (o == Py_None && allow_none) return NULL;
  if (!PyObject_TypeCheck(o, type)) {
    PyErr_Format(PyExc_TypeError, "%s: expected a sensim.%s, got %.80s", what, type->tp_name + 7,
                 Py_TYPE(o)->tp_name);
    return NULL;
  }
  sp_handle *h = (sp_handle *)o;
  if (!h->world) return sp_state_error("%s: its world is closed", what);
  if (sp_world_check(h->world) < 0) return NULL;
  if (!h->ptr) return sp_state_error("%s: the %s was destroyed", what, handle_noun(type));
  if (w && h->world != w) {
    PyErr_Format(PyExc_ValueError, "%s: the %s belongs to another world", what, handle_noun(type));
    return NULL;
  }
  return h->ptr;
}

static int handle_traverse(sp_handle *self, visitproc visit, void *arg) {
  Py_VISIT(self->world);
  return 0;
}

static int handle_clear(sp_handle *self) {
  Py_CLEAR(self->world);
  Py_CLEAR(self->info);
  return 0;
}

/* <sensim.Body class_id=2, static, 14 keyframes>, <sensim.Mesh box, 12
 * triangles>, <sensim.Texture 64x32>; a destroyed body or a handle of a
 * closed world says so instead of its counts. */
static PyObject *handle_repr(sp_handle *self) {
  PyTypeObject *type = Py_TYPE(self);
  const char *state = !self->ptr ? "destroyed" : !self->world || !self->world->world ? "world closed" : NULL;
  PyObject *info = self->info ? self->info : Py_None;
  const char *sep = self->info ? ", " : "";
  if (!self->info) info = PyUnicode_FromString("");
  else Py_INCREF(info);
  if (!info) return NULL;
  PyObject *r;
  if (state)
    r = PyUnicode_FromFormat("<%s %U%s(%s)>", type->tp_name, info, self->info ? " " : "", state);
  else if (type == &sp_BodyType) {
    size_t n = sensim_body_keyframe_count(self->ptr);
    r = PyUnicode_FromFormat("<%s %U%s%zu keyframe%s>", type->tp_name, info, sep, n, n == 1 ? "" : "s");
  }
  else if (type == &sp_MeshType)
    r = PyUnicode_FromFormat("<%s %U%s%zu triangles>", type->tp_name, info, sep,
                             sensim_mesh_triangle_count(self->ptr));
  else
    r = PyUnicode_FromFormat("<%s %U>", type->tp_name, info);
  Py_DECREF(info);
  return r;
}

static void handle_dealloc(sp_handle *self) {
  PyObject_GC_UnTrack(self);
  handle_clear(self);
  PyObject_GC_Del(self);
}

static PyObject *handle_world(sp_handle *self, void *closure) {
  (void)closure;
  return Py_NewRef(self->world ? (PyObject *)self->world : Py_None);
}

/* ---- Body -------------------------------------------------------------------------- */

static int vec_arg(PyObject *o, sensim_vec3 *v, const char *what) {
  double d[3];
  if (sp_doubles_from(o, d, 3, what) < 0) return -1;
  *v = (sensim_vec3){d[0], d[1], d[2]};
  return 0;
}

static PyObject *body_push_state(sp_handle *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"t", "pose", "vel", "ang_vel", "acc", "ang_acc", NULL};
  double t;
  PyObject *po, *vo = Py_None, *wo = Py_None, *ao = Py_None, *bo = Py_None;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "dO|OOOO:push_state", kwlist, &t, &po, &vo, &wo, &ao, &bo))
    return NULL;
  sensim_body *b = sp_handle_ptr((PyObject *)self, &sp_BodyType, NULL, 0, "push_state");
  if (!b) return NULL;
  sensim_body_state s;
  memset(&s, 0, sizeof s);
  if (sp_pose_from(po, &s.pose, "pose") < 0) return NULL;
  if ((vo == Py_None) != (wo == Py_None) || (ao == Py_None) != (bo == Py_None)) {
    PyErr_SetString(PyExc_ValueError, "push_state: give vel with ang_vel, and acc with ang_acc");
    return NULL;
  }
  if (vo != Py_None) {
    if (vec_arg(vo, &s.lin_vel, "vel") < 0 || vec_arg(wo, &s.ang_vel, "ang_vel") < 0) return NULL;
    s.flags |= SENSIM_STATE_VELOCITY;
  }
  if (ao != Py_None) {
    if (vec_arg(ao, &s.lin_acc, "acc") < 0 || vec_arg(bo, &s.ang_acc, "ang_acc") < 0) return NULL;
    s.flags |= SENSIM_STATE_ACCELERATION;
  }
  sensim_status st = sensim_body_push_state(b, t, &s);
  if (st) return sp_raise(st);
  Py_RETURN_NONE;
}

static PyObject *body_push_vertices(sp_handle *self, PyObject *args, PyObject *kw) {
  static char *kwlist[] = {"t", "vertices", NULL};
  double t;
  PyObject *vo;
  if (!PyArg_ParseTupleAndKeywords(args, kw, "dO:push_vertices", kwlist, &t, &vo)) return NULL;
  sensim_body *b = sp_handle_ptr((PyObject *)self, &sp_BodyType, NULL, 0, "push_vertices");
  if (!b) return NULL;
  PyArrayObject *a = (PyArrayObject *)PyArray_FROMANY(
      vo, NPY_FLOAT32, 2, 2, NPY_ARRAY_C_CONTIGUOUS | NPY_ARRAY_ALIGNED | NPY_ARRAY_FORCECAST);
  if (!a) return NULL;
  if (PyArray_DIM(a, 1) != 3) {
    PyErr_Format(PyExc_ValueError, "push_vertices: vertices must have shape (n, 3), got (%zd, %zd)",
                 (Py_ssize_t)PyArray_DIM(a, 0), (Py_ssize_t)PyArray_DIM(a, 1));
    Py_DECREF(a);
    return NULL;
  }
  sensim_status st = sensim_body_push_vertices(b, t, PyArray_DATA(a), (size_t)PyArray_DIM(a, 0));
  Py_DECREF(a);
  if (st) return sp_raise(st);
  Py_RETURN_NONE;
}

static PyObject *body_state_at(sp_handle *self, PyObject *arg) {
  double t = PyFloat_AsDouble(arg);
  if (t == -1.0 && PyErr_Occurred()) return NULL;
  sensim_body *b = sp_handle_ptr((PyObject *)self, &sp_BodyType, NULL, 0, "state_at");
  if (!b) return NULL;
  sensim_body_state s;
  sensim_status st = sensim_body_state_at(b, t, &s);
  if (st) return sp_raise(st);
  PyObject *pose = sp_pose_to(&s.pose);
  if (!pose) return NULL;
  return Py_BuildValue("{s:N,s:(ddd),s:(ddd),s:(ddd),s:(ddd)}", "pose", pose, "vel", s.lin_vel.x,
                       s.lin_vel.y, s.lin_vel.z, "ang_vel", s.ang_vel.x, s.ang_vel.y, s.ang_vel.z,
                       "acc", s.lin_acc.x, s.lin_acc.y, s.lin_acc.z, "ang_acc", s.ang_acc.x,
                       s.ang_acc.y, s.ang_acc.z);
}

static PyObject *body_keyframes(sp_handle *self, void *closure) {
  (void)closure;
  sensim_body *b = sp_handle_ptr((PyObject *)self, &sp_BodyType, NULL, 0, "keyframe_count");
  return b ? PyLong_FromSize_t(sensim_body_keyframe_count(b)) : NULL;
}

static PyObject *body_instances(sp_handle *self, void *closure) {
  (void)closure;
  sensim_body *b = sp_handle_ptr((PyObject *)self, &sp_BodyType, NULL, 0, "instance_count");
  return b ? PyLong_FromSize_t(sensim_body_instance_count(b)) : NULL;
}

static PyObject *body_destroy(sp_handle *self, PyObject *noargs) {
  (void)noargs;
  sensim_body *b = sp_handle_ptr((PyObject *)self, &sp_BodyType, NULL, 0, "destroy");
  if (!b) return NULL;
  if (self->world->owner)
    return sp_state_error("destroy: the bodies of a Scenario's world are the scenario's (its "
                          "motions and runs refer to them)");
  sensim_status st = sensim_body_destroy(b);
  if (st) return sp_raise(st);
  self->ptr = NULL;
  Py_RETURN_NONE;
}

static PyObject *body_alive(sp_handle *self, void *closure) {
  (void)closure;
  return PyBool_FromLong(self->ptr && self->world && self->world->world);
}

static PyMethodDef body_methods[] = {
    {"push_state", (PyCFunction)(void (*)(void))body_push_state, METH_VARARGS | METH_KEYWORDS,
     "push_state($self, t, pose, vel=None, ang_vel=None, acc=None, ang_acc=None)\n--\n\n"
     "push_state(t, pose, vel=None, ang_vel=None, acc=None, ang_acc=None): the body's state at "
     "t (s): pose in the world; velocity m/s and angular velocity rad/s (world frame, given "
     "together); acceleration m/s^2 and angular acceleration rad/s^2 (together). Missing "
     "derivatives are estimated from the keyframes. Times increase strictly."},
    {"push_vertices", (PyCFunction)(void (*)(void))body_push_vertices, METH_VARARGS | METH_KEYWORDS,
     "push_vertices($self, t, vertices)\n--\n\n"
     "push_vertices(t, vertices): deform the body: its mesh's vertices, an (n, 3) array (float32, m, "
     "mesh frame; n the mesh's vertex count) at t (s). Captures interpolate them linearly in time per "
     "ray. Times increase strictly; a NaN or another count raises ValueError."},
    {"state_at", (PyCFunction)body_state_at, METH_O,
     "state_at($self, t, /)\n--\n\n"
     "state_at(t) -> dict(pose, vel, ang_vel, acc, ang_acc), interpolated at t (s)."},
    {"destroy", (PyCFunction)body_destroy, METH_NOARGS,
     "destroy($self, /)\n--\n\n"
     "Remove the body from the world (StateError while a sensor rides it)."},
    {NULL, NULL, 0, NULL}};

static PyGetSetDef body_getset[] = {
    {"keyframe_count", (getter)body_keyframes, NULL, "Keyframes the body holds now.", NULL},
    {"instance_count", (getter)body_instances, NULL, "Placements the body holds (World.add_instances), else 0.", NULL},
    {"alive", (getter)body_alive, NULL, "False once destroyed or its world closed.", NULL},
    {"world", (getter)handle_world, NULL, "The World the body is in.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject sp_BodyType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sensim.Body",
    .tp_basicsize = sizeof(sp_handle),
    .tp_repr = (reprfunc)handle_repr,
    .tp_dealloc = (destructor)handle_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A body of a world (World.body): an instance of a mesh, or a bare frame carrying sensors.",
    .tp_traverse = (traverseproc)handle_traverse,
    .tp_clear = (inquiry)handle_clear,
    .tp_methods = body_methods,
    .tp_getset = body_getset,
};

/* ---- Mesh, Texture ---------------------------------------------------------------- */

static PyObject *mesh_triangles(sp_handle *self, void *closure) {
  (void)closure;
  sensim_mesh *m = sp_handle_ptr((PyObject *)self, &sp_MeshType, NULL, 0, "triangle_count");
  return m ? PyLong_FromSize_t(sensim_mesh_triangle_count(m)) : NULL;
}

static PyGetSetDef mesh_getset[] = {
    {"triangle_count", (getter)mesh_triangles, NULL, "Number of triangles.", NULL},
    {"world", (getter)handle_world, NULL, "The World the mesh belongs to.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject sp_MeshType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sensim.Mesh",
    .tp_basicsize = sizeof(sp_handle),
    .tp_repr = (reprfunc)handle_repr,
    .tp_dealloc = (destructor)handle_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A triangle mesh of a world (World.mesh, load_mesh, shape); place it with World.body.",
    .tp_traverse = (traverseproc)handle_traverse,
    .tp_clear = (inquiry)handle_clear,
    .tp_getset = mesh_getset,
};

static PyGetSetDef texture_getset[] = {
    {"world", (getter)handle_world, NULL, "The World the texture belongs to.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject sp_TextureType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sensim.Texture",
    .tp_basicsize = sizeof(sp_handle),
    .tp_repr = (reprfunc)handle_repr,
    .tp_dealloc = (destructor)handle_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A base-colour texture of a world, for a material's 'texture'.",
    .tp_traverse = (traverseproc)handle_traverse,
    .tp_clear = (inquiry)handle_clear,
    .tp_getset = texture_getset,
};

/* ---- Tile ------------------------------------------------------------------------- */

static PyObject *tile_state(sp_handle *self, void *closure) {
  (void)closure;
  static const char *const names[] = {"pending", "loaded", "failed"};
  sensim_tile *t = sp_handle_ptr((PyObject *)self, &sp_TileType, NULL, 0, "state");
  return t ? PyUnicode_FromString(names[sensim_tile_state_get(t)]) : NULL;
}

static PyObject *tile_in_range(sp_handle *self, void *closure) {
  (void)closure;
  sensim_tile *t = sp_handle_ptr((PyObject *)self, &sp_TileType, NULL, 0, "in_range");
  return t ? PyBool_FromLong(sensim_tile_in_range(t)) : NULL;
}

static PyObject *tile_error(sp_handle *self, void *closure) {
  (void)closure;
  sensim_tile *t = sp_handle_ptr((PyObject *)self, &sp_TileType, NULL, 0, "error");
  return t ? PyUnicode_DecodeFSDefault(sensim_tile_error(t)) : NULL;
}

static PyGetSetDef tile_getset[] = {
    {"state", (getter)tile_state, NULL,
     "'pending' (never in range: not read), 'loaded', or 'failed' (its read failed; left out for good).", NULL},
    {"in_range", (getter)tile_in_range, NULL,
     "True while the tile is in the scene captures trace (loaded and in a sensor's reach at the last advance "
     "that started captures).",
     NULL},
    {"error", (getter)tile_error, NULL, "Why the tile failed to load, naming the file ('' unless failed).", NULL},
    {"world", (getter)handle_world, NULL, "The World the tile belongs to.", NULL},
    {NULL, NULL, NULL, NULL, NULL}};

PyTypeObject sp_TileType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "sensim.Tile",
    .tp_basicsize = sizeof(sp_handle),
    .tp_repr = (reprfunc)handle_repr,
    .tp_dealloc = (destructor)handle_dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "A tile of a large static world (World.add_tile): a mesh file read the first time a sensor's "
              "reach meets its bounds, left out of captures while none does (docs/host_integration.md).",
    .tp_traverse = (traverseproc)handle_traverse,
    .tp_clear = (inquiry)handle_clear,
    .tp_getset = tile_getset,
};

int sp_body_init(PyObject *m) {
  PyTypeObject *types[] = {&sp_BodyType, &sp_MeshType, &sp_TextureType, &sp_TileType};
  const char *names[] = {"Body", "Mesh", "Texture", "Tile"};
  for (int i = 0; i < 4; i++)
    if (PyType_Ready(types[i]) < 0 || PyModule_AddObjectRef(m, names[i], (PyObject *)types[i]) < 0)
      return -1;
  return 0;
}
