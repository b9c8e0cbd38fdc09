/* text.h - text checks and user values shown in messages: UTF-8
 * validation (every TSV format is UTF-8) and one escaping rule for any
 * value a message quotes, so control characters never reach a terminal
 * raw and a huge value never floods it. */
#ifndef SR_TEXT_H
#define SR_TEXT_H

#include <stddef.h>

/* Bytes of a value shown before it is cut with "…". */
#define SR_SHOW_MAX 60
/* Size of the buffer sr_show writes: every byte escaped (\xNN), "…". */
#define SR_SHOWLEN (4 * SR_SHOW_MAX + 8)

/* Length (1 to 4) of the valid UTF-8 character at s (n bytes left), or 0
 * when s does not start one: a stray continuation byte, an overlong form,
 * a surrogate, a code point above U+10FFFF, or a truncated sequence. */
size_t sr_utf8_char_len(const char *s, size_t n);

/* Offset of the first byte of the n bytes at s that does not start a
 * valid UTF-8 character, or n when all are valid. */
size_t sr_utf8_invalid(const char *s, size_t n);

/* Copies s into buf (size bytes, NUL-terminated, cut short to fit) with
 * control characters and bytes of invalid UTF-8 escaped: \t, \n, \r,
 * else \xNN (DEL too). Valid UTF-8 is kept. Returns buf. */
char *sr_escape(char *buf, size_t size, const char *s);

/* As sr_escape into buf (SR_SHOWLEN bytes), keeping at most SR_SHOW_MAX
 * bytes of s (whole characters) and marking a cut with "…": how a
 * message quotes a user value. Returns buf. */
const char *sr_show(char *buf, const char *s);

/* sr_show into a buffer that lives as long as the enclosing block: a
 * message's argument, as in sr_die(..., "'%s' ...", SR_SHOW(value)). */
#define SR_SHOW(s) sr_show((char[SR_SHOWLEN]){ 0 }, (s))

#endif
