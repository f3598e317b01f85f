// A SQLite VFS for tests of storage faults: the default VFS, except that
// while FailWrites(true) is in force every write, truncation and sync of any
// file fails as on a full disk (SQLITE_FULL; a sync, SQLITE_IOERR_FSYNC).
// SQLite and the recorder then take their real error paths. A database uses
// it when opened by the URI FaultyVfs::Uri(path); the recorder's OpenDatabase
// accepts URIs. That URI names kBatchedName, the recorder's batched-WAL VFS
// (recorder/batched_wal_vfs.h) over this one, so that the recorder writes as
// it does through its own VFS; kName is this VFS alone.
//
// SQLite's VFS list is process-wide, so the switch is too: tests that use it
// must not run concurrently within one process (gtest runs a binary's tests
// one after another).

#ifndef CASSINO_TESTS_RECORDER_FAULTY_VFS_H_
#define CASSINO_TESTS_RECORDER_FAULTY_VFS_H_

#include <sqlite3.h>

#include <atomic>
#include <cstdint>
#include <string>

#include "recorder/batched_wal_vfs.h"
#include "recorder/layered_vfs.h"

namespace cassino::testing {

class FaultyVfs {
 public:
  static constexpr char kName[] = "cassino_faulty";
  static constexpr char kBatchedName[] = "cassino_faulty_batched";

  // Registers the two VFSes (once; later calls do nothing).
  static void Register() {
    static const bool registered = [] {
      sqlite3_vfs* base = sqlite3_vfs_find(nullptr);
      static sqlite3_vfs vfs = *base;
      vfs.zName = kName;
      vfs.szOsFile =
          static_cast<int>(sizeof(recorder::LayeredFile)) + base->szOsFile;
      vfs.pAppData = base;
      vfs.xOpen = &Open;
      vfs.pNext = nullptr;
      return sqlite3_vfs_register(&vfs, /*makeDflt=*/0) == SQLITE_OK &&
             recorder::RegisterBatchedWalVfs(kBatchedName, &vfs).ok();
    }();
    (void)registered;
  }

  static void FailWrites(bool fail) { failing().store(fail); }
  // The writes of any file asked of this VFS so far (failed ones too).
  static int64_t Writes() { return writes().load(); }

  // The URI that opens `path` through kBatchedName, over this VFS.
  static std::string Uri(const std::string& path) {
    Register();
    return "file:" + path + "?vfs=" + kBatchedName;
  }

 private:
  static std::atomic<bool>& failing() {
    static std::atomic<bool> fail{false};
    return fail;
  }
  static std::atomic<int64_t>& writes() {
    static std::atomic<int64_t> n{0};
    return n;
  }

  static int Open(sqlite3_vfs* vfs, sqlite3_filename name, sqlite3_file* file,
                  int flags, int* out_flags) {
    sqlite3_vfs* base = static_cast<sqlite3_vfs*>(vfs->pAppData);
    auto* f = reinterpret_cast<recorder::LayeredFile*>(file);
    auto* lower = reinterpret_cast<sqlite3_file*>(
        reinterpret_cast<char*>(f) + sizeof(recorder::LayeredFile));
    const int rc =
        recorder::OpenLowerFile(base, name, file, lower, flags, out_flags);
    if (rc == SQLITE_OK) {
      f->lower = lower;
      f->file.pMethods = &Methods();
    }
    return rc;
  }

  static int Write(sqlite3_file* f, const void* buf, int n, sqlite3_int64 off) {
    writes().fetch_add(1);
    if (failing().load()) return SQLITE_FULL;
    return recorder::ForwardingMethods().xWrite(f, buf, n, off);
  }
  static int Truncate(sqlite3_file* f, sqlite3_int64 size) {
    if (failing().load()) return SQLITE_FULL;
    return recorder::ForwardingMethods().xTruncate(f, size);
  }
  static int Sync(sqlite3_file* f, int flags) {
    if (failing().load()) return SQLITE_IOERR_FSYNC;
    return recorder::ForwardingMethods().xSync(f, flags);
  }

  // Every call passes to the default VFS's file but these three.
  static const sqlite3_io_methods& Methods() {
    static const sqlite3_io_methods methods = [] {
      sqlite3_io_methods m = recorder::ForwardingMethods();
      m.xWrite = &Write;
      m.xTruncate = &Truncate;
      m.xSync = &Sync;
      return m;
    }();
    return methods;
  }
};

}  // namespace cassino::testing

#endif  // CASSINO_TESTS_RECORDER_FAULTY_VFS_H_
