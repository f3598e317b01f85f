// Text that people set (bot names, owners, contacts, labels, reasons) and
// text that tools print: what may be stored, and how it is shown.
//
// Contract: CheckDisplayText accepts valid UTF-8 of at most `max_chars`
// characters (code points, not bytes) with no control character: C0
// (U+0000-U+001F), DEL, C1 (U+0080-U+009F), the bidirectional controls
// (U+061C, U+200E, U+200F, U+202A-U+202E, U+2066-U+2069) and the line and
// paragraph separators (U+2028, U+2029). Its InvalidArgument message names
// `field` and never quotes the text. EscapeDisplay returns text safe to
// print on a terminal: each such character, each byte of invalid UTF-8 and
// the backslash are written \xNN (bytes) or \u{XXXX} (characters); all else
// is kept. Records written before these checks may hold anything, so every
// tool escapes what it prints.

#ifndef CASSINO_RECORDER_DISPLAY_TEXT_H_
#define CASSINO_RECORDER_DISPLAY_TEXT_H_

#include <cstddef>
#include <string>

#include "absl/status/status.h"
#include "absl/strings/string_view.h"

namespace cassino::recorder {

absl::Status CheckDisplayText(absl::string_view text, absl::string_view field,
                              size_t max_chars);
std::string EscapeDisplay(absl::string_view text);

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_DISPLAY_TEXT_H_
