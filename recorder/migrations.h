// The schema migrations embedded at build time (schemas/README.md).
// Internal to the recorder.

#ifndef CASSINO_RECORDER_MIGRATIONS_H_
#define CASSINO_RECORDER_MIGRATIONS_H_

#include <vector>

namespace cassino::recorder {

struct Migration {
  int version;       // NNN of NNN_name.sql; 1, 2, ... without gaps
  const char* name;  // the file name
  const char* sql;   // its whole text
};

// Every migration in version order.
const std::vector<Migration>& Migrations();

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_MIGRATIONS_H_
