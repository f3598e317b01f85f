// A SQLite VFS that writes each transaction's WAL frames with one system
// call.
//
// SQLite appends a transaction to the write-ahead log with two writes per
// page: the frame's 24-byte header, then the page. A referee's commit of a
// dozen moves touches about twenty pages, so forty system calls; where a
// system call costs about 2 µs (a virtual machine; docs/performance.md,
// "WAL frames written with one system call") that is most of a commit's
// CPU. Through this VFS, a WAL file holds the writes that extend the log in
// memory and writes them as one when the transaction's commit frame is
// complete, before SQLite publishes the commit in the wal-index.
//
// Contract. Every file but the WAL is the base VFS's own, untouched. For a
// WAL file:
//   - Writes that append to the held run, or fall inside it, are held;
//     the held run is written with one write of the base file (one per
//     124 KiB: SQLite's unix VFS takes less than 128 KiB a write)
//     - when the page of a commit frame (a frame header whose "database
//       size after commit" field is non-zero) has been appended: the write
//       that completes the commit returns the result of that write, so a
//       failed write fails the commit (SQLite then publishes nothing);
//     - before any other write, and before every read, sync, truncation,
//       size query, file control, memory fetch and close of the file;
//     - when it reaches kMaxHeldBytes.
//   - So when SQLite's commit returns, every frame is in the file (the
//     operating system's cache, then the disk at the sync of
//     synchronous=FULL): what a commit promises through the base VFS, it
//     promises through this one, and another connection or process never
//     sees a commit whose frames are not in the file.
// The WAL file format fixes the frame header (24 bytes, the commit field at
// bytes 4..7). That SQLite writes a frame's header and page with two writes,
// header first, is its implementation; batched_wal_vfs_test pins it against
// the linked SQLite (a commit is one write, and the file holds every
// committed frame when the commit returns).
//
// A connection is used by one thread at a time, so a WAL file's held run is
// never shared: no locking.

#ifndef CASSINO_RECORDER_BATCHED_WAL_VFS_H_
#define CASSINO_RECORDER_BATCHED_WAL_VFS_H_

#include <sqlite3.h>

#include <cstddef>

#include "absl/status/status.h"

namespace cassino::recorder {

// The name OpenDatabase (sqlite.h) opens every database with.
inline constexpr char kBatchedWalVfs[] = "cassino-batched-wal";

// The most a WAL file holds before writing it out (a larger transaction is
// written in runs of about this size).
inline constexpr size_t kMaxHeldBytes = size_t{4} << 20;

// The most one write of the base file takes: SQLite's unix VFS writes less
// than 128 KiB a call (it masks the length with 0x1ffff), as SQLite itself
// never asks for more. A held run goes out in writes of this size.
inline constexpr size_t kMaxWriteBytes = size_t{124} << 10;

// Registers kBatchedWalVfs over SQLite's default VFS, once per process
// (SQLite's list of VFSes is process-wide); later calls return the first
// call's result. Thread-safe.
absl::Status RegisterBatchedWalVfs();

// Registers a batched VFS named `name` (a string that outlives the process)
// over `base` (e.g. a test's VFS), not as the default. For tests; each name
// once.
absl::Status RegisterBatchedWalVfs(const char* name, sqlite3_vfs* base);

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_BATCHED_WAL_VFS_H_
