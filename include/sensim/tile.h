/* sensim/tile.h: tiles of a large static world.
 *
 * A tile is a mesh file (OBJ, PLY, STL or glTF, as sensim_mesh_load reads
 * them) placed in the world as it stands (identity pose, static), with the
 * box its geometry lies in declared up front. A world given a city as
 * tiles loads only the tiles some sensor can see, each once, and leaves
 * every tile out of the scene a capture traces while no sensor can see it:
 *
 *   a sensor can see the points within its reach (a lidar: its max_range,
 *   m; kinds without a bounded reach, such as the camera: everything) of
 *   where it stands over the keyframes its carrier holds; a tile is in
 *   range while its bounds meet that region for some sensor that traces
 *   geometry.
 *
 * sensim_world_advance decides, before it starts the step's captures:
 * a tile that comes into range for the first time is loaded there (once),
 * and a tile out of range is left out of the captures' scene (a loaded
 * tile stays in memory). Leaving out a tile out of range changes no
 * frame: its triangles lie beyond every ray's reach. Files of tiles
 * within 1.5 times a sensor's reach are read ahead on a thread of the
 * world's own, so the advance that needs one usually finds it read and
 * only makes its mesh (and Embree builds its BVH at the first capture);
 * a read still running is waited for, so a tile joins the scene at the
 * same advance whether it was read ahead or not.
 *
 * A tile that fails to load (its file missing, malformed or truncated,
 * or geometry outside its declared bounds) makes that advance return the
 * load's error (SENSIM_ENOTFOUND, SENSIM_EPARSE, SENSIM_EIO, SENSIM_EINVAL)
 * with a message naming the file, after it has done all its other work
 * (the step's captures start, without the tile). The tile is then
 * SENSIM_TILE_FAILED, keeps that message (sensim_tile_error) and is not
 * tried again; the world goes on with the other tiles. */
#ifndef SENSIM_TILE_H
#define SENSIM_TILE_H

#include "sensim/export.h"
#include "sensim/status.h"
#include "sensim/world.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct sensim_tile sensim_tile;

typedef struct sensim_tile_params {
  const char *path;          /* mesh file, copied; relative paths are taken from the
                                process's working directory when the tile loads */
  double bounds_min[3];      /* world box holding every vertex of the file, m: min x, y, z */
  double bounds_max[3];      /* max x, y, z; each >= its min, finite, within SENSIM_COORD_MAX */
  const sensim_material *material; /* every triangle's material (copied), or NULL: the file's
                                (sensim_mesh_load) */
  uint16_t class_id;         /* semantic class of the tile's body (0 = unlabelled) */
} sensim_tile_params;

/* No path, empty bounds (0, 0, 0) - (0, 0, 0), the file's materials,
 * class 0. */
SENSIM_API void sensim_tile_params_init(sensim_tile_params *p);

/* Declare a tile (nothing is read yet). SENSIM_EINVAL, with nothing
 * added, for NULL arguments, an empty path, a bound that is not finite or
 * beyond SENSIM_COORD_MAX, a min above its max (inverted bounds), or a
 * material out of range. The tile belongs to the world. */
SENSIM_API sensim_status sensim_tile_add(sensim_world *world, const sensim_tile_params *p, sensim_tile **out);

typedef enum sensim_tile_state {
  SENSIM_TILE_PENDING = 0, /* never in range: not read */
  SENSIM_TILE_LOADED = 1,  /* read and in the world */
  SENSIM_TILE_FAILED = 2   /* its load failed (sensim_tile_error); left out for good */
} sensim_tile_state;

/* The tile's state (SENSIM_TILE_FAILED for NULL). */
SENSIM_API sensim_tile_state sensim_tile_state_get(const sensim_tile *tile);

/* Nonzero while the tile is in the scene captures trace: loaded and in
 * range at the last advance that started captures. */
SENSIM_API int sensim_tile_in_range(const sensim_tile *tile);

/* Why the tile failed to load ("" unless SENSIM_TILE_FAILED); valid as
 * long as the world. */
SENSIM_API const char *sensim_tile_error(const sensim_tile *tile);

/* The tile's mesh once loaded, else NULL (for its triangle count). */
SENSIM_API const sensim_mesh *sensim_tile_mesh(const sensim_tile *tile);

#ifdef __cplusplus
}
#endif
#endif
