/* tests/support/run_cli.c: see run_cli.h. */
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "support/run_cli.h"
#include "support/testutil.h"

/* Open path (truncated) onto fd. */
static void redirect(const char *path, int fd) {
  int f = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
  if (f >= 0) {
    dup2(f, fd);
    close(f);
  }
}

int test_run_cli_split(const char *out_path, const char *err_path, const char *const *args) {
  const char *argv[40];
  size_t n = 0;
  argv[n++] = SENSIM_CLI_PATH;
  for (; args[n - 1] && n < 39; n++) argv[n] = args[n - 1];
  argv[n] = NULL;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    if (strcmp(out_path, err_path) == 0) {
      redirect(out_path, 1);
      dup2(1, 2);
    } else {
      redirect(out_path, 1);
      redirect(err_path, 2);
    }
    execv(SENSIM_CLI_PATH, (char *const *)argv);
    _exit(127);
  }
  assert_true(pid > 0);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int test_run_cli(const char *log_path, const char *const *args) {
  return test_run_cli_split(log_path, log_path, args);
}

int test_run_cli_read(const char *out_path, const char *err_path, const char *const *args,
                      char **out, char **err) {
  int rc = test_run_cli_split(out_path, err_path, args);
  *out = test_slurp(out_path, NULL);
  *err = test_slurp(err_path, NULL);
  return rc;
}
