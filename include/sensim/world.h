/* sensim/world.h: the world, its meshes, materials, lights and bodies.
 *
 * A world owns everything created in it and destroys it with
 * sensim_world_destroy(). One host thread calls into a world at a time;
 * capture jobs run on the world's own worker threads and read only immutable
 * snapshots, so the host may keep pushing states while they run. */
#ifndef SENSIM_WORLD_H
#define SENSIM_WORLD_H

#include "sensim/export.h"

#include <stddef.h>
#include <stdint.h>
#include "sensim/status.h"
#include "sensim/types.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- limits --------------------------------------------------------------
 * World coordinates, m: every position that enters sensim (body poses and
 * the reach of their velocity and acceleration, sensor mounts, light
 * positions, mesh vertices, a meshed body's position plus its mesh's
 * radius, scenario motions over the run) must have |x|, |y|, |z| <=
 * SENSIM_COORD_MAX; beyond it calls fail with SENSIM_EINVAL.
 *
 * Why 2^24 m: the ray-tracing kernel (Embree) holds ray origins,
 * directions, hit distances and instance transforms in IEEE 754 binary32,
 * whose 24-bit significand spaces floats in [2^e, 2^(e+1)) by 2^(e-23).
 * Below 2^24 m a coordinate is rounded by at most half a metre (spacing
 * <= 1 m); at and beyond it floats skip whole metres. 2^24 m (16 777 km)
 * holds the whole Earth in the local ENU frame (diameter 12 742 km) and is
 * 11 orders of magnitude under Embree's own ray-validity bound (1.844e18,
 * FLT_LARGE, beyond which it aborts the process). Precision falls with
 * distance from the origin: a float's spacing is 0.06 mm at 1 km, 7.8 mm at
 * 100 km and 6.25 cm at 1 000 km, so keep ray-traced scenes within a few
 * hundred km of the origin where centimetres matter. */
#define SENSIM_COORD_MAX 16777216.0

/* The most captures of one sensor a single sensim_world_advance may start
 * (2^20). A host whose clock starts far from 0 (Unix time) and a sensor
 * left at phase 0 would otherwise start every capture since t = 0 in one
 * call: 1.7e10 of them for a 10 Hz sensor today, a hang rather than an
 * error. 2^20 is 1 000 s of a 1 kHz IMU in one advance; set the sensor's
 * phase to where its captures should begin instead. */
#define SENSIM_ADVANCE_MAX_CAPTURES 1048576

/* Simulation time, s: times pushed or advanced to, and a sensor's phase,
 * phase + lag and window, must have |t| <= SENSIM_TIME_MAX (SENSIM_EINVAL).
 * Why 2^32 s (136 years): times are IEEE 754 binary64 (53-bit significand);
 * below 2^32 their spacing is at most 2^-21 s (0.48 us), under half the
 * period of the fastest sensor (1 MHz), so capture times phase + k / rate
 * stay distinct and in order up to the limit. Unix time (1.7e9 s in 2024)
 * fits, for hosts that use it as their clock. */
#define SENSIM_TIME_MAX 4294967296.0

typedef struct sensim_world sensim_world;
typedef struct sensim_mesh sensim_mesh;
typedef struct sensim_body sensim_body;
typedef struct sensim_texture sensim_texture;

/* ---- world ------------------------------------------------------------ */

/* Weather seen by every sensor of the world (docs/weather.md): fog,
 * rain and snow as extinction of light along every ray (camera and lidar),
 * and the drops and flakes near a lidar as returns of their own. All zero
 * is clear air. A sensor's own fog_visibility, when set, replaces the
 * world's fog for that sensor; rain and snow always apply. */
typedef struct sensim_weather {
  double fog_visibility; /* meteorological visibility in fog, m (Koschmieder,
                            3.912 / V of extinction), 0 or [1, 1e6]; 0: no fog */
  double rain_rate;      /* rainfall rate at the ground, mm/h, [0, 300]; 0: no rain */
  double snow_rate;      /* snowfall rate as melted water, mm/h, [0, 30]; 0: no snow */
} sensim_weather;

typedef struct sensim_world_params {
  uint64_t seed;         /* key of every random stream; same seed, same frames */
  int threads;           /* worker threads; 0 runs every job inside advance() */
  double origin_lat;     /* WGS84 latitude of the local ENU origin, deg */
  double origin_lon;     /* WGS84 longitude of the local ENU origin, deg */
  double origin_height;  /* WGS84 ellipsoidal height of the origin, m */
  double gravity;        /* magnitude of gravity along world -Z, m/s^2, [0, 100);
                            SENSIM_GRAVITY_NORMAL: normal gravity at the origin */
  float background[3];   /* linear RGB radiance of rays that hit nothing */
  float ambient;         /* ambient (sky) irradiance added to every lit point */
  sensim_weather weather; /* fog, rain and snow for every sensor; all zero: clear */
} sensim_world_params;

/* Defaults: seed 1, 2 threads, origin 0 deg / 0 deg / 0 m, gravity
 * SENSIM_GRAVITY_NORMAL, light-grey sky background, ambient 0.1, clear
 * weather. */
SENSIM_API void sensim_world_params_init(sensim_world_params *p);

/* sensim_world_params.gravity meaning "the WGS84 normal gravity at the
 * world's origin" (sensim_normal_gravity(origin_lat, origin_height)); the
 * world resolves it when created, so sensim_world_params_get() returns the
 * value in use. Exactly this value: other negative values are errors. */
#define SENSIM_GRAVITY_NORMAL (-1.0)

/* Normal gravity of the WGS84 ellipsoid, m/s^2, at geodetic latitude
 * `lat_deg` (deg, [-90, 90]) and ellipsoidal height `height` (m):
 * Somigliana's formula with the second-order height correction (NIMA
 * TR8350.2, 3rd ed., eqs. 4-1 and 4-3; 9.7803253359 at the equator,
 * 9.8321849378 at the poles). Valid near the Earth (|height| of some
 * 100 km). NaN for a latitude out of range or a height not finite. */
SENSIM_API double sensim_normal_gravity(double lat_deg, double height);

/* Create a world. `p` is copied. */
SENSIM_API sensim_status sensim_world_create(const sensim_world_params *p, sensim_world **out);

/* Finish every capture job and free the world and all it owns. NULL is a no-op. */
SENSIM_API void sensim_world_destroy(sensim_world *world);

/* Move the world's clock to `t` (s, not before the current time, within
 * SENSIM_TIME_MAX): starts a capture job for every sensor whose capture
 * time t_k <= t, then makes every frame with t_capture + lag <= t visible
 * to sensim_sensor_poll(), waiting for its job only if it has not finished.
 * Push the bodies' states for time `t` before calling this. An advance that
 * would start more than SENSIM_ADVANCE_MAX_CAPTURES captures of one sensor
 * is SENSIM_EINVAL, with nothing started (see the macro). */
SENSIM_API sensim_status sensim_world_advance(sensim_world *world, double t);

/* Start the world over at time zero (reinforcement-learning episodes):
 * waits for every capture job, drops every frame in flight, delivered or
 * held by the last poll, empties every dynamic body's keyframe track
 * (putting the body back at its creation pose, at rest, until the host's
 * first push replaces it), re-creates every built-in filter from its name and parameters
 * (so filter state such as an IMU bias walk starts over), sets frame
 * indices and counters to zero and the clock back to -inf. Meshes, their
 * acceleration structures, materials, lights, bodies, sensors and the
 * weather are kept.
 * User filters are kept as they are: their state is the host's to reset.
 * With the same pushes and advances, the next episode's frames are
 * bit-identical to the first one's. SENSIM_ESTATE inside a frame callback;
 * on failure (out of memory re-creating a filter) the world is unchanged. */
SENSIM_API sensim_status sensim_world_reset(sensim_world *world);

/* Current simulation time, s (-inf before the first advance; NaN for a
 * NULL world). */
SENSIM_API double sensim_world_time(const sensim_world *world);

/* The parameters the world was created with, its weather as last set
 * (NULL for a NULL world). */
SENSIM_API const sensim_world_params *sensim_world_params_get(const sensim_world *world);

/* Change the weather (copied) for every capture that starts at a later
 * sensim_world_advance; captures already started keep the weather they
 * started with. SENSIM_EINVAL, the weather unchanged, for NULL arguments
 * or a value out of the ranges of sensim_weather. */
SENSIM_API sensim_status sensim_world_set_weather(sensim_world *world, const sensim_weather *weather);

/* Extinction coefficient of `weather` for light, 1/m: fog 3.912 / V
 * (Koschmieder) plus rain and snow (geometric optics over the
 * Marshall-Palmer and Gunn-Marshall size distributions; docs/weather.md).
 * `fog_visibility` > 0 (m) replaces the weather's fog, as a sensor's own
 * fog_visibility does. NaN for a NULL or invalid weather. */
SENSIM_API double sensim_weather_extinction(const sensim_weather *weather, double fog_visibility);

/* ---- materials and meshes ---------------------------------------------- */

/* glTF 2.0 alphaMode: what a material's alpha means. */
typedef enum sensim_alpha_mode {
  SENSIM_ALPHA_OPAQUE = 0, /* alpha ignored */
  SENSIM_ALPHA_MASK = 1,   /* alpha < alpha_cutoff: no surface (leaves, fences) */
  SENSIM_ALPHA_BLEND = 2   /* alpha is coverage: the surface lets 1 - alpha through */
} sensim_alpha_mode;

typedef struct sensim_material {
  float base_color[3]; /* linear RGB base colour (albedo), each in [0, 1];
                          multiplies the texture when there is one */
  float roughness;     /* perceptual roughness, [0, 1]; GGX alpha = roughness^2;
                          below 0.1 the surface also mirrors the scene */
  float metallic;      /* metalness, [0, 1] (0 dielectric, 1 metal) */
  float reflectance;   /* diffuse reflectance at the lidar wavelength, [0, 1] */
  float radar_specular; /* radar: power reflection coefficient |Gamma|^2 of mirror-like
                           (coherent) reflection, [0, 1] (metal 1; docs/radar.md) */
  float radar_diffuse;  /* radar: Lambertian albedo rho_d of the incoherent part,
                           sigma0 = 4 rho_d cos^2(incidence) m^2/m^2, [0, 1];
                           radar_specular + radar_diffuse <= 1 */
  const sensim_texture *texture; /* base-colour map through the mesh's UVs,
                          borrowed from the same world; NULL: none */

  /* glTF 2.0 metallic-roughness textures, borrowed from the same world;
   * NULL: none. */
  const sensim_texture *metallic_roughness_texture; /* linear; green channel
                          scales roughness, blue scales metallic */
  const sensim_texture *normal_texture; /* tangent-space normal map, linear
                          RGB in [0, 1] mapped to [-1, 1] (glTF, MikkTSpace
                          tangents) */
  const sensim_texture *emissive_texture; /* linear RGB multiplying emission */

  /* Light transport (the path integrator, docs/rendering.md). */
  float emission[3];   /* emitted radiance, W/(sr m^2) per linear RGB channel,
                          each finite and >= 0 (glTF emissiveFactor x strength);
                          multiplied by emissive_texture where there is one */
  float ior;           /* index of refraction of the dielectric part, finite, > 0
                          (glTF KHR_materials_ior; 1.5 by default) */
  float transmission;  /* fraction of the dielectric part's light that refracts
                          through instead of being diffused, [0, 1]
                          (KHR_materials_transmission) */
  float normal_scale;  /* scales the normal map's X and Y, finite
                          (glTF normalTexture.scale) */
  float alpha;         /* base alpha (glTF baseColorFactor[3]), [0, 1]; multiplies
                          the base-colour texture's alpha */
  float alpha_cutoff;  /* SENSIM_ALPHA_MASK: alpha below it is a hole, [0, 1] */
  int thin_walled;     /* nonzero: a thin shell (window pane, soap film): light
                          passes without bending */
  sensim_alpha_mode alpha_mode; /* how alpha is used (glTF alphaMode) */
  float specular;      /* strength of the dielectric part's specular layer, [0, 1]:
                          scales its reflectance at normal incidence
                          ((ior - 1) / (ior + 1))^2 (KHR_materials_specular's
                          specularFactor); 0: a pure Lambertian surface */
} sensim_material;

/* Defaults: mid-grey (0.5), roughness 0.5, metallic 0, reflectance 0.5, no
 * texture; radar: specular 0.1 (a dielectric of relative permittivity
 * about 3.5 at normal incidence), diffuse 0.05; no emission, ior 1.5, no
 * transmission, not thin-walled, normal_scale 1, alpha 1, opaque, cutoff
 * 0.5, specular 1 (glTF 2.0's defaults). */
SENSIM_API void sensim_material_init(sensim_material *m);

/* Create a texture from linear RGB floats (width x height x 3, row 0 at the
 * top, copied, each in [0, 1]). Sampled bilinearly with wrap-around at
 * u, v in [0, 1): u across, v down from the top row (glTF's convention).
 * sensim_texture_load_png (io.h) reads one from an sRGB PNG. */
SENSIM_API sensim_status sensim_texture_create(sensim_world *world, uint32_t width, uint32_t height,
                                    const float *rgb, sensim_texture **out);

/* Create a texture from RGBA floats (width x height x 4, row 0 at the top,
 * copied, each in [0, 1]); alpha is linear coverage. `srgb` nonzero: RGB is
 * sRGB-encoded, as image files hold it. A texture is decoded per use, as
 * glTF 2.0 says (sec. 3.9): where a material uses it as colour (`texture`,
 * `emissive_texture`) sRGB values are decoded to linear light (IEC
 * 61966-2-1) before filtering; where it uses it as data
 * (`metallic_roughness_texture`, `normal_texture`) the values are read as
 * given. sensim_texture_load_png (io.h) makes one from a PNG (srgb = 1). */
SENSIM_API sensim_status sensim_texture_create_rgba(sensim_world *world, uint32_t width, uint32_t height,
                                                    const float *rgba, int srgb, sensim_texture **out);

/* The same for high-dynamic-range data (radiance, an environment map):
 * each value finite and >= 0, no upper bound. sensim_texture_load_hdr
 * (io.h) reads one from a Radiance .hdr file. */
SENSIM_API sensim_status sensim_texture_create_hdr(sensim_world *world, uint32_t width, uint32_t height,
                                                   const float *rgb, sensim_texture **out);

/* A triangle mesh given as arrays, which sensim_mesh_create copies. */
typedef struct sensim_mesh_desc {
  const float *vertices;        /* 3 * nvert floats (x, y, z in the mesh frame), m */
  const float *uvs;             /* 2 * nvert texture coordinates (u, v per vertex), or NULL */
  size_t nvert;                 /* number of vertices, >= 3 */
  const uint32_t *indices;      /* 3 * ntri vertex indices, counter-clockwise seen from the front */
  size_t ntri;                  /* number of triangles, >= 1 */
  const float *tri_reflectance; /* ntri lidar reflectances in [0, 1] overriding the
                                   material's per triangle (road markings), or NULL */
  const sensim_material *material; /* NULL: sensim_material_init's */
  const float *normals;         /* 3 * nvert vertex normals (shading), mesh frame, each
                                   finite and nonzero (normalised when copied), or NULL:
                                   surfaces shade with their flat triangle normals */
  const float *tangents;        /* 4 * nvert tangents (glTF TANGENT): xyz along +u,
                                   finite and nonzero; w = +1 or -1, the bitangent
                                   w (n x t) pointing to decreasing v (up the image, a
                                   normal map's +Y); or NULL: generated where a
                                   material has a normal map (MikkTSpace-compatible) */
  const sensim_material *materials; /* nmaterials materials, copied: several per mesh
                                   (a glTF mesh's primitives); `material` must then be
                                   NULL. materials[0] is the mesh's own (radar, lidar) */
  size_t nmaterials;            /* 0: `material` for every triangle */
  const uint32_t *tri_material; /* ntri indices into materials, or NULL: all use
                                   materials[0] */
} sensim_mesh_desc;

/* Empty arrays and the default material: set vertices, nvert, indices and
 * ntri, and any of the rest, before sensim_mesh_create. */
SENSIM_API void sensim_mesh_desc_init(sensim_mesh_desc *desc);

/* Create a mesh from `desc`, whose arrays and material are copied; the mesh
 * belongs to the world. SENSIM_EINVAL for NULL pointers, fewer than 3
 * vertices or 1 triangle, non-finite vertices, uvs, normals or tangents, a
 * zero normal or tangent, a tangent w other than +-1, an index or material
 * index out of range, a reflectance outside [0, 1] or a material out of
 * range. */
SENSIM_API sensim_status sensim_mesh_create(sensim_world *world, const sensim_mesh_desc *desc,
                                            sensim_mesh **out);

/* Load a mesh file through Assimp: OBJ, PLY, STL or glTF 2.0 (.gltf/.glb),
 * chosen by the extension (any case). All meshes of the file are merged
 * with their node transforms applied, with their first UV channel when
 * they have one. `material` non-NULL is every triangle's material. NULL:
 * for OBJ, PLY and STL the file's first material's diffuse colour; for
 * glTF its metallic-roughness materials in full (docs/rendering.md,
 * "Materials from glTF"): factors, base-colour (with alpha),
 * metallic-roughness, normal and emissive textures (PNG or JPEG images,
 * embedded or beside the file, made in the world), alphaMode and cutoff,
 * KHR_materials_transmission and _ior; each primitive's material on its
 * triangles (sensim_mesh_desc.materials), and the vertex normals and
 * tangents (generated where a primitive has none). The file's structure
 * is checked before and after Assimp reads it, so no file, however
 * broken, crashes the host: SENSIM_EPARSE naming the file and the fault
 * for a malformed file (a glTF's image missing or unreadable, a material
 * value out of range) or another extension, SENSIM_ENOTFOUND for a
 * missing file, SENSIM_EIO for one that is not a regular file; the world
 * is unchanged on failure (no mesh, no texture). */
SENSIM_API sensim_status sensim_mesh_load(sensim_world *world, const char *path,
                               const sensim_material *material, sensim_mesh **out);

typedef enum sensim_shape_kind {
  SENSIM_SHAPE_BOX,      /* size: full extents x, y, z */
  SENSIM_SHAPE_SPHERE,   /* size.x: radius */
  SENSIM_SHAPE_CYLINDER, /* size.x: radius, size.z: height; axis Z, base at z = 0 */
  SENSIM_SHAPE_CONE,     /* size.x: base radius, size.z: height; apex up, base at z = 0 */
  SENSIM_SHAPE_PLANE     /* size.x, size.y: full extents; normal +Z at z = 0 */
} sensim_shape_kind;

typedef struct sensim_shape {
  sensim_shape_kind kind;
  sensim_vec3 size;  /* m, meaning per kind above */
  int segments;      /* facets around curved shapes (>= 3); 0 = 32 */
} sensim_shape;

/* Create a tessellated primitive shape, centred on the mesh origin (box,
 * sphere, plane) or standing on it (cylinder, cone). */
SENSIM_API sensim_status sensim_mesh_create_shape(sensim_world *world, const sensim_shape *shape,
                                       const sensim_material *material, sensim_mesh **out);

SENSIM_API size_t sensim_mesh_triangle_count(const sensim_mesh *mesh);

/* ---- lights ------------------------------------------------------------ */

typedef enum sensim_light_kind {
  SENSIM_LIGHT_POINT,       /* irradiance = intensity / d^2 */
  SENSIM_LIGHT_DIRECTIONAL, /* irradiance = intensity (sun-like) */
  SENSIM_LIGHT_SPOT,        /* a point light limited to a cone about `direction` */
  SENSIM_LIGHT_RECT,        /* a Lambertian emitting rectangle: centre `position`, full
                               edges edge_u, edge_v, emitting towards edge_u x edge_v;
                               radiance = intensity x color */
  SENSIM_LIGHT_DISC         /* a Lambertian emitting disc: centre `position`, `radius`,
                               emitting towards `direction`; radiance = intensity x color */
} sensim_light_kind;

typedef struct sensim_light {
  sensim_light_kind kind;
  sensim_vec3 position;  /* point and spot lights: world position, m */
  sensim_vec3 direction; /* directional: direction light travels; spot: cone axis */
  float color[3];        /* linear RGB tint, each in [0, 1] */
  float intensity;       /* point/spot: radiant intensity scale (irradiance at 1 m);
                            directional: irradiance */
  float spot_inner;      /* spot: half-angle of full intensity, rad */
  float spot_outer;      /* spot: half-angle beyond which it is dark, rad (>= inner);
                            smoothstep fall-off in between */
  int cast_shadows;      /* nonzero: occlusion is traced (hard shadows) */
  /* Area and soft shadows (the path integrator, docs/rendering.md; the direct
   * integrator lights from the centre: a rect or disc as a point of
   * intensity radiance x area x cos, the others as if these were 0). */
  sensim_vec3 edge_u, edge_v; /* rect: full edge vectors, m, not parallel */
  float radius;          /* disc: radius, m, > 0; point and spot: the radius of a
                            uniformly bright sphere of the same intensity, m, >= 0
                            (0: a point, hard shadows) */
  float angular_diameter; /* directional: apparent diameter of the source disc, rad,
                            [0, 0.5] (the sun: 0.0093 = 0.53 deg); 0: a delta */
} sensim_light;

/* A white directional light pointing straight down, intensity 1, shadows on,
 * no extent (radius 0, angular diameter 0, zero edges). */
SENSIM_API void sensim_light_init(sensim_light *l);

/* Add a light (copied) to the world. */
SENSIM_API sensim_status sensim_light_add(sensim_world *world, const sensim_light *light);

/* ---- bodies -------------------------------------------------------------- */

typedef struct sensim_body_params {
  sensim_mesh *mesh;     /* geometry, borrowed from the same world; NULL: none */
  uint16_t class_id;     /* semantic class for segmentation (0 = unlabelled) */
  uint32_t instance_id;  /* instance for segmentation; 0 = assigned by sensim */
  int is_static;         /* nonzero: `pose` forever, sensim_body_push_state refused */
  sensim_pose pose;      /* pose in the world at creation, m and unit quaternion */
} sensim_body_params;

/* Defaults: no mesh, class 0, instance auto, dynamic, identity pose. */
SENSIM_API void sensim_body_params_init(sensim_body_params *p);

/* Create a body (an instance of a mesh, or a bare frame to carry sensors). */
SENSIM_API sensim_status sensim_body_create(sensim_world *world, const sensim_body_params *p,
                                 sensim_body **out);

/* ---- instances: one mesh placed many times -------------------------------
 * A forest, a car park, street furniture: n placements of one mesh held by
 * ONE static body, at the memory of the mesh once plus 48 bytes per
 * placement (its rigid transform), about 30 for the placements' BVH
 * (built once) and, where given, 6 bytes of ids; the mesh's own BVH is
 * shared (docs/instancing.md). Each placement is traced, shaded and labelled
 * exactly as a static body of the same mesh, pose and ids would be (hits
 * agree to 1e-5 m), with its own class and instance ids in camera label
 * planes and lidar points, and its own material variation. */

/* The most placements of one group (2^24). */
#define SENSIM_INSTANCES_MAX 16777216u

typedef struct sensim_instances_desc {
  sensim_mesh *mesh;            /* the mesh placed, borrowed from the same world */
  size_t n;                     /* placements, [1, SENSIM_INSTANCES_MAX] */
  const sensim_pose *poses;     /* n poses in the world (unit quaternions to 1e-6,
                                   positions within SENSIM_COORD_MAX less the mesh's
                                   radius), copied */
  uint16_t class_id;            /* every placement's semantic class when class_ids is NULL */
  const uint16_t *class_ids;    /* n classes, copied, or NULL */
  const uint32_t *instance_ids; /* n instance ids, each >= 1, copied; or NULL: sensim
                                   assigns n consecutive ids after the world's last */
  /* Per-placement material variation, a pure function of (world seed,
   * group, placement): each linear RGB channel of the base colour is
   * scaled by its own factor uniform in [1 - albedo_jitter, 1 +
   * albedo_jitter], and the lidar reflectance by one uniform in
   * [1 - reflectance_jitter, 1 + reflectance_jitter]; products are clamped
   * to [0, 1]. Both factors have mean 1, so a group's mean colour and
   * reflectance are the material's where no clamping occurs. */
  float albedo_jitter;          /* [0, 0.5]; 0: the material's colour everywhere */
  float reflectance_jitter;     /* [0, 0.5]; 0: the material's reflectance everywhere */
  int fast_bvh;                 /* 0: the placements' BVH is built for memory (about 30
                                   bytes per placement); nonzero: for speed (about 116
                                   bytes; rays among many placements about 1.2x faster) */
} sensim_instances_desc;

/* No mesh, n 0, class 0, sensim-assigned ids, no variation, the BVH built
 * for memory. */
SENSIM_API void sensim_instances_desc_init(sensim_instances_desc *d);

/* Create a static body holding d->n placements of d->mesh (arrays copied).
 * The body's own pose is the identity; sensim_body_destroy removes every
 * placement at once. SENSIM_EINVAL, with the world unchanged (no body, no
 * ids used), for NULL arguments, a mesh of another world (the message
 * names it), n = 0 or above SENSIM_INSTANCES_MAX, a pose that is not
 * finite, not unit or out of coordinates (the message names the
 * placement), an instance id of 0 or assigned ids that would pass
 * UINT32_MAX, or a jitter outside [0, 0.5]. The radar's single-bounce
 * echoes, the cone sensor's exact and lines methods and emissive-triangle
 * lights do not see placements (docs/instancing.md, "Limits"). */
SENSIM_API sensim_status sensim_body_create_instances(sensim_world *world, const sensim_instances_desc *d,
                                                      sensim_body **out);

/* Number of placements of a body made by sensim_body_create_instances; 0
 * for any other body or NULL. */
SENSIM_API size_t sensim_body_instance_count(const sensim_body *body);

/* The material variation of placement k of such a body: the factors its
 * base colour's channels and its lidar reflectance are multiplied by
 * (before clamping). SENSIM_EINVAL for another body or k out of range. */
SENSIM_API sensim_status sensim_body_instance_variation(const sensim_body *body, size_t k, float albedo_scale[3],
                                                        float *reflectance_scale);

/* Remove a body from the world: it is no longer traced and its handle must
 * not be used again (its slot, a few hundred bytes, is freed with the world).
 * SENSIM_ESTATE, with the body unchanged, while a sensor is attached to it:
 * a sensor's carrier cannot vanish under it. Captures already started keep
 * their snapshot of the body. NULL is SENSIM_EINVAL. */
SENSIM_API sensim_status sensim_body_destroy(sensim_body *body);

/* What a sensim_body_state carries besides the pose. */
enum {
  SENSIM_STATE_VELOCITY = 1u << 0,     /* lin_vel and ang_vel are set */
  SENSIM_STATE_ACCELERATION = 1u << 1  /* lin_acc and ang_acc are set */
};

typedef struct sensim_body_state {
  sensim_pose pose;     /* pose of the body frame in the world */
  unsigned flags;       /* SENSIM_STATE_* bits saying which fields are valid */
  sensim_vec3 lin_vel;  /* velocity of the body origin, world frame, m/s */
  sensim_vec3 ang_vel;  /* angular velocity, world frame, rad/s */
  sensim_vec3 lin_acc;  /* acceleration of the body origin, world frame, m/s^2 */
  sensim_vec3 ang_acc;  /* angular acceleration, world frame, rad/s^2 */
} sensim_body_state;

/* Record the body's state at time t (s). Times must increase strictly from
 * push to push and may not lie before the world's current time. The
 * quaternion must be unit to 1e-6. Missing derivatives are estimated from
 * the keyframes by central differences: second-order accurate for evenly
 * spaced keyframes, first-order at the ends of the track. */
SENSIM_API sensim_status sensim_body_push_state(sensim_body *body, double t, const sensim_body_state *s);

/* Deform the body: its mesh's vertices (3 * nvert floats, mesh frame, m,
 * copied) at time t, s. Captures see the vertices interpolated linearly in
 * time per ray between the pushed keyframes (clamped before the first and
 * after the last), with the body's rigid pose applied on top; the
 * triangles stay the mesh's. Other bodies sharing the mesh keep its own
 * vertices. Times must increase strictly from push to push and may not
 * lie before the world's time. SENSIM_EINVAL, with the body unchanged,
 * for a vertex count other than the mesh's or a vertex that is not finite
 * or beyond SENSIM_COORD_MAX / 2; SENSIM_ESTATE for a static body, one
 * without a mesh or a time out of order. sensim_world_reset returns the
 * body to its mesh's vertices. Shading that reads per-vertex data (uv)
 * uses the mesh's; normals are the deformed triangles'. */
SENSIM_API sensim_status sensim_body_push_vertices(sensim_body *body, double t, const float *vertices,
                                                   size_t nvert);

/* Number of vertex keyframes the body holds now (0: rigid). */
SENSIM_API size_t sensim_body_vertex_keyframe_count(const sensim_body *body);

/* Interpolated state of the body at time t: position linear, rotation slerp,
 * derivatives as given or estimated. t is clamped to the keyframes held. */
SENSIM_API sensim_status sensim_body_state_at(const sensim_body *body, double t, sensim_body_state *out);

/* Number of keyframes the body holds now (bounded: tracks are trimmed to the
 * longest collection window any sensor needs). */
SENSIM_API size_t sensim_body_keyframe_count(const sensim_body *body);

#ifdef __cplusplus
}
#endif
#endif
