/* io/scenario_load.c: building a world from a scenario file: the root
 * object, the world, meshes, lights and bodies (sensors are in
 * scenario_sensors.c). docs/scenario.md documents every key read here. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include "core/internal.h"
#include "core/vecmath.h"
#include "io/scenario_internal.h"

/* Names become folder names and cross-references: non-empty, no '/', not
 * "." or "..". */
static sensim_status check_name(const char *name, const char *path) {
  if (!*name || strchr(name, '/') || strcmp(name, ".") == 0 || strcmp(name, "..") == 0)
    return sensim__fail(SENSIM_EINVAL, "%s.name: '%s' is not a usable name (non-empty, no '/')",
                        path, name);
  return SENSIM_OK;
}

static sensim_status in_unit(const char *path, const char *key, double v) {
  if (v >= 0.0 && v <= 1.0) return SENSIM_OK;
  return sensim__fail(SENSIM_EINVAL, "%s.%s: %g is outside [0, 1]", path, key, v);
}

sensim_status sensim__scenario_pose(const cJSON *obj, const char *path, sensim_pose *pose) {
  static const char *const keys[] = {"position", "rpy", "quaternion", NULL};
  double p[3] = {0, 0, 0}, rpy[3] = {0, 0, 0}, q[4] = {1, 0, 0, 0};
  sensim_status st = sensim__jcheck_object(obj, path, keys);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "position", 0, 3, p);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "rpy", 0, 3, rpy);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "quaternion", 0, 4, q);
  if (st != SENSIM_OK) return st;
  int has_rpy = cJSON_HasObjectItem(obj, "rpy"), has_q = cJSON_HasObjectItem(obj, "quaternion");
  if (has_rpy && has_q)
    return sensim__fail(SENSIM_EINVAL, "%s: give either rpy or quaternion, not both", path);
  pose->pos = v3(p[0], p[1], p[2]);
  if (has_q) {
    /* Hand-written quaternions carry rounding (0.7071); normalise them. */
    sensim_quat qq = q_make(q[0], q[1], q[2], q[3]);
    double n = q_norm(qq);
    if (!(n > 1e-9))
      return sensim__fail(SENSIM_EINVAL, "%s.quaternion: must not be zero", path);
    pose->rot = q_normalize(qq);
  } else {
    /* Roll about X, then pitch about Y, then yaw about Z, all about the
     * fixed parent axes: R = Rz(yaw) Ry(pitch) Rx(roll) (REP 103). */
    sensim_quat qx = q_exp(v3(rpy[0], 0, 0)), qy = q_exp(v3(0, rpy[1], 0));
    sensim_quat qz = q_exp(v3(0, 0, rpy[2]));
    pose->rot = q_normalize(q_mul(qz, q_mul(qy, qx)));
  }
  return SENSIM_OK;
}

/* ---- meshes ------------------------------------------------------------- */

/* "texture" names a PNG (relative to the scenario's folder), loaded into
 * the world as the material's base-colour map. */
static sensim_status parse_material(sensim_world *w, const cJSON *obj, const char *path, const char *base_dir,
                                    sensim_material *m) {
  static const char *const keys[] = {"base_color",    "roughness", "metallic",     "reflectance", "radar_specular",
                                     "radar_diffuse", "texture",   "emission",     "ior",         "transmission",
                                     "thin_walled",   "specular",  NULL};
  const char *tex = NULL;
  double c[3] = {m->base_color[0], m->base_color[1], m->base_color[2]};
  double r = m->roughness, me = m->metallic, re = m->reflectance;
  double rs = m->radar_specular, rd = m->radar_diffuse;
  sensim_status st = sensim__jcheck_object(obj, path, keys);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "base_color", 0, 3, c);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "roughness", 0, &r);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "metallic", 0, &me);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "reflectance", 0, &re);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "radar_specular", 0, &rs);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "radar_diffuse", 0, &rd);
  if (st == SENSIM_OK) st = sensim__jstring(obj, path, "texture", 0, &tex);
  /* Light transport (the path integrator, docs/rendering.md). */
  double em[3] = {m->emission[0], m->emission[1], m->emission[2]};
  double ior = m->ior, tr = m->transmission, sp = m->specular;
  int thin = m->thin_walled;
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "emission", 0, 3, em);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "ior", 0, &ior);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "transmission", 0, &tr);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "specular", 0, &sp);
  if (st == SENSIM_OK) st = sensim__jbool(obj, path, "thin_walled", &thin);
  for (int i = 0; i < 3 && st == SENSIM_OK; i++)
    if (!(em[i] >= 0 && em[i] <= 3.4e38))
      st = sensim__fail(SENSIM_EINVAL, "%s.emission[%d]: must be finite and >= 0 W/(sr m^2) (got %g)", path, i, em[i]);
  if (st == SENSIM_OK && !(ior > 0 && ior <= 3.4e38))
    st = sensim__fail(SENSIM_EINVAL, "%s.ior: must be finite and > 0 (got %g)", path, ior);
  if (st == SENSIM_OK) st = in_unit(path, "transmission", tr);
  if (st == SENSIM_OK) st = in_unit(path, "specular", sp);
  for (int i = 0; i < 3 && st == SENSIM_OK; i++)
    if (!(c[i] >= 0 && c[i] <= 1))
      st = sensim__fail(SENSIM_EINVAL, "%s.base_color[%d]: %g is outside [0, 1]", path, i, c[i]);
  if (st == SENSIM_OK) st = in_unit(path, "roughness", r);
  if (st == SENSIM_OK) st = in_unit(path, "metallic", me);
  if (st == SENSIM_OK) st = in_unit(path, "reflectance", re);
  if (st == SENSIM_OK) st = in_unit(path, "radar_specular", rs);
  if (st == SENSIM_OK) st = in_unit(path, "radar_diffuse", rd);
  if (st == SENSIM_OK && !(rs + rd <= 1.0))
    st = sensim__fail(SENSIM_EINVAL, "%s: radar_specular + radar_diffuse = %g exceeds 1", path, rs + rd);
  if (st != SENSIM_OK) return st;
  if (tex) {
    char full[4096];
    int n = tex[0] == '/' || !base_dir ? snprintf(full, sizeof full, "%s", tex)
                                       : snprintf(full, sizeof full, "%s/%s", base_dir, tex);
    if (n < 0 || (size_t)n >= sizeof full) return sensim__fail(SENSIM_EINVAL, "%s.texture: path too long", path);
    sensim_texture *t = NULL;
    st = sensim_texture_load_png(w, full, &t);
    if (st != SENSIM_OK) {
      sensim__error_context("%s.texture", path);
      return st;
    }
    m->texture = t;
  }
  for (int i = 0; i < 3; i++) m->base_color[i] = (float)c[i];
  m->roughness = (float)r;
  m->metallic = (float)me;
  m->reflectance = (float)re;
  m->radar_specular = (float)rs;
  m->radar_diffuse = (float)rd;
  for (int i = 0; i < 3; i++) m->emission[i] = (float)em[i];
  m->ior = (float)ior;
  m->transmission = (float)tr;
  m->specular = (float)sp;
  m->thin_walled = thin;
  return SENSIM_OK;
}

static sensim_status parse_shape(const cJSON *obj, const char *path, sensim_shape *sh) {
  static const char *const keys[] = {"kind", "size", "segments", NULL};
  static const char *const kinds[] = {"box", "sphere", "cylinder", "cone", "plane", NULL};
  const char *kind = NULL;
  double size[3] = {0, 0, 0}, seg = 0;
  sensim_status st = sensim__jcheck_object(obj, path, keys);
  if (st == SENSIM_OK) st = sensim__jstring(obj, path, "kind", 1, &kind);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "size", 1, 3, size);
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "segments", 0, 0, 4096, &seg);
  if (st != SENSIM_OK) return st;
  int k = -1;
  for (int i = 0; i < 5; i++)
    if (strcmp(kind, kinds[i]) == 0) k = i;
  char hint[96];
  if (k < 0)
    return sensim__fail(SENSIM_EINVAL,
                        "%s.kind: unknown shape '%s'%s (box, sphere, cylinder, cone, plane)", path,
                        kind, sensim__did_you_mean(hint, sizeof hint, kind, kinds));
  if (seg > 0 && seg < 3)
    return sensim__fail(SENSIM_EINVAL, "%s.segments: must be 0 (default) or >= 3", path);
  /* The sizes each kind reads (world.h) must be positive. */
  int need_z = k == SENSIM_SHAPE_BOX || k == SENSIM_SHAPE_CYLINDER || k == SENSIM_SHAPE_CONE;
  int need_y = k == SENSIM_SHAPE_BOX || k == SENSIM_SHAPE_PLANE;
  if (!(size[0] > 0) || (need_y && !(size[1] > 0)) || (need_z && !(size[2] > 0)))
    return sensim__fail(SENSIM_EINVAL, "%s.size: [%g, %g, %g] has a non-positive extent for a %s",
                        path, size[0], size[1], size[2], kind);
  sh->kind = (sensim_shape_kind)k;
  sh->size = v3(size[0], size[1], size[2]);
  sh->segments = (int)seg;
  return SENSIM_OK;
}

char *sensim__scenario_resolve(const char *base_dir, const char *file) {
  size_t nb = (file[0] == '/' || !base_dir || !*base_dir) ? 0 : strlen(base_dir);
  char *r = malloc(nb + strlen(file) + 2);
  if (!r) return NULL;
  if (nb)
    sprintf(r, "%s/%s", base_dir, file);
  else
    strcpy(r, file);
  return r;
}

static sensim_status load_mesh_file(sensim_world *w, const char *path, const char *base_dir,
                                    const char *file, const sensim_material *mat,
                                    sensim_mesh **out) {
  char *full = sensim__scenario_resolve(base_dir, file);
  if (!full) return sensim__fail(SENSIM_ENOMEM, "%s.file: out of memory", path);
  struct stat sb;
  sensim_status st = SENSIM_OK;
  if (stat(full, &sb) != 0) {
    int e = errno;
    st = sensim__fail(e == ENOENT || e == ENOTDIR ? SENSIM_ENOTFOUND : SENSIM_EIO,
                      "%s.file: cannot read '%s': %s", path, full, strerror(e));
  } else if (!S_ISREG(sb.st_mode)) {
    st = sensim__fail(SENSIM_EIO, "%s.file: '%s' is not a file", path, full);
  } else {
    st = sensim_mesh_load(w, full, mat, out);
    if (st != SENSIM_OK) sensim__error_context("%s.file", path);
  }
  free(full);
  return st;
}

static sensim_status parse_mesh(sensim_scenario *scn, const cJSON *obj, const char *path,
                                const char *base_dir) {
  static const char *const keys[] = {"name", "shape", "file", "material", NULL};
  const char *name = NULL, *file = NULL;
  const cJSON *shape = NULL, *matj = NULL;
  sensim_status st = sensim__jcheck_object(obj, path, keys);
  if (st == SENSIM_OK) st = sensim__jstring(obj, path, "name", 1, &name);
  if (st == SENSIM_OK) st = check_name(name, path);
  if (st == SENSIM_OK) st = sensim__jobject(obj, path, "shape", 0, &shape);
  if (st == SENSIM_OK) st = sensim__jstring(obj, path, "file", 0, &file);
  if (st == SENSIM_OK) st = sensim__jobject(obj, path, "material", 0, &matj);
  if (st != SENSIM_OK) return st;
  for (size_t i = 0; i < scn->nmeshes; i++)
    if (strcmp(scn->meshes[i].name, name) == 0)
      return sensim__fail(SENSIM_EINVAL, "%s.name: '%s' is already a mesh", path, name);
  if (!shape == !file)
    return sensim__fail(SENSIM_EPARSE, "%s: give exactly one of shape and file", path);
  sensim_material mat;
  sensim_material_init(&mat);
  char sub[256];
  if (matj) {
    sensim__jpath_key(sub, sizeof sub, path, "material");
    if ((st = parse_material(scn->world, matj, sub, base_dir, &mat)) != SENSIM_OK) return st;
  }
  char *copy = sensim__strdup(name);
  if (!copy) return SENSIM_ENOMEM;
  sensim_mesh *mesh = NULL;
  if (shape) {
    sensim_shape sh;
    sensim__jpath_key(sub, sizeof sub, path, "shape");
    st = parse_shape(shape, sub, &sh);
    if (st == SENSIM_OK) {
      st = sensim_mesh_create_shape(scn->world, &sh, &mat, &mesh);
      if (st != SENSIM_OK) sensim__error_context("%s", sub);
    }
  } else {
    st = load_mesh_file(scn->world, path, base_dir, file, matj ? &mat : NULL, &mesh);
  }
  if (st != SENSIM_OK) {
    free(copy);
    return st;
  }
  scn->meshes[scn->nmeshes].name = copy;
  scn->meshes[scn->nmeshes].mesh = mesh;
  scn->nmeshes++;
  return SENSIM_OK;
}

sensim_status sensim__scenario_meshes(sensim_scenario *scn, const cJSON *arr,
                                      const char *base_dir) {
  size_t n = (size_t)cJSON_GetArraySize(arr);
  if (n == 0) return SENSIM_OK;
  scn->meshes = calloc(n, sizeof *scn->meshes);
  if (!scn->meshes) return sensim__fail(SENSIM_ENOMEM, "meshes: out of memory");
  size_t i = 0;
  for (const cJSON *e = arr->child; e; e = e->next, i++) {
    char path[64];
    sensim__jpath_index(path, sizeof path, "meshes", i);
    sensim_status st = parse_mesh(scn, e, path, base_dir);
    if (st != SENSIM_OK) return st;
  }
  return SENSIM_OK;
}

/* ---- lights -------------------------------------------------------------- */

static sensim_status parse_light(sensim_world *w, const cJSON *obj, const char *path) {
  static const char *const keys[] = {"kind",      "position", "direction",  "color",  "intensity",
                                     "shadows",   "spot_inner", "spot_outer", "edge_u", "edge_v",
                                     "radius",    "angular_diameter_deg", NULL};
  sensim_light l;
  sensim_light_init(&l);
  const char *kind = NULL;
  double pos[3] = {l.position.x, l.position.y, l.position.z};
  double dir[3] = {l.direction.x, l.direction.y, l.direction.z};
  double col[3] = {l.color[0], l.color[1], l.color[2]};
  double in = l.intensity, inner = 0, outer = 0;
  int shadows = l.cast_shadows != 0;
  sensim_status st = sensim__jcheck_object(obj, path, keys);
  if (st == SENSIM_OK) st = sensim__jstring(obj, path, "kind", 1, &kind);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "position", 0, 3, pos);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "direction", 0, 3, dir);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "color", 0, 3, col);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "intensity", 0, &in);
  if (st == SENSIM_OK) st = sensim__jbool(obj, path, "shadows", &shadows);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "spot_inner", 0, &inner);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "spot_outer", 0, &outer);
  /* Area lights and soft shadows (the path integrator, docs/rendering.md). */
  double eu[3] = {0, 0, 0}, ev[3] = {0, 0, 0}, radius = 0, adiam = 0;
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "edge_u", 0, 3, eu);
  if (st == SENSIM_OK) st = sensim__jvec(obj, path, "edge_v", 0, 3, ev);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "radius", 0, &radius);
  if (st == SENSIM_OK) st = sensim__jnumber(obj, path, "angular_diameter_deg", 0, &adiam);
  if (st != SENSIM_OK) return st;
  if (strcmp(kind, "point") == 0)
    l.kind = SENSIM_LIGHT_POINT;
  else if (strcmp(kind, "directional") == 0)
    l.kind = SENSIM_LIGHT_DIRECTIONAL;
  else if (strcmp(kind, "spot") == 0)
    l.kind = SENSIM_LIGHT_SPOT;
  else if (strcmp(kind, "rect") == 0)
    l.kind = SENSIM_LIGHT_RECT;
  else if (strcmp(kind, "disc") == 0)
    l.kind = SENSIM_LIGHT_DISC;
  else {
    static const char *const kinds[] = {"point", "directional", "spot", "rect", "disc", NULL};
    char hint[96];
    return sensim__fail(SENSIM_EINVAL, "%s.kind: unknown light '%s'%s (point, directional, spot, rect, disc)",
                        path, kind, sensim__did_you_mean(hint, sizeof hint, kind, kinds));
  }
  if (l.kind != SENSIM_LIGHT_SPOT && (cJSON_GetObjectItemCaseSensitive(obj, "spot_inner") ||
                                      cJSON_GetObjectItemCaseSensitive(obj, "spot_outer")))
    return sensim__fail(SENSIM_EINVAL, "%s: spot_inner/spot_outer belong to spot lights", path);
  l.spot_inner = (float)inner;
  l.spot_outer = (float)outer;
  if (!(in >= 0)) return sensim__fail(SENSIM_EINVAL, "%s.intensity: must be >= 0", path);
  for (int i = 0; i < 3; i++)
    if (!(col[i] >= 0 && col[i] <= 1))
      return sensim__fail(SENSIM_EINVAL, "%s.color[%d]: %g is outside [0, 1]", path, i, col[i]);
  if (l.kind != SENSIM_LIGHT_POINT && l.kind != SENSIM_LIGHT_RECT && dir[0] == 0 && dir[1] == 0 && dir[2] == 0)
    return sensim__fail(SENSIM_EINVAL, "%s.direction: must not be zero", path);
  if (l.kind != SENSIM_LIGHT_RECT &&
      (cJSON_GetObjectItemCaseSensitive(obj, "edge_u") || cJSON_GetObjectItemCaseSensitive(obj, "edge_v")))
    return sensim__fail(SENSIM_EINVAL, "%s: edge_u/edge_v belong to rect lights", path);
  if (l.kind == SENSIM_LIGHT_RECT &&
      !(cJSON_GetObjectItemCaseSensitive(obj, "edge_u") && cJSON_GetObjectItemCaseSensitive(obj, "edge_v")))
    return sensim__fail(SENSIM_EINVAL, "%s: a rect light needs edge_u and edge_v", path);
  if ((l.kind == SENSIM_LIGHT_DIRECTIONAL || l.kind == SENSIM_LIGHT_RECT) &&
      cJSON_GetObjectItemCaseSensitive(obj, "radius"))
    return sensim__fail(SENSIM_EINVAL, "%s.radius: belongs to point, spot and disc lights", path);
  if (l.kind != SENSIM_LIGHT_DIRECTIONAL && cJSON_GetObjectItemCaseSensitive(obj, "angular_diameter_deg"))
    return sensim__fail(SENSIM_EINVAL, "%s.angular_diameter_deg: belongs to directional lights", path);
  if (!(radius >= 0 && radius <= 1e6)) return sensim__scenario_fail_range(path, "radius", "in [0, 1e6] m", radius);
  if (!(adiam >= 0 && adiam <= 28.0))
    return sensim__scenario_fail_range(path, "angular_diameter_deg", "in [0, 28] deg", adiam);
  l.edge_u = v3(eu[0], eu[1], eu[2]);
  l.edge_v = v3(ev[0], ev[1], ev[2]);
  l.radius = (float)radius;
  l.angular_diameter = (float)(adiam * M_PI / 180.0);
  l.position = v3(pos[0], pos[1], pos[2]);
  l.direction = v3(dir[0], dir[1], dir[2]);
  for (int i = 0; i < 3; i++) l.color[i] = (float)col[i];
  l.intensity = (float)in;
  l.cast_shadows = shadows;
  st = sensim_light_add(w, &l);
  if (st != SENSIM_OK) sensim__error_context("%s", path);
  return st;
}

sensim_status sensim__scenario_lights(sensim_scenario *scn, const cJSON *arr) {
  size_t i = 0;
  for (const cJSON *e = arr->child; e; e = e->next, i++) {
    char path[64];
    sensim__jpath_index(path, sizeof path, "lights", i);
    sensim_status st = parse_light(scn->world, e, path);
    if (st != SENSIM_OK) return st;
  }
  return SENSIM_OK;
}

/* ---- bodies ------------------------------------------------------------- */

static sensim_status parse_body(sensim_scenario *scn, const cJSON *obj, const char *path,
                                sensim__scn_body *b) {
  static const char *const keys[] = {"name",   "mesh", "class_id", "instance_id",
                                     "static", "pose", "motion",   NULL};
  const char *name = NULL, *mesh = NULL;
  const cJSON *posej = NULL, *motionj = NULL;
  double cls = 0, inst = 0;
  int is_static = -1;
  sensim_status st = sensim__jcheck_object(obj, path, keys);
  if (st == SENSIM_OK) st = sensim__jstring(obj, path, "name", 1, &name);
  if (st == SENSIM_OK) st = check_name(name, path);
  if (st == SENSIM_OK) st = sensim__jstring(obj, path, "mesh", 0, &mesh);
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "class_id", 0, 0, 65535, &cls);
  if (st == SENSIM_OK) st = sensim__jint(obj, path, "instance_id", 0, 0, 4294967295.0, &inst);
  if (st == SENSIM_OK) st = sensim__jbool(obj, path, "static", &is_static);
  if (st == SENSIM_OK) st = sensim__jobject(obj, path, "pose", 0, &posej);
  if (st == SENSIM_OK) st = sensim__jobject(obj, path, "motion", 0, &motionj);
  if (st != SENSIM_OK) return st;
  for (size_t i = 0; i < scn->nbodies; i++)
    if (strcmp(scn->bodies[i].name, name) == 0)
      return sensim__fail(SENSIM_EINVAL, "%s.name: '%s' is already a body", path, name);
  sensim_body_params bp;
  sensim_body_params_init(&bp);
  if (mesh) {
    for (size_t i = 0; i < scn->nmeshes && !bp.mesh; i++)
      if (strcmp(scn->meshes[i].name, mesh) == 0) bp.mesh = scn->meshes[i].mesh;
    if (!bp.mesh)
      return sensim__fail(SENSIM_ENOTFOUND, "%s.mesh: no mesh named '%s'", path, mesh);
  }
  if (is_static == 1 && motionj)
    return sensim__fail(SENSIM_EINVAL, "%s.static: a static body cannot have a motion", path);
  b->is_static = is_static < 0 ? !motionj : is_static;
  b->offset.pos = v3(0, 0, 0);
  b->offset.rot = q_make(1, 0, 0, 0);
  char sub[128];
  if (posej) {
    sensim__jpath_key(sub, sizeof sub, path, "pose");
    if ((st = sensim__scenario_pose(posej, sub, &b->offset)) != SENSIM_OK) return st;
  }
  if (motionj) {
    sensim__jpath_key(sub, sizeof sub, path, "motion");
    if ((st = sensim__motion_parse(motionj, sub, &b->motion)) != SENSIM_OK) return st;
  }
  sensim_body_state s0;
  sensim__motion_state(&b->motion, &b->offset, 0.0, &s0);
  bp.class_id = (uint16_t)cls;
  bp.instance_id = (uint32_t)inst;
  bp.is_static = b->is_static;
  bp.pose = s0.pose;
  if (!(b->name = sensim__strdup(name))) st = SENSIM_ENOMEM;
  if (st == SENSIM_OK) {
    st = sensim_body_create(scn->world, &bp, &b->body);
    if (st != SENSIM_OK) sensim__error_context("%s", path);
  }
  if (st != SENSIM_OK) {
    sensim__motion_free(&b->motion);
    free(b->name);
    b->name = NULL;
  }
  return st;
}

sensim_status sensim__scenario_bodies(sensim_scenario *scn, const cJSON *arr) {
  size_t n = (size_t)cJSON_GetArraySize(arr);
  if (n == 0) return SENSIM_OK;
  scn->bodies = calloc(n, sizeof *scn->bodies);
  if (!scn->bodies) return sensim__fail(SENSIM_ENOMEM, "bodies: out of memory");
  size_t i = 0;
  for (const cJSON *e = arr->child; e; e = e->next, i++) {
    char path[64];
    sensim__jpath_index(path, sizeof path, "bodies", i);
    sensim_status st = parse_body(scn, e, path, &scn->bodies[scn->nbodies]);
    if (st != SENSIM_OK) return st;
    scn->nbodies++;
  }
  return SENSIM_OK;
}
