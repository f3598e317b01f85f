#include "recorder/layered_vfs.h"

#include <cstddef>
#include <cstring>

namespace cassino::recorder {
namespace {

const sqlite3_io_methods& Methods(sqlite3_file* f) {
  return *Lower(f)->pMethods;
}

int Close(sqlite3_file* f) { return Methods(f).xClose(Lower(f)); }

int Read(sqlite3_file* f, void* buf, int n, sqlite3_int64 off) {
  return Methods(f).xRead(Lower(f), buf, n, off);
}

int Write(sqlite3_file* f, const void* buf, int n, sqlite3_int64 off) {
  return Methods(f).xWrite(Lower(f), buf, n, off);
}

int Truncate(sqlite3_file* f, sqlite3_int64 size) {
  return Methods(f).xTruncate(Lower(f), size);
}

int Sync(sqlite3_file* f, int flags) {
  return Methods(f).xSync(Lower(f), flags);
}

int FileSize(sqlite3_file* f, sqlite3_int64* size) {
  return Methods(f).xFileSize(Lower(f), size);
}

int Lock(sqlite3_file* f, int level) {
  return Methods(f).xLock(Lower(f), level);
}

int Unlock(sqlite3_file* f, int level) {
  return Methods(f).xUnlock(Lower(f), level);
}

int CheckReservedLock(sqlite3_file* f, int* out) {
  return Methods(f).xCheckReservedLock(Lower(f), out);
}

int FileControl(sqlite3_file* f, int op, void* arg) {
  return Methods(f).xFileControl(Lower(f), op, arg);
}

int SectorSize(sqlite3_file* f) { return Methods(f).xSectorSize(Lower(f)); }

int DeviceCharacteristics(sqlite3_file* f) {
  return Methods(f).xDeviceCharacteristics(Lower(f));
}

int ShmMap(sqlite3_file* f, int page, int size, int extend,
           void volatile** out) {
  if (Methods(f).iVersion < 2) return SQLITE_IOERR_SHMMAP;
  return Methods(f).xShmMap(Lower(f), page, size, extend, out);
}

int ShmLock(sqlite3_file* f, int offset, int n, int flags) {
  if (Methods(f).iVersion < 2) return SQLITE_IOERR_SHMLOCK;
  return Methods(f).xShmLock(Lower(f), offset, n, flags);
}

void ShmBarrier(sqlite3_file* f) {
  if (Methods(f).iVersion >= 2) Methods(f).xShmBarrier(Lower(f));
}

int ShmUnmap(sqlite3_file* f, int delete_flag) {
  if (Methods(f).iVersion < 2) return SQLITE_OK;
  return Methods(f).xShmUnmap(Lower(f), delete_flag);
}

int Fetch(sqlite3_file* f, sqlite3_int64 off, int n, void** out) {
  *out = nullptr;  // no mapping: SQLite reads instead
  if (Methods(f).iVersion < 3) return SQLITE_OK;
  return Methods(f).xFetch(Lower(f), off, n, out);
}

int Unfetch(sqlite3_file* f, sqlite3_int64 off, void* p) {
  if (Methods(f).iVersion < 3) return SQLITE_OK;
  return Methods(f).xUnfetch(Lower(f), off, p);
}

constexpr sqlite3_io_methods kForwarding = {
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

}  // namespace

int OpenLowerFile(sqlite3_vfs* lower_vfs, sqlite3_filename name,
                  sqlite3_file* file, sqlite3_file* lower_file, int flags,
                  int* out_flags) {
  std::memset(lower_file, 0, static_cast<size_t>(lower_vfs->szOsFile));
  file->pMethods = nullptr;
  const int rc =
      lower_vfs->xOpen(lower_vfs, name, lower_file, flags, out_flags);
  if (rc == SQLITE_OK && lower_file->pMethods != nullptr) return SQLITE_OK;
  if (lower_file->pMethods != nullptr) {
    lower_file->pMethods->xClose(lower_file);
  }
  return rc != SQLITE_OK ? rc : SQLITE_CANTOPEN;
}

const sqlite3_io_methods& ForwardingMethods() { return kForwarding; }

}  // namespace cassino::recorder
