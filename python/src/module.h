/* python/src/module.h: what the files of the _sensim extension share.
 *
 * _sensim is a CPython extension written against the C API (no binding
 * generator): sensim is C, so the binding stays C, a call costs one
 * method dispatch (the advance + poll loop of an RL step is sub-microsecond
 * overhead), and frames reach NumPy through the NumPy C API with no copy.
 * The Python package `sensim` (python/sensim/) adds keyword-argument sensor
 * creation, the batch stepper and the Gymnasium-style environment on top.
 *
 * Ownership: a World object owns its sensim_world; every object made in a
 * world (Body, Mesh, Texture, Sensor) holds a strong reference to the World
 * object, so the world outlives them, and checks that the world is still
 * open before each call (World.close() ends it early: later calls raise
 * sensim.StateError, never crash). Frames own their buffers (taken from the
 * library with sensim_sensor_take), so their NumPy views stay valid for as
 * long as any of them is alive, whatever happens to the sensor or world. */
#ifndef SENSIM_PY_MODULE_H
#define SENSIM_PY_MODULE_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <sensim/sensim.h>

/* ---- errors (module.c) ---------------------------------------------------
 * sensim.Error and one subclass per status; each also derives from the
 * builtin exception a Python user would catch (InvalidArgument is a
 * ValueError, NotFound a LookupError, IOError an OSError, ...). */
extern PyObject *sp_Error;

/* Raise the exception for `st` with sensim_last_error() as its message;
 * returns NULL (for `return sp_raise(st);`). */
PyObject *sp_raise(sensim_status st);
/* sensim.FilterError (a Python filter raised) with sensim_last_error()
 * and status st; returns NULL. */
extern PyObject *sp_FilterError;
PyObject *sp_raise_filter_error(sensim_status st);
/* Same as sp_raise, but as an int -1 for functions returning int. */
int sp_raise_int(sensim_status st);
/* Raise sensim.StateError with a formatted message; returns NULL. */
PyObject *sp_state_error(const char *fmt, ...);

/* ---- conversions (convert.c) -------------------------------------------- */

/* A pose from None (identity), a Pose-like object with .pos and .rot, a
 * (pos, quat) pair, a sequence of 3 (position, identity rotation) or of 7
 * (x, y, z, qw, qx, qy, qz). Quaternions are (w, x, y, z). Returns 0, or -1
 * with TypeError / ValueError set. `what` names the argument. */
int sp_pose_from(PyObject *o, sensim_pose *out, const char *what);
/* (pos, quat) tuples of floats. */
PyObject *sp_pose_to(const sensim_pose *p);
/* n finite doubles from a sequence of exactly n numbers (None: leaves out
 * untouched and returns 0). */
int sp_doubles_from(PyObject *o, double *out, int n, const char *what);
int sp_floats_from(PyObject *o, float *out, int n, const char *what);
PyObject *sp_vec3_to(sensim_vec3 v);
/* A PyArg "O&" converter of a seed into a uint64_t: an int in [0, 2^64),
 * else ValueError (out of range: no silent wrap) or TypeError. */
int sp_seed_converter(PyObject *o, void *out);
/* JSON text of a dict (or None -> NULL) through Python's json module;
 * returns a new bytes object (the caller DECREFs) or NULL with an error;
 * *text points into it. */
int sp_json_dumps(PyObject *o, PyObject **holder, const char **text);
/* ", did you mean 'x'?" for the name of `names` nearest `word`
 * (sensim_suggest), or "" when none is near; written into buf. */
const char *sp_hint(char *buf, size_t size, const char *word, const char *const *names);
/* A material from None (defaults), a dict of its fields or a Material. */
struct sp_world;
int sp_material_from(struct sp_world *w, PyObject *o, sensim_material *out);

/* ---- world (world.c) ------------------------------------------------------ */

typedef struct sp_world {
  PyObject_HEAD
  sensim_world *world;    /* NULL once closed */
  PyObject *owner;        /* a Scenario that owns the world, or NULL (owned here) */
  PyObject *sensors;      /* list of Sensor objects, in creation order */
  PyObject *pending;      /* an exception raised in a frame callback, re-raised by advance */
  PyObject *filter_errors; /* the exceptions Python filters of its sensors raised (filter.c) */
  PyObject *weakrefs;
  int busy;               /* inside a call that released the GIL (advance, reset, ...) */
  unsigned long busy_thread; /* the thread making that call */
} sp_world;

extern PyTypeObject sp_WorldType;
/* The type Python subclasses World as (sensim.World); worlds the extension
 * makes itself (a scenario's) are of this type. */
extern PyTypeObject *sp_world_class;
/* -1 with sensim.StateError set when the world is closed, or when another
 * thread is inside a call that released the GIL on it (one thread at a
 * time calls into a world: the C rule, enforced here instead of crashing).
 * The busy thread itself may call in: frame callbacks run inside advance. */
int sp_world_check(sp_world *w);
/* Around calls that release the GIL and must run alone (advance, reset,
 * close, scenario runs): sp_world_check, and also refused from inside a
 * frame callback; then marks the world busy until sp_world_end. */
int sp_world_begin(sp_world *w, const char *what);
void sp_world_end(sp_world *w);
/* A World object wrapping a world `owner` keeps alive and destroys. */
PyObject *sp_world_wrap(sensim_world *world, PyObject *owner);
/* Call this after every sensim call that may have run frame callbacks:
 * re-raises an exception a callback raised. Returns 0 or -1. */
int sp_world_take_pending(sp_world *w);

/* ---- handles made in a world (body.c, world.c) ---------------------------- */

typedef struct sp_handle {
  PyObject_HEAD
  sp_world *world; /* strong reference */
  void *ptr;       /* sensim_body / sensim_mesh / sensim_texture / sensim_tile; NULL once destroyed */
  PyObject *info;  /* str for repr: how it was made ("box", "class_id=2, static"), or NULL */
} sp_handle;

extern PyTypeObject sp_BodyType, sp_MeshType, sp_TextureType, sp_TileType;
PyObject *sp_handle_new(PyTypeObject *type, sp_world *w, void *ptr);
/* sp_handle_new with the repr's description (PyUnicode_FromFormat). */
PyObject *sp_handle_new_info(PyTypeObject *type, sp_world *w, void *ptr, const char *fmt, ...);
/* The handle's pointer, or NULL with an exception (closed world, destroyed
 * body, wrong type). None gives NULL with no exception when allow_none. */
void *sp_handle_ptr(PyObject *o, PyTypeObject *type, sp_world *w, int allow_none, const char *what);

/* ---- sensors (sensor.c) ---------------------------------------------------- */

typedef struct sp_sensor {
  PyObject_HEAD
  sp_world *world;        /* strong reference */
  sensim_sensor *sensor;  /* valid while the world is open */
  PyObject *name;         /* str, the sensor's name (frames carry it) */
  PyObject *callback;     /* Python frame callback or NULL */
} sp_sensor;

extern PyTypeObject sp_SensorType;
/* World.add_sensor(kind, name=, body=, mount=, rate=, phase=, lag=,
 * window=, filters=(), **kind_keys) (sensor.c). */
PyObject *sp_world_add_sensor(sp_world *w, PyObject *args, PyObject *kw);
/* World.add_instances(mesh, poses, ...) (instances.c). */
PyObject *sp_world_add_instances(sp_world *w, PyObject *args, PyObject *kw);
/* The live sensim_sensor of a Sensor, or NULL with an exception. */
sensim_sensor *sp_sensor_ptr(PyObject *o);
/* Bring w->sensors up to date with the world's sensors (a scenario makes
 * its own); 0 or -1. */
int sp_world_sync_sensors(sp_world *w);

/* ---- frames (frame.c) ---------------------------------------------------- */

typedef struct sp_frame {
  PyObject_HEAD
  sensim_frame frame; /* owned: buffers freed with the object */
  PyObject *sensor_name;  /* str or None */
  int lent;               /* 1 while a user filter works on a frame the chain owns */
  int shared;             /* a view or a GIL-released reader may hold its pointers */
  int writing;            /* FilterChain.run is replacing its buffers */
  void **grave;           /* buffers replaced while shared: freed with the object */
  size_t ngrave, capgrave;
  PyObject *world_ref;    /* weak reference to the World of the sensor that made
                             it (taken by Sensor.poll), or NULL */
  sensim_sensor *sensor;  /* that sensor, which gets the buffers back
                             (sensim_sensor_recycle) if its world is open
                             when the Frame dies */
} sp_frame;

extern PyTypeObject sp_FrameType;
/* A Frame that takes over *f's buffers (f is zeroed). */
PyObject *sp_frame_adopt(sensim_frame *f, PyObject *sensor_name);
/* sp_frame_adopt of a frame taken from sensor `s` of World `w`: its
 * buffers go back to the sensor when the Frame dies, while w is open. */
PyObject *sp_frame_adopt_taken(sensim_frame *f, PyObject *sensor_name, PyObject *w, sensim_sensor *s);
/* The dtype of a payload's elements (new reference), NULL with an error
 * for NONE/ANY. */
PyObject *sp_payload_dtype(sensim_payload type);
/* A NumPy array over `data` with `base` as its owner (new reference). */
PyObject *sp_array(PyObject *base, void *data, PyObject *dtype_or_null, int typenum, int nd,
                   const long *dims);
/* The sensim_frame inside a Frame object, for reading (NULL with TypeError
 * otherwise). Its buffers stay valid while the caller holds the Frame, even
 * with the GIL released: from then on the Frame never frees a buffer it
 * replaces (Frame.alloc, FilterChain.run) before it dies itself. */
sensim_frame *sp_frame_ptr(PyObject *o);
/* Replace a shared frame's buffers by copies, keeping the old ones alive
 * until the Frame dies (before FilterChain.run changes them); 0 or -1. */
int sp_frame_unshare(sp_frame *f);

/* ---- filters (filter.c) ---------------------------------------------------- */

extern PyTypeObject sp_FilterChainType;
/* A user filter around a Python callable fn(frame) (in, out: payload
 * names, out None for "same as in"): fills *def and *user for
 * sensim_sensor_add_user_filter / sensim_filter_chain_add_user. *user holds
 * a reference to fn that def->destroy releases (taking the GIL); if the
 * add fails, call sp_user_filter_discard(*user) instead. */
int sp_user_filter_make(PyObject *fn, PyObject *in, PyObject *out, PyObject *name, PyObject *sink,
                        sensim_filter_def *def, void **user);
void sp_user_filter_discard(void *user);
/* Exceptions of Python filters, kept for the error they cause. A failing
 * filter's frame is dropped at its delivery time and the advance reaching
 * it fails (sensim_sensor_frames_failed); the Python filter's exception,
 * traceback and all, goes into the `sink` list given to
 * sp_user_filter_make (a World's filter_errors, a FilterChain's own; NULL:
 * none) with the frame's delivery time, sensor and index. sp_raise_from
 * raises sensim.FilterError (status st) with, as its __cause__, the
 * exception of the first frame (delivery order) delivered by time t (no
 * such exception: the exception of st, as sp_raise), and forgets every
 * exception of frames delivered by t; returns NULL. */
PyObject *sp_raise_from(sensim_status st, PyObject *sink, double t);
/* Forget the sink's exceptions of frames delivered by t (every one for
 * t = +inf: a reset dropped their frames). */
void sp_sink_forget(PyObject *sink, double t);
/* The payload named by a str (NotFound error otherwise). */
int sp_payload_from(PyObject *o, sensim_payload *out);

/* ---- module registration ------------------------------------------------ */
int sp_convert_init(PyObject *m);
int sp_world_init(PyObject *m);
int sp_many_init(PyObject *m);
int sp_body_init(PyObject *m);
int sp_sensor_init(PyObject *m);
int sp_frame_init(PyObject *m);
int sp_filter_init(PyObject *m);
int sp_scenario_init(PyObject *m);
int sp_io_init(PyObject *m);
int sp_tools_init(PyObject *m);
int sp_record_init(PyObject *m);

/* ---- added by the scenario, io and tools files (branch pyio) ------------
 * Declarations those files share with each other; nothing in the core
 * uses them. */

/* scenario.c: the Scenario type. sp_scenario_begin: the live
 * sensim_scenario of a Scenario object, with the Scenario and its World
 * marked busy (sp_world_begin) so the caller may release the GIL while it
 * works; NULL with TypeError (not a Scenario) or StateError (closed, or
 * busy). sp_scenario_end (GIL held) ends the use and raises what a frame
 * callback raised meanwhile: 0, or -1 with the exception set. */
extern PyTypeObject sp_ScenarioType;
sensim_scenario *sp_scenario_begin(PyObject *o);
int sp_scenario_end(PyObject *o);

/* tools_array.c: images as the tools take them (sensim/io.h's
 * sensim_image, floats in [0, 1]) to and from NumPy. sp_image_from: any array-like of shape
 * (H, W) or (H, W, C), C in {1, 3}, as a C-contiguous float32 copy in
 * *holder (a new reference the caller DECREFs) that *img borrows; -1 with
 * an exception otherwise. sp_image_to: an (H, W, C) float32 array that
 * takes over img->data (img is zeroed, also on failure, when the data is
 * freed). */
int sp_image_from(PyObject *o, sensim_image *img, PyObject **holder, const char *what);
PyObject *sp_image_to(sensim_image *img);

/* tools_array.c: a float64 C-contiguous array of min_nd..max_nd dimensions
 * from any array-like (new reference), NULL with an error naming `what`. */
PyObject *sp_tools_doubles(PyObject *o, int min_nd, int max_nd, const char *what);

/* tools_ekf.c: EKF parameters (sensim_tools/vepd.h) from a dict of
 * them (None: the defaults; unknown keys raise TypeError): 0 or -1. */
struct sensim_ekf_params;
int sp_tools_ekf_params(PyObject *d, struct sensim_ekf_params *p);

/* tools*.c: registration of each part of the tools (called by
 * sp_tools_init). */
int sp_tools_vepd_init(PyObject *m);
int sp_tools_ekf_init(PyObject *m);
int sp_tools_ablate_init(PyObject *m);
int sp_tools_images_init(PyObject *m);
int sp_tools_draw_init(PyObject *m);
int sp_tools_sweep_init(PyObject *m);
int sp_tools_published_init(PyObject *m);

#endif
