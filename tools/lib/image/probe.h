/* probe.h - an image's size from its header, without decoding it. */
#ifndef SR_PROBE_H
#define SR_PROBE_H

#include <stddef.h>

/* Width and height of the PNG or TIFF (the first image of a TIFF) at
 * path, read from its header. Returns 0, or -1 with "PATH: why" in
 * errbuf (SR_ERRLEN bytes) when the file cannot be opened, is neither a
 * PNG nor a TIFF, or its header is bad. Not thread-safe (TIFF's
 * handlers). */
int sr_image_probe(const char *path, size_t *w, size_t *h, char *errbuf);

#endif
