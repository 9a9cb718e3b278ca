/* tests/support/run_cli.c: see run_cli.h. */
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>
#include "support/run_cli.h"
#include "support/testutil.h"

int test_run_cli(const char *log_path, const char *const *args) {
  const char *argv[40];
  size_t n = 0;
  argv[n++] = SENSIM_CLI_PATH;
  for (; args[n - 1] && n < 39; n++) argv[n] = args[n - 1];
  argv[n] = NULL;
  fflush(NULL);
  pid_t pid = fork();
  if (pid == 0) {
    int fd = open(log_path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
    if (fd >= 0) {
      dup2(fd, 1);
      dup2(fd, 2);
      close(fd);
    }
    execv(SENSIM_CLI_PATH, (char *const *)argv);
    _exit(127);
  }
  assert_true(pid > 0);
  int status = 0;
  assert_int_equal(waitpid(pid, &status, 0), pid);
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}
