// Files of a SQLite VFS layered over another: the shared part of the
// batched-WAL VFS (batched_wal_vfs.h) and the tests' faulty VFS.
//
// A layered file is a LayeredFile (SQLite's sqlite3_file, then the lower
// VFS's file it wraps) at the start of the memory SQLite gives the upper
// VFS's xOpen. ForwardingMethods() passes every call to the lower file; a
// layer copies it and replaces the calls it changes.

#ifndef CASSINO_RECORDER_LAYERED_VFS_H_
#define CASSINO_RECORDER_LAYERED_VFS_H_

#include <sqlite3.h>

namespace cassino::recorder {

struct LayeredFile {
  sqlite3_file file;    // first: SQLite's pointer to it is a LayeredFile*
  sqlite3_file* lower;  // the lower VFS's open file
};

// The lower file of `f`, a LayeredFile.
inline sqlite3_file* Lower(sqlite3_file* f) {
  return reinterpret_cast<LayeredFile*>(f)->lower;
}

// Opens `name` with `lower_vfs` into `lower_file` (memory SQLite gave the
// upper VFS for `file`, after the layered file). On failure `file` has no
// methods (SQLite closes only a file with methods) and no lower file is
// left open. On success the caller makes `file` a layered file over
// `lower_file` and sets its methods.
int OpenLowerFile(sqlite3_vfs* lower_vfs, sqlite3_filename name,
                  sqlite3_file* file, sqlite3_file* lower_file, int flags,
                  int* out_flags);

// Version 3 methods, each calling the lower file's (a call of a version the
// lower file lacks fails, or does nothing where SQLite allows).
const sqlite3_io_methods& ForwardingMethods();

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_LAYERED_VFS_H_
