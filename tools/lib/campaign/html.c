/* html.c - HTML text and base64; see html.h. */
#include "campaign/html.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "core/err.h"

#include "core/text.h"

void
sr_html_textn(FILE *fp, const char *s, size_t n)
{
	size_t i = 0, len;
	unsigned char c;

	while (i < n) {
		c = (unsigned char)s[i];
		switch (c) {
		case '&': fputs("&amp;", fp); i++; continue;
		case '<': fputs("&lt;", fp); i++; continue;
		case '>': fputs("&gt;", fp); i++; continue;
		case '"': fputs("&quot;", fp); i++; continue;
		case '\'': fputs("&#39;", fp); i++; continue;
		}
		if ((c < 0x20 && c != '\t' && c != '\n' && c != '\r') ||
		    c == 0x7f || (len = sr_utf8_char_len(s + i, n - i)) == 0) {
			fputs("\xef\xbf\xbd", fp);	/* U+FFFD */
			i++;
			continue;
		}
		fwrite(s + i, 1, len, fp);
		i += len;
	}
}

void
sr_html_text(FILE *fp, const char *s)
{
	sr_html_textn(fp, s, strlen(s));
}

void
sr_html_printf(FILE *fp, const char *fmt, ...)
{
	va_list ap;
	char small[512], *buf = small;
	int len;

	va_start(ap, fmt);
	len = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	if ((size_t)len >= sizeof small) {
		buf = sr_malloc((size_t)len + 1);
		va_start(ap, fmt);
		vsnprintf(buf, (size_t)len + 1, fmt, ap);
		va_end(ap);
	}
	sr_html_textn(fp, buf, (size_t)len);
	if (buf != small)
		free(buf);
}

/* Hand-written: none of the libraries sareuse links (libc, libpng,
 * libtiff, GSL, OpenCV's public API) exposes a base64 encoder, and the
 * encoder is a dozen lines. */
static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t
sr_base64_len(size_t n)
{
	return (n + 2) / 3 * 4;
}

size_t
sr_base64_encode(char *dst, const unsigned char *src, size_t n)
{
	size_t i, o = 0;
	unsigned long w;

	for (i = 0; i + 2 < n; i += 3) {
		w = (unsigned long)src[i] << 16 | (unsigned long)src[i + 1] << 8 |
		    src[i + 2];
		dst[o++] = b64[w >> 18 & 63];
		dst[o++] = b64[w >> 12 & 63];
		dst[o++] = b64[w >> 6 & 63];
		dst[o++] = b64[w & 63];
	}
	if (i < n) {	/* 1 or 2 bytes left: padded */
		w = (unsigned long)src[i] << 16;
		if (i + 1 < n)
			w |= (unsigned long)src[i + 1] << 8;
		dst[o++] = b64[w >> 18 & 63];
		dst[o++] = b64[w >> 12 & 63];
		dst[o++] = i + 1 < n ? b64[w >> 6 & 63] : '=';
		dst[o++] = '=';
	}
	dst[o] = '\0';
	return o;
}

void
sr_base64_write(FILE *fp, const unsigned char *src, size_t n)
{
	enum { CHUNK = 3 * 1024 };	/* whole groups of 3 bytes */
	char buf[CHUNK / 3 * 4 + 1];
	size_t i, len;

	for (i = 0; i < n; i += CHUNK) {
		len = n - i < CHUNK ? n - i : CHUNK;
		fwrite(buf, 1, sr_base64_encode(buf, src + i, len), fp);
	}
}
