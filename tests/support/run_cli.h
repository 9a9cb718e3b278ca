/* tests/support/run_cli.h: run the built `sensim` program as a child
 * process, for the tests of its commands. */
#ifndef SENSIM_TESTS_SUPPORT_RUN_CLI_H
#define SENSIM_TESTS_SUPPORT_RUN_CLI_H

/* Run SENSIM_CLI_PATH with args (NULL-terminated, without argv[0], at most
 * 38 of them); its stdout and stderr go to the file log_path (truncated).
 * Returns the exit status, or -1 if the program did not exit normally. */
int test_run_cli(const char *log_path, const char *const *args);
/* The same with stdout to out_path and stderr to err_path, for checks of
 * which stream a message goes to. */
int test_run_cli_split(const char *out_path, const char *err_path, const char *const *args);
/* test_run_cli_split, then both files read into *out and *err (malloc'd,
 * the caller frees them). */
int test_run_cli_read(const char *out_path, const char *err_path, const char *const *args,
                      char **out, char **err);

#endif
