/* tools/sweep_judge.c: judge sweeps (sensim_tools/sweep.h, docs/judge.md):
 * each run is one training of the perception judge's study, run as
 * `python3 -m sensim.judge job` (the Python package sensim.judge, which
 * uses torch). The run's document is the sweep's "judge" object after
 * the axes' overrides: its "variant" and "seed" say which detector, the
 * other members are the study's settings, passed on as options. The
 * training writes into the study's folder (models/<variant>_s<seed>/,
 * checkpointed every epoch), not the run's, so a run killed midway
 * continues from its last epoch when the sweep is run again; the run's
 * folder gets the process's output (log.txt) and its record
 * (result.json: epochs, val_map). */
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include "tools/sweep_internal.h"
#include "tools/tools_internal.h"

extern char **environ;

/* The judge object's members, as `sensim judge job` options. */
static const char *const kJudgeKeys[] = {"dataset", "out", "variant", "seed", "real", "variants", "epochs",
                                         "seeds", "batch", "lr", "content_batch", "size", "boot", "threads", NULL};

const char *const *sensim_tools__sweep_judge_keys(void) { return kJudgeKeys; }

sensim_status sensim_tools__sweep_judge_seed(const cJSON *doc, uint64_t *seed) {
  const cJSON *sd = cJSON_GetObjectItemCaseSensitive(doc, "seed");
  double v = cJSON_IsNumber(sd) ? sd->valuedouble : -1;
  if (!(v >= 0 && v <= 1e9 && floor(v) == v))
    return sensim_error_set(SENSIM_EINVAL, "judge.seed must be an integer in 0..1e9 (set it by an axis)");
  *seed = (uint64_t)v;
  return SENSIM_OK;
}

/* A path member resolved against the sweep file's folder when relative. */
static char *path_of(const sensim_sweep *s, const char *p) {
  if (p[0] == '/' || !s->base_dir) return sensim_tools__strdup(p);
  size_t n = strlen(s->base_dir) + strlen(p) + 2;
  char *out = malloc(n);
  if (out) snprintf(out, n, "%s/%s", s->base_dir, p);
  return out;
}

/* argv of `python -m sensim.judge job ...` from the run's document. */
static sensim_status build_args(const sensim_sweep *s, const cJSON *doc, const char *record, char ***argv_out) {
  size_t n = 0;
  for (const cJSON *c = doc->child; c; c = c->next) n++;
  char **argv = calloc(2 * n + 10, sizeof *argv);
  if (!argv) return sensim_error_set(SENSIM_ENOMEM, "out of memory");
  const char *py = getenv("SENSIM_PYTHON");
  size_t k = 0;
  argv[k++] = sensim_tools__strdup(py && *py ? py : "python3");
  argv[k++] = sensim_tools__strdup("-m");
  argv[k++] = sensim_tools__strdup("sensim.judge");
  argv[k++] = sensim_tools__strdup("job");
  const cJSON *ds = cJSON_GetObjectItemCaseSensitive(doc, "dataset");
  sensim_status st = SENSIM_OK;
  if (!cJSON_IsString(ds)) st = sensim_error_set(SENSIM_EINVAL, "judge.dataset must be a folder name");
  if (!st) argv[k++] = path_of(s, ds->valuestring);
  for (const cJSON *c = doc->child; !st && c; c = c->next) {
    if (strcmp(c->string, "dataset") == 0) continue;
    size_t j = 0;
    while (kJudgeKeys[j] && strcmp(kJudgeKeys[j], c->string) != 0) j++;
    if (!kJudgeKeys[j]) {
      const char *near = sensim_suggest(c->string, kJudgeKeys);
      st = sensim_error_set(SENSIM_EPARSE, "judge: unknown key '%s'%s%s%s", c->string, near ? "; did you mean '" : "",
                            near ? near : "", near ? "'?" : "");
      break;
    }
    char opt[64], val[64];
    snprintf(opt, sizeof opt, "--%s", c->string);
    for (char *p = opt; *p; p++)
      if (*p == '_') *p = '-';
    if (cJSON_IsString(c)) {
      int is_path = strcmp(c->string, "out") == 0 || strcmp(c->string, "real") == 0;
      argv[k++] = sensim_tools__strdup(opt);
      argv[k++] = is_path ? path_of(s, c->valuestring) : sensim_tools__strdup(c->valuestring);
    } else if (cJSON_IsNumber(c)) {
      argv[k++] = sensim_tools__strdup(opt);
      argv[k++] = sensim_tools__strdup(sensim_shortest_double(val, sizeof val, c->valuedouble));
    } else {
      st = sensim_error_set(SENSIM_EINVAL, "judge.%s must be a string or a number", c->string);
    }
  }
  if (!st) {
    argv[k++] = sensim_tools__strdup("--record");
    argv[k++] = sensim_tools__strdup(record);
  }
  for (size_t j = 0; !st && j < k; j++)
    if (!argv[j]) st = sensim_error_set(SENSIM_ENOMEM, "out of memory");
  if (st) {
    for (size_t j = 0; j < k; j++) free(argv[j]);
    free(argv);
    return st;
  }
  *argv_out = argv;
  return SENSIM_OK;
}

static char *join(const char *dir, const char *name) {
  size_t n = strlen(dir) + strlen(name) + 2;
  char *p = malloc(n);
  if (p) snprintf(p, n, "%s/%s", dir, name);
  return p;
}

/* Merge result.json's members into results. */
static sensim_status read_record(const char *path, cJSON *results) {
  char *text = NULL;
  sensim_status st = sensim_read_text_file(path, "judge job record", &text);
  if (st) return st;
  cJSON *r = cJSON_Parse(text);
  free(text);
  if (!cJSON_IsObject(r)) {
    cJSON_Delete(r);
    return sensim_error_set(SENSIM_EPARSE, "%s: not a JSON object", path);
  }
  for (cJSON *c = r->child; c; c = c->next) {
    cJSON *dup = cJSON_Duplicate(c, 1);
    if (!dup || !cJSON_AddItemToObject(results, c->string, dup)) {
      cJSON_Delete(dup);
      st = sensim_error_set(SENSIM_ENOMEM, "out of memory");
      break;
    }
  }
  cJSON_Delete(r);
  return st;
}

/* The last non-empty line of a text file (the job's error message), or "". */
static void last_line(const char *path, char *out, size_t size) {
  out[0] = '\0';
  FILE *fp = fopen(path, "r");
  if (!fp) return;
  char line[512];
  while (fgets(line, sizeof line, fp)) {
    size_t n = strcspn(line, "\r\n");
    line[n] = '\0';
    if (n) snprintf(out, size, "%s", line);
  }
  fclose(fp);
}

sensim_status sensim_tools__sweep_judge_run(const sensim_sweep *s, const cJSON *doc, const char *dir,
                                           cJSON *results) {
  char *record = join(dir, "result.json"), *log = join(dir, "log.txt");
  char **argv = NULL;
  sensim_status st = record && log ? build_args(s, doc, record, &argv) : sensim_error_set(SENSIM_ENOMEM, "out of memory");
  posix_spawn_file_actions_t fa;
  int have_fa = 0;
  pid_t pid = 0;
  if (!st) {
    have_fa = posix_spawn_file_actions_init(&fa) == 0;
    int rc = !have_fa ? ENOMEM : posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (!rc) rc = posix_spawn_file_actions_adddup2(&fa, 1, 2);
    if (!rc) rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    if (rc) st = sensim_error_set(SENSIM_EBACKEND, "judge: cannot start %s: %s (set SENSIM_PYTHON)", argv[0], strerror(rc));
  }
  if (!st) {
    int status = 0;
    if (waitpid(pid, &status, 0) < 0)
      st = sensim_error_set(SENSIM_EBACKEND, "judge: waiting for %s: %s", argv[0], strerror(errno));
    else if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
      char last[512];
      last_line(log, last, sizeof last);
      st = sensim_error_set(SENSIM_EBACKEND, "judge job failed (%s %d): %s (%s)",
                            WIFEXITED(status) ? "exit status" : "signal",
                            WIFEXITED(status) ? WEXITSTATUS(status) : WTERMSIG(status), last, log);
    }
  }
  if (!st) st = read_record(record, results);
  if (have_fa) posix_spawn_file_actions_destroy(&fa);
  for (size_t j = 0; argv && argv[j]; j++) free(argv[j]);
  free(argv);
  free(record);
  free(log);
  return st;
}
