/* text.c - UTF-8 checks and escaped, shortened values for messages; see
 * text.h. */
#include "core/text.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

size_t
sr_utf8_char_len(const char *s, size_t n)
{
	const unsigned char *u = (const unsigned char *)s;
	size_t len, i;
	unsigned long cp;

	if (n == 0)
		return 0;
	if (u[0] < 0x80)
		return 1;
	if (u[0] >= 0xc2 && u[0] <= 0xdf)
		len = 2, cp = u[0] & 0x1f;
	else if (u[0] >= 0xe0 && u[0] <= 0xef)
		len = 3, cp = u[0] & 0x0f;
	else if (u[0] >= 0xf0 && u[0] <= 0xf4)
		len = 4, cp = u[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((u[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (u[i] & 0x3f);
	}
	if ((len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) ||
	    cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return len;
}

size_t
sr_utf8_invalid(const char *s, size_t n)
{
	size_t i = 0, len;
	uint64_t w;

	while (i < n) {
		/* ASCII, the common case, eight bytes at a time */
		for (; i + 8 <= n; i += 8) {
			memcpy(&w, s + i, 8);
			if (w & 0x8080808080808080u)
				break;
		}
		if (i >= n)
			break;
		if ((unsigned char)s[i] < 0x80) {
			i++;
			continue;
		}
		if ((len = sr_utf8_char_len(s + i, n - i)) == 0)
			return i;
		i += len;
	}
	return n;
}

/* Writes the escape of control or invalid byte c to out (5 bytes). */
static size_t
escape_byte(char *out, unsigned char c)
{
	if (c == '\t' || c == '\n' || c == '\r') {
		out[0] = '\\';
		out[1] = c == '\t' ? 't' : c == '\n' ? 'n' : 'r';
		return 2;
	}
	snprintf(out, 5, "\\x%02x", c);
	return 4;
}

/* Escapes at most max bytes of s into buf (size bytes); returns the bytes
 * of s taken. */
static size_t
escape_into(char *buf, size_t size, const char *s, size_t max)
{
	size_t i = 0, o = 0, len, n = strlen(s);
	char esc[5];

	if (max > n)
		max = n;
	while (i < max) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x80)
			len = c < 0x20 || c == 0x7f ? 0 : 1;
		else
			len = sr_utf8_char_len(s + i, n - i);
		if (len > 0 && i + len > max)
			break;
		if (len == 0) {
			size_t e = escape_byte(esc, c);

			if (o + e >= size)
				break;
			memcpy(buf + o, esc, e);
			o += e;
			i++;
			continue;
		}
		if (o + len >= size)
			break;
		memcpy(buf + o, s + i, len);
		o += len;
		i += len;
	}
	buf[o] = '\0';
	return i;
}

char *
sr_escape(char *buf, size_t size, const char *s)
{
	if (size == 0)
		return buf;
	escape_into(buf, size, s, (size_t)-1);
	return buf;
}

const char *
sr_show(char *buf, const char *s)
{
	static const char cut[] = "\xe2\x80\xa6";	/* … */
	size_t taken = escape_into(buf, SR_SHOWLEN - sizeof cut, s,
	    SR_SHOW_MAX);

	if (s[taken] != '\0')
		strcat(buf, cut);
	return buf;
}
