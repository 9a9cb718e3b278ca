/* tools/dataset_run.c: a labelled image dataset per camera-stage ablation
 * variant (sensim_tools/dataset.h, docs/judge.md).
 *
 * Each variant is the ablation tool's edit of the scenario
 * (sensim_ablation_edit), so the variant list is the ablation table's and
 * grows with it. Only the chosen camera is kept; the scenario is stepped
 * by hand (sensim_scenario_step_to) and every delivered frame is written
 * with the boxes of its label plane (tools/dataset_boxes.c) and its
 * content key: the camera's pose and time, which are the same for the same
 * frame index in every variant, so batches of similar content line up
 * across variants. */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cjson/cJSON.h>
#include "tools/json_text.h"
#include "tools/tools_internal.h"

enum { MAX_CLASSES = 256 };

void sensim_dataset_options_init(sensim_dataset_options *o) {
  if (!o) return;
  memset(o, 0, sizeof *o);
  o->threads = -1;
  o->min_pixels = 20;
}

/* What the dataset needs of the scenario file itself. */
typedef struct dataset_plan {
  char camera[128];               /* the camera kept */
  uint16_t classes[MAX_CLASSES];  /* scenario class ids in YOLO order */
  char names[MAX_CLASSES][64];    /* their names for classes.txt */
  size_t nclasses;
  double seed;                    /* world seed (1 when absent) */
} dataset_plan;

static const char *string_item(const cJSON *obj, const char *key) {
  const cJSON *it = cJSON_IsObject(obj) ? cJSON_GetObjectItemCaseSensitive(obj, key) : NULL;
  return cJSON_IsString(it) ? it->valuestring : NULL;
}

static int cmp_u16(const void *a, const void *b) {
  return (int)*(const uint16_t *)a - (int)*(const uint16_t *)b;
}

static sensim_status plan_classes(const cJSON *root, const sensim_dataset_options *o, dataset_plan *p) {
  const cJSON *bodies = cJSON_GetObjectItemCaseSensitive(root, "bodies");
  if (o->classes) {
    if (o->nclasses == 0 || o->nclasses > MAX_CLASSES)
      return sensim_error_set(SENSIM_EINVAL, "dataset: %zu classes given (1..%d)", o->nclasses, MAX_CLASSES);
    for (size_t i = 0; i < o->nclasses; i++) {
      if (o->classes[i] == 0) return sensim_error_set(SENSIM_EINVAL, "dataset: class id 0 is 'unlabelled'");
      for (size_t j = 0; j < i; j++)
        if (o->classes[j] == o->classes[i])
          return sensim_error_set(SENSIM_EINVAL, "dataset: class id %u given twice", o->classes[i]);
      p->classes[i] = o->classes[i];
    }
    p->nclasses = o->nclasses;
  } else {
    for (const cJSON *b = cJSON_IsArray(bodies) ? bodies->child : NULL; b; b = b->next) {
      const cJSON *c = cJSON_IsObject(b) ? cJSON_GetObjectItemCaseSensitive(b, "class_id") : NULL;
      if (!cJSON_IsNumber(c) || !(c->valuedouble >= 1 && c->valuedouble <= 65535)) continue;
      uint16_t id = (uint16_t)c->valuedouble;
      size_t j = 0;
      while (j < p->nclasses && p->classes[j] != id) j++;
      if (j < p->nclasses) continue;
      if (p->nclasses == MAX_CLASSES)
        return sensim_error_set(SENSIM_EINVAL, "dataset: more than %d class ids in 'bodies'", MAX_CLASSES);
      p->classes[p->nclasses++] = id;
    }
    if (p->nclasses == 0)
      return sensim_error_set(SENSIM_EINVAL, "dataset: no body has a class_id > 0, so nothing would be labelled");
    qsort(p->classes, p->nclasses, sizeof p->classes[0], cmp_u16);
  }
  for (size_t i = 0; i < p->nclasses; i++) {
    snprintf(p->names[i], sizeof p->names[i], "class_%u", p->classes[i]);
    for (const cJSON *b = cJSON_IsArray(bodies) ? bodies->child : NULL; b; b = b->next) {
      const cJSON *c = cJSON_IsObject(b) ? cJSON_GetObjectItemCaseSensitive(b, "class_id") : NULL;
      const char *mesh = string_item(b, "mesh");
      if (!cJSON_IsNumber(c) || c->valuedouble != p->classes[i] || !mesh || !*mesh || strpbrk(mesh, " \t\r\n") ||
          strlen(mesh) >= sizeof p->names[i])
        continue;
      /* The first body's mesh names the class, unless an earlier class has that name. */
      int taken = 0;
      for (size_t j = 0; j < i; j++) taken |= strcmp(p->names[j], mesh) == 0;
      if (!taken) snprintf(p->names[i], sizeof p->names[i], "%s", mesh);
      break;
    }
  }
  return SENSIM_OK;
}

static sensim_status plan_dataset(const char *text, const sensim_dataset_options *o, dataset_plan *p) {
  memset(p, 0, sizeof *p);
  char *clean = NULL;
  sensim_status st = sensim_json_strict(text, "scenario", &clean);
  if (st) return st;
  cJSON *root = cJSON_Parse(clean);
  free(clean);
  if (!root) return sensim_error_set(SENSIM_ENOMEM, "dataset: out of memory reading the scenario");
  const cJSON *sensors = cJSON_GetObjectItemCaseSensitive(root, "sensors");
  const char *found = NULL;
  for (const cJSON *s = cJSON_IsArray(sensors) ? sensors->child : NULL; s; s = s->next) {
    const char *type = string_item(s, "type"), *name = string_item(s, "name");
    if (!type || strcmp(type, "camera") != 0 || !name) continue;
    if (!o->camera || strcmp(o->camera, name) == 0) {
      found = name;
      break;
    }
  }
  if (!found) {
    st = o->camera ? sensim_error_set(SENSIM_ENOTFOUND, "dataset: the scenario has no camera named '%s'", o->camera)
                   : sensim_error_set(SENSIM_EINVAL, "dataset: the scenario has no named camera sensor");
  } else if (strlen(found) >= sizeof p->camera) {
    st = sensim_error_set(SENSIM_EINVAL, "dataset: camera name '%.20s...' is too long", found);
  } else {
    snprintf(p->camera, sizeof p->camera, "%s", found);
    const cJSON *world = cJSON_GetObjectItemCaseSensitive(root, "world");
    const cJSON *seed = cJSON_IsObject(world) ? cJSON_GetObjectItemCaseSensitive(world, "seed") : NULL;
    p->seed = cJSON_IsNumber(seed) ? seed->valuedouble : 1;
    st = plan_classes(root, o, p);
  }
  cJSON_Delete(root);
  return st;
}

/* The variant's text with every camera but the chosen one removed. */
static sensim_status keep_camera(char **json, const char *camera) {
  cJSON *root = cJSON_Parse(*json);
  if (!root) return sensim_error_set(SENSIM_ENOMEM, "dataset: out of memory");
  cJSON *sensors = cJSON_GetObjectItemCaseSensitive(root, "sensors");
  cJSON *s = cJSON_IsArray(sensors) ? sensors->child : NULL;
  while (s) {
    cJSON *next = s->next;
    const char *name = string_item(s, "name");
    if (!name || strcmp(name, camera) != 0) cJSON_Delete(cJSON_DetachItemViaPointer(sensors, s));
    s = next;
  }
  char *text = sensim_tools__json_print(root, 0);
  cJSON_Delete(root);
  if (!text) return sensim_error_set(SENSIM_ENOMEM, "dataset: out of memory");
  free(*json);
  *json = text;
  return SENSIM_OK;
}

/* A path "a/b/c" in a malloc'd buffer (NULL: out of memory, reported). */
static char *join(const char *a, const char *b, const char *c) {
  size_t n = strlen(a) + strlen(b) + (c ? strlen(c) : 0) + 3;
  char *p = malloc(n);
  if (!p) {
    sensim_error_set(SENSIM_ENOMEM, "dataset: out of memory");
    return NULL;
  }
  snprintf(p, n, c ? "%s/%s/%s" : "%s/%s", a, b, c);
  return p;
}

/* Roll, pitch, yaw (deg) of a unit quaternion, R = Rz(yaw) Ry(pitch) Rx(roll)
 * (REP 103's fixed-axis rpy, docs/scenario.md). */
static void quat_rpy_deg(sensim_quat q, double rpy[3]) {
  const double deg = 180.0 / M_PI;
  double sp = 2 * (q.w * q.y - q.z * q.x);
  sp = sp > 1 ? 1 : sp < -1 ? -1 : sp;
  rpy[0] = atan2(2 * (q.w * q.x + q.y * q.z), 1 - 2 * (q.x * q.x + q.y * q.y)) * deg;
  rpy[1] = asin(sp) * deg;
  rpy[2] = atan2(2 * (q.w * q.z + q.x * q.y), 1 - 2 * (q.y * q.y + q.z * q.z)) * deg;
}

typedef struct variant_out {
  const dataset_plan *plan;
  const sensim_dataset_options *opt;
  char *images, *labels; /* folders */
  FILE *csv;
  size_t frames, boxes;
} variant_out;

static sensim_status write_frame(variant_out *vo, const sensim_frame *f) {
  const dataset_plan *p = vo->plan;
  if (!f->labels)
    return sensim_error_set(SENSIM_ETYPE, "camera '%s' delivers no label plane (a filter that resizes the image, "
                            "such as downsample, drops it)", p->camera);
  char name[64];
  snprintf(name, sizeof name, "frame_%06llu", (unsigned long long)f->index);
  size_t n = strlen(vo->images) + sizeof name + 8;
  char *path = malloc(n);
  if (!path) return sensim_error_set(SENSIM_ENOMEM, "dataset: out of memory");
  snprintf(path, n, "%s/%s.png", vo->images, name);
  sensim_status st = sensim_write_png(path, f);
  if (st) sensim_error_prefix("camera '%s'", p->camera);
  sensim_label_box *boxes = NULL;
  size_t nb = 0;
  if (!st)
    st = sensim_label_boxes(f->labels, f->width, f->height, p->classes, p->nclasses, vo->opt->min_pixels, &boxes, &nb);
  free(path);
  path = NULL;
  if (!st) {
    n = strlen(vo->labels) + sizeof name + 8;
    path = malloc(n);
    if (!path) st = sensim_error_set(SENSIM_ENOMEM, "dataset: out of memory");
  }
  if (!st) {
    snprintf(path, n, "%s/%s.txt", vo->labels, name);
    FILE *fp = fopen(path, "w");
    if (!fp) {
      st = sensim_error_set(SENSIM_EIO, "%s: %s", path, strerror(errno));
    } else {
      st = sensim_label_boxes_write_yolo(fp, boxes, nb, f->width, f->height);
      if (fclose(fp) && !st) st = sensim_error_set(SENSIM_EIO, "%s: write failed", path);
    }
  }
  if (!st) {
    double rpy[3];
    quat_rpy_deg(f->pose.rot, rpy);
    fprintf(vo->csv, "%s.png,%llu,%.9g,%.6f,%.6f,%.6f,%.4f,%.4f,%.4f,%.17g", name, (unsigned long long)f->index,
            f->t_capture, f->pose.pos.x, f->pose.pos.y, f->pose.pos.z, rpy[0], rpy[1], rpy[2], p->seed);
    for (size_t c = 0; c < p->nclasses; c++) {
      size_t k = 0;
      for (size_t i = 0; i < nb; i++) k += boxes[i].yolo_class == (int)c;
      fprintf(vo->csv, ",%zu", k);
    }
    if (fputc('\n', vo->csv) == EOF) st = sensim_error_set(SENSIM_EIO, "content.csv: write failed");
    vo->frames++;
    vo->boxes += nb;
  }
  free(boxes);
  free(path);
  return st;
}

static sensim_status run_world(sensim_scenario *scn, variant_out *vo) {
  sensim_sensor *cam = sensim_world_sensor_by_name(sensim_scenario_world(scn), vo->plan->camera);
  if (!cam) return sensim_error_set(SENSIM_ENOTFOUND, "dataset: camera '%s' not in the loaded scenario", vo->plan->camera);
  double duration = sensim_scenario_duration(scn), step = sensim_scenario_step(scn);
  size_t nsteps = (size_t)floor(duration / step + 1e-9);
  for (size_t k = 0; k <= nsteps; k++) {
    sensim_status st = sensim_scenario_step_to(scn, (double)k * step);
    if (st) return st;
    const sensim_frame *f = NULL;
    while (!(st = sensim_sensor_poll(cam, &f)) && f)
      if ((st = write_frame(vo, f))) return st;
    if (st) return st;
  }
  return SENSIM_OK;
}

static sensim_status run_variant(const char *text, const char *path, const char *base, const char *out_dir,
                                 sensim_ablation a, const dataset_plan *p, const sensim_dataset_options *o) {
  const char *vname = sensim_ablation_name(a);
  char notes[4096];
  char *json = NULL;
  sensim_status st = sensim_ablation_edit(text, a, o->frames, &json, notes, sizeof notes);
  if (!st) st = keep_camera(&json, p->camera);
  variant_out vo = {p, o, NULL, NULL, NULL, 0, 0};
  char *csv_path = NULL;
  if (!st && !((vo.images = join(out_dir, vname, "images")) && (vo.labels = join(out_dir, vname, "labels")) &&
               (csv_path = join(out_dir, vname, "content.csv"))))
    st = SENSIM_ENOMEM;
  if (!st && !(st = sensim_mkdirs(vo.images)) && !(st = sensim_mkdirs(vo.labels)) && !(vo.csv = fopen(csv_path, "w")))
    st = sensim_error_set(SENSIM_EIO, "%s: %s", csv_path, strerror(errno));
  if (!st) {
    fputs("image,frame,t_capture,x,y,z,roll_deg,pitch_deg,yaw_deg,seed", vo.csv);
    for (size_t c = 0; c < p->nclasses; c++) fprintf(vo.csv, ",n_%s", p->names[c]);
    fputc('\n', vo.csv);
  }
  sensim_scenario *scn = NULL;
  sensim_scenario_overrides ov = {o->threads};
  if (!st) st = sensim_scenario_load_string_ex(json, path, base, &ov, &scn);
  if (!st) st = run_world(scn, &vo);
  sensim_scenario_destroy(scn);
  if (vo.csv && fclose(vo.csv) && !st) st = sensim_error_set(SENSIM_EIO, "%s: write failed", csv_path);
  if (!st && vo.frames == 0)
    st = sensim_error_set(SENSIM_EINVAL, "camera '%s' delivered no frame (duration too short? use --frames)", p->camera);
  if (!st && o->log) {
    fprintf(o->log, "variant %s: %zu images, %zu boxes\n", vname, vo.frames, vo.boxes);
    for (char *line = notes; *line;) {
      char *nl = strchr(line, '\n');
      if (strncmp(line, p->camera, strlen(p->camera)) == 0 || strncmp(line, "lights", 6) == 0)
        fprintf(o->log, "  %.*s\n", (int)(nl ? nl - line : (ptrdiff_t)strlen(line)), line);
      line = nl ? nl + 1 : line + strlen(line);
    }
  }
  free(json);
  free(vo.images);
  free(vo.labels);
  free(csv_path);
  return st;
}

/* Remove what a failed variant wrote: the files of its two folders, the
 * folders, content.csv and the variant's folder (all only if present). */
static void remove_variant(const char *out_dir, const char *vname) {
  static const char *const subs[] = {"images", "labels"};
  for (int i = 0; i < 2; i++) {
    char *dir = join(out_dir, vname, subs[i]);
    DIR *d = dir ? opendir(dir) : NULL;
    const struct dirent *e;
    while (d && (e = readdir(d))) {
      char *f = join(dir, e->d_name, NULL);
      if (f && e->d_name[0] != '.') remove(f);
      free(f);
    }
    if (d) closedir(d);
    if (dir) rmdir(dir);
    free(dir);
  }
  char *csv = join(out_dir, vname, "content.csv"), *dir = join(out_dir, vname, NULL);
  if (csv) remove(csv);
  if (dir) rmdir(dir);
  free(csv);
  free(dir);
}

/* 0 when dir is missing or an empty folder. */
static sensim_status check_out_dir(const char *dir) {
  struct stat sb;
  if (stat(dir, &sb) != 0) return SENSIM_OK;
  if (!S_ISDIR(sb.st_mode)) return sensim_error_set(SENSIM_ESTATE, "dataset: %s exists and is not a folder", dir);
  DIR *d = opendir(dir);
  if (!d) return sensim_error_set(SENSIM_EIO, "dataset: %s: %s", dir, strerror(errno));
  const struct dirent *e;
  int empty = 1;
  while (empty && (e = readdir(d))) empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
  closedir(d);
  return empty ? SENSIM_OK
               : sensim_error_set(SENSIM_ESTATE, "dataset: %s is not empty; give a new folder (nothing is overwritten)",
                                  dir);
}

static sensim_status write_classes(const char *out_dir, const dataset_plan *p) {
  char *path = join(out_dir, "classes.txt", NULL);
  if (!path) return SENSIM_ENOMEM;
  FILE *fp = fopen(path, "w");
  sensim_status st = SENSIM_OK;
  if (!fp) {
    st = sensim_error_set(SENSIM_EIO, "%s: %s", path, strerror(errno));
  } else {
    for (size_t i = 0; i < p->nclasses; i++) fprintf(fp, "%s\n", p->names[i]);
    if (fclose(fp)) st = sensim_error_set(SENSIM_EIO, "%s: write failed", path);
  }
  free(path);
  return st;
}

sensim_status sensim_dataset_run(const char *scenario_path, const char *out_dir, const sensim_dataset_options *opt) {
  if (!scenario_path || !out_dir || !*out_dir)
    return sensim_error_set(SENSIM_EINVAL, "sensim_dataset_run: NULL argument");
  sensim_dataset_options o;
  sensim_dataset_options_init(&o);
  if (opt) o = *opt;
  if (o.variants && o.nvariants == 0) return sensim_error_set(SENSIM_EINVAL, "dataset: an empty list of variants");
  for (size_t i = 0; o.variants && i < o.nvariants; i++)
    if (!sensim_ablation_name(o.variants[i]))
      return sensim_error_set(SENSIM_EINVAL, "dataset: variant %zu is %d, not a variant", i, (int)o.variants[i]);
  char *text = NULL;
  sensim_status st = sensim_read_text_file(scenario_path, "scenario", &text);
  if (st) return st;
  dataset_plan *plan = malloc(sizeof *plan);
  char *base = sensim_tools__dirname(scenario_path);
  if (!plan || !base) st = sensim_error_set(SENSIM_ENOMEM, "dataset: out of memory");
  if (!st) st = plan_dataset(text, &o, plan);
  if (!st) st = check_out_dir(out_dir);
  if (!st) st = sensim_mkdirs(out_dir);
  if (!st) st = write_classes(out_dir, plan);
  size_t nv = o.variants ? o.nvariants : SENSIM_ABLATE_COUNT;
  for (size_t i = 0; st == SENSIM_OK && i < nv; i++) {
    sensim_ablation a = o.variants ? o.variants[i] : (sensim_ablation)i;
    st = run_variant(text, scenario_path, base, out_dir, a, plan, &o);
    if (st) {
      sensim_error_prefix("dataset variant %s", sensim_ablation_name(a));
      remove_variant(out_dir, sensim_ablation_name(a));
    }
  }
  free(plan);
  free(base);
  free(text);
  return st;
}
