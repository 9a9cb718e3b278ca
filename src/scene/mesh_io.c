/* scene/mesh_io.c: the only file access Assimp gets while sensim imports a
 * mesh (aiImportFileEx with these callbacks instead of its own stdio).
 *
 * A mesh file names other files Assimp then opens by itself: an OBJ's
 * material library, a glTF's buffers and images. Named as a folder, the
 * open succeeds and the first read fails, and the OBJ reader throws and
 * leaks (fuzz_mesh found "mtllib c6/\xc3 /": missing, so the reader fell
 * back to opening the mesh's own folder, "./"). A FIFO,
 * terminal or device holds no mesh data either, and only Assimp's habit of
 * taking their size as 0 keeps it from reading them. So Assimp may open
 * regular files for reading and nothing else; a file it cannot open it
 * treats as missing, which its readers report or skip. */
#include <assimp/cfileio.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "scene/mesh_check.h"

static FILE *stream(struct aiFile *f) { return (FILE *)(void *)f->UserData; }

static size_t io_read(struct aiFile *f, char *buf, size_t size, size_t count) {
  return fread(buf, size, count, stream(f));
}

static size_t io_write(struct aiFile *f, const char *buf, size_t size, size_t count) {
  (void)f, (void)buf, (void)size, (void)count;
  return 0; /* opened for reading only */
}

static size_t io_tell(struct aiFile *f) {
  off_t at = ftello(stream(f));
  return at < 0 ? 0 : (size_t)at;
}

static size_t io_size(struct aiFile *f) {
  struct stat sb;
  return fstat(fileno(stream(f)), &sb) == 0 ? (size_t)sb.st_size : 0;
}

/* Assimp passes offsets as size_t, a backward one wrapped round, as its
 * own stdio stream does when it casts them back. */
static enum aiReturn io_seek(struct aiFile *f, size_t offset, enum aiOrigin origin) {
  int whence = origin == aiOrigin_SET ? SEEK_SET : origin == aiOrigin_CUR ? SEEK_CUR : SEEK_END;
  return fseeko(stream(f), (off_t)offset, whence) == 0 ? aiReturn_SUCCESS : aiReturn_FAILURE;
}

static void io_flush(struct aiFile *f) { (void)f; }

static struct aiFile *io_open(struct aiFileIO *io, const char *path, const char *mode) {
  (void)io;
  if (!path || !mode || mode[0] != 'r' || strchr(mode, '+') || strchr(mode, 'w') || strchr(mode, 'a'))
    return NULL;
  /* O_NONBLOCK so a FIFO's open cannot wait for a writer; fstat on what
   * was opened, so nothing can be swapped in between the test and the
   * read. It does not matter for a regular file's reads. */
  int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return NULL;
  struct stat sb;
  FILE *fp = NULL;
  if (fstat(fd, &sb) != 0 || !S_ISREG(sb.st_mode) || !(fp = fdopen(fd, "rb"))) {
    close(fd);
    return NULL;
  }
  struct aiFile *f = calloc(1, sizeof *f);
  if (!f) {
    fclose(fp);
    return NULL;
  }
  f->ReadProc = io_read;
  f->WriteProc = io_write;
  f->TellProc = io_tell;
  f->FileSizeProc = io_size;
  f->SeekProc = io_seek;
  f->FlushProc = io_flush;
  f->UserData = (aiUserData)(void *)fp;
  return f;
}

static void io_close(struct aiFileIO *io, struct aiFile *f) {
  (void)io;
  if (!f) return;
  fclose(stream(f));
  free(f);
}

struct aiFileIO *sensim__mesh_file_io(void) {
  /* No state: one table serves every import on every thread. */
  static struct aiFileIO io = {io_open, io_close, NULL};
  return &io;
}
