/* core/jpeg_error.h: libjpeg's error manager made to return instead of
 * exit, shared by the JPEG decoder (core/jpeg_decode.c) and the "jpeg"
 * filter (filters/jpeg.c). Not installed.
 *
 *   sensim_jpeg_error e;
 *   cinfo.err = sensim__jpeg_error_init(&e);
 *   if (setjmp(e.jump)) { ... e.msg says what failed ... }
 *
 * libjpeg's warnings (recoverable data faults) are dropped. */
#ifndef SENSIM_CORE_JPEG_ERROR_H
#define SENSIM_CORE_JPEG_ERROR_H

#include <setjmp.h>
#include <stdio.h>
#include <jpeglib.h> /* after stdio.h, which it needs */

typedef struct sensim_jpeg_error {
  struct jpeg_error_mgr mgr;
  jmp_buf jump;
  char msg[JMSG_LENGTH_MAX];
} sensim_jpeg_error;

/* Fill e's manager (standard, with exit and warnings replaced), clear its
 * message and return it for cinfo.err. */
struct jpeg_error_mgr *sensim__jpeg_error_init(sensim_jpeg_error *e);

#endif
