/* html.h - text made safe for an HTML page, and base64 for the data:
 * URIs of images inlined into one (sa-report's self-contained page). */
#ifndef SR_HTML_H
#define SR_HTML_H

#include <stddef.h>
#include <stdio.h>

/* Writes the n bytes at s as HTML text, safe in an element's content and
 * in a quoted attribute value: & < > " ' as character references; a
 * byte that does not start a valid UTF-8 character, and a control
 * character other than tab, newline and carriage return, as U+FFFD (the
 * replacement character), so that the page stays valid UTF-8. */
void sr_html_textn(FILE *fp, const char *s, size_t n);
/* The same for the NUL-terminated s. */
void sr_html_text(FILE *fp, const char *s);
/* Formats as printf does and writes the result as HTML text (as
 * sr_html_text: markup cannot come through it). */
void sr_html_printf(FILE *fp, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The length of the base64 (RFC 4648, with padding, no line breaks) of n
 * bytes: 4 * ceil(n / 3). */
size_t sr_base64_len(size_t n);
/* Writes the base64 of the n bytes at src into dst, sr_base64_len(n)
 * bytes and a NUL; returns the length. */
size_t sr_base64_encode(char *dst, const unsigned char *src, size_t n);
/* Writes the base64 of the n bytes at src to fp, without a NUL. */
void sr_base64_write(FILE *fp, const unsigned char *src, size_t n);

#endif
