// A SQLite VFS for tests of storage faults: the default VFS, except that
// while FailWrites(true) is in force every write, truncation and sync of any
// file fails as on a full disk (SQLITE_FULL; a sync, SQLITE_IOERR_FSYNC).
// SQLite and the recorder then take their real error paths. A database uses
// it when opened by the URI FaultyVfs::Uri(path); the recorder's OpenDatabase
// accepts URIs.
//
// SQLite's VFS list is process-wide, so the switch is too: tests that use it
// must not run concurrently within one process (gtest runs a binary's tests
// one after another).

#ifndef CASSINO_TESTS_RECORDER_FAULTY_VFS_H_
#define CASSINO_TESTS_RECORDER_FAULTY_VFS_H_

#include <sqlite3.h>

#include <atomic>
#include <cstring>
#include <string>

namespace cassino::testing {

class FaultyVfs {
 public:
  static constexpr char kName[] = "cassino_faulty";

  // Registers the VFS (once; later calls do nothing).
  static void Register() {
    static const bool registered = [] {
      sqlite3_vfs* base = sqlite3_vfs_find(nullptr);
      static sqlite3_vfs vfs = *base;
      vfs.zName = kName;
      vfs.szOsFile = static_cast<int>(sizeof(File)) + base->szOsFile;
      vfs.pAppData = base;
      vfs.xOpen = &Open;
      vfs.pNext = nullptr;
      return sqlite3_vfs_register(&vfs, /*makeDflt=*/0) == SQLITE_OK;
    }();
    (void)registered;
  }

  static void FailWrites(bool fail) { failing().store(fail); }

  // The URI that opens `path` through this VFS.
  static std::string Uri(const std::string& path) {
    Register();
    return "file:" + path + "?vfs=" + kName;
  }

 private:
  // Our file: the methods below, then the real file of the default VFS.
  struct File {
    sqlite3_file base;
    sqlite3_file* real;
  };

  static std::atomic<bool>& failing() {
    static std::atomic<bool> fail{false};
    return fail;
  }
  static sqlite3_file* Real(sqlite3_file* f) {
    return reinterpret_cast<File*>(f)->real;
  }

  static int Open(sqlite3_vfs* vfs, sqlite3_filename name, sqlite3_file* file,
                  int flags, int* out_flags) {
    sqlite3_vfs* base = static_cast<sqlite3_vfs*>(vfs->pAppData);
    File* f = reinterpret_cast<File*>(file);
    std::memset(f, 0, sizeof(File));
    f->real = reinterpret_cast<sqlite3_file*>(reinterpret_cast<char*>(f) +
                                              sizeof(File));
    const int rc = base->xOpen(base, name, f->real, flags, out_flags);
    // SQLite calls xClose only when pMethods is set: set it only for an
    // open real file.
    if (rc == SQLITE_OK && f->real->pMethods != nullptr) {
      f->base.pMethods = &kMethods;
    }
    return rc;
  }

  static int Close(sqlite3_file* f) {
    return Real(f)->pMethods->xClose(Real(f));
  }
  static int Read(sqlite3_file* f, void* buf, int n, sqlite3_int64 off) {
    return Real(f)->pMethods->xRead(Real(f), buf, n, off);
  }
  static int Write(sqlite3_file* f, const void* buf, int n, sqlite3_int64 off) {
    if (failing().load()) return SQLITE_FULL;
    return Real(f)->pMethods->xWrite(Real(f), buf, n, off);
  }
  static int Truncate(sqlite3_file* f, sqlite3_int64 size) {
    if (failing().load()) return SQLITE_FULL;
    return Real(f)->pMethods->xTruncate(Real(f), size);
  }
  static int Sync(sqlite3_file* f, int flags) {
    if (failing().load()) return SQLITE_IOERR_FSYNC;
    return Real(f)->pMethods->xSync(Real(f), flags);
  }
  static int FileSize(sqlite3_file* f, sqlite3_int64* size) {
    return Real(f)->pMethods->xFileSize(Real(f), size);
  }
  static int Lock(sqlite3_file* f, int level) {
    return Real(f)->pMethods->xLock(Real(f), level);
  }
  static int Unlock(sqlite3_file* f, int level) {
    return Real(f)->pMethods->xUnlock(Real(f), level);
  }
  static int CheckReservedLock(sqlite3_file* f, int* out) {
    return Real(f)->pMethods->xCheckReservedLock(Real(f), out);
  }
  static int FileControl(sqlite3_file* f, int op, void* arg) {
    return Real(f)->pMethods->xFileControl(Real(f), op, arg);
  }
  static int SectorSize(sqlite3_file* f) {
    return Real(f)->pMethods->xSectorSize(Real(f));
  }
  static int DeviceCharacteristics(sqlite3_file* f) {
    return Real(f)->pMethods->xDeviceCharacteristics(Real(f));
  }
  static int ShmMap(sqlite3_file* f, int page, int size, int extend,
                    void volatile** out) {
    return Real(f)->pMethods->xShmMap(Real(f), page, size, extend, out);
  }
  static int ShmLock(sqlite3_file* f, int offset, int n, int flags) {
    return Real(f)->pMethods->xShmLock(Real(f), offset, n, flags);
  }
  static void ShmBarrier(sqlite3_file* f) {
    Real(f)->pMethods->xShmBarrier(Real(f));
  }
  static int ShmUnmap(sqlite3_file* f, int delete_flag) {
    return Real(f)->pMethods->xShmUnmap(Real(f), delete_flag);
  }
  static int Fetch(sqlite3_file* f, sqlite3_int64 off, int n, void** out) {
    return Real(f)->pMethods->xFetch(Real(f), off, n, out);
  }
  static int Unfetch(sqlite3_file* f, sqlite3_int64 off, void* p) {
    return Real(f)->pMethods->xUnfetch(Real(f), off, p);
  }

  static constexpr sqlite3_io_methods kMethods = {
      3,
      &Close,
      &Read,
      &Write,
      &Truncate,
      &Sync,
      &FileSize,
      &Lock,
      &Unlock,
      &CheckReservedLock,
      &FileControl,
      &SectorSize,
      &DeviceCharacteristics,
      &ShmMap,
      &ShmLock,
      &ShmBarrier,
      &ShmUnmap,
      &Fetch,
      &Unfetch,
  };
};

}  // namespace cassino::testing

#endif  // CASSINO_TESTS_RECORDER_FAULTY_VFS_H_
