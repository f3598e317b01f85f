#include "recorder/batched_wal_vfs.h"

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <new>
#include <vector>

#include "absl/strings/str_cat.h"
#include "recorder/layered_vfs.h"

namespace cassino::recorder {
namespace {

// The WAL format's frame header: its size, and the offset of the "database
// size in pages after the commit" field, zero except in commit frames.
constexpr int kFrameHeaderBytes = 24;
constexpr int kCommitFieldOffset = 4;

// The VFS: the base VFS's methods and data (so that they behave as they do
// through the base), its own xOpen, and the base to open files with.
struct BatchedVfs {
  sqlite3_vfs vfs;  // first: SQLite's pointer to it is a BatchedVfs*
  sqlite3_vfs* base;
};

// A WAL file opened through the VFS: the layered file (our methods, the
// base VFS's file), the held run, then the base VFS's file itself (SQLite
// allocates szOsFile bytes for the whole).
struct WalFile {
  LayeredFile layered;  // first: SQLite's pointer to it is a WalFile*
  // The held writes: the bytes of the file from held_at on, not yet written.
  std::vector<uint8_t> held;
  sqlite3_int64 held_at = 0;
  // The last held write was a commit frame's header: its page completes
  // the commit.
  bool commit_header = false;
};

constexpr size_t kBaseOffset =
    (sizeof(WalFile) + alignof(std::max_align_t) - 1) /
    alignof(std::max_align_t) * alignof(std::max_align_t);

WalFile* Wal(sqlite3_file* f) { return reinterpret_cast<WalFile*>(f); }

// Writes the held run to the base file, in writes of up to kMaxWriteBytes
// (one for a commit of up to 30 pages of 4 KiB); SQLITE_OK when there is
// none. The run is dropped either way: after a failed write SQLite abandons
// the transaction and rewrites its frames from the same offset.
int Flush(sqlite3_file* f) {
  WalFile* w = Wal(f);
  int rc = SQLITE_OK;
  for (size_t done = 0; done < w->held.size() && rc == SQLITE_OK;) {
    const size_t n = std::min(kMaxWriteBytes, w->held.size() - done);
    rc = ForwardingMethods().xWrite(
        f, w->held.data() + done, static_cast<int>(n),
        w->held_at + static_cast<sqlite3_int64>(done));
    done += n;
  }
  w->held.clear();
  return rc;
}

int Close(sqlite3_file* f) {
  const int flushed = Flush(f);
  const int rc = ForwardingMethods().xClose(f);
  Wal(f)->~WalFile();
  return flushed != SQLITE_OK ? flushed : rc;
}

int Read(sqlite3_file* f, void* buf, int n, sqlite3_int64 off) {
  if (const int rc = Flush(f); rc != SQLITE_OK) return rc;
  return ForwardingMethods().xRead(f, buf, n, off);
}

int Write(sqlite3_file* f, const void* buf, int n, sqlite3_int64 off) {
  WalFile* w = Wal(f);
  const auto* bytes = static_cast<const uint8_t*>(buf);
  const sqlite3_int64 end =
      w->held_at + static_cast<sqlite3_int64>(w->held.size());
  if (w->held.empty() || off == end) {
    if (w->held.empty()) w->held_at = off;
    w->held.insert(w->held.end(), bytes, bytes + n);
  } else if (off >= w->held_at && off + n <= end) {
    // A frame rewritten within the transaction (SQLite overwrites a page
    // written twice, and rewrites frame checksums).
    std::memcpy(w->held.data() + (off - w->held_at), bytes, n);
    return SQLITE_OK;
  } else {
    if (const int rc = Flush(f); rc != SQLITE_OK) return rc;
    return ForwardingMethods().xWrite(f, buf, n, off);
  }
  if (w->commit_header) {  // this is the commit frame's page
    w->commit_header = false;
    return Flush(f);
  }
  if (n == kFrameHeaderBytes) {
    uint32_t pages = 0;
    std::memcpy(&pages, bytes + kCommitFieldOffset, sizeof pages);
    w->commit_header = pages != 0;  // non-zero in either byte order
  }
  if (!w->commit_header && w->held.size() >= kMaxHeldBytes) return Flush(f);
  return SQLITE_OK;
}

int Truncate(sqlite3_file* f, sqlite3_int64 size) {
  if (const int rc = Flush(f); rc != SQLITE_OK) return rc;
  return ForwardingMethods().xTruncate(f, size);
}

int Sync(sqlite3_file* f, int flags) {
  if (const int rc = Flush(f); rc != SQLITE_OK) return rc;
  return ForwardingMethods().xSync(f, flags);
}

int FileSize(sqlite3_file* f, sqlite3_int64* size) {
  if (const int rc = Flush(f); rc != SQLITE_OK) return rc;
  return ForwardingMethods().xFileSize(f, size);
}

int FileControl(sqlite3_file* f, int op, void* arg) {
  if (const int rc = Flush(f); rc != SQLITE_OK) return rc;
  return ForwardingMethods().xFileControl(f, op, arg);
}

int Fetch(sqlite3_file* f, sqlite3_int64 off, int n, void** out) {
  *out = nullptr;
  if (const int rc = Flush(f); rc != SQLITE_OK) return rc;
  return ForwardingMethods().xFetch(f, off, n, out);
}

// The forwarding methods, with the calls above in place of theirs.
const sqlite3_io_methods& WalMethods() {
  static const sqlite3_io_methods methods = [] {
    sqlite3_io_methods m = ForwardingMethods();
    m.xClose = &Close;
    m.xRead = &Read;
    m.xWrite = &Write;
    m.xTruncate = &Truncate;
    m.xSync = &Sync;
    m.xFileSize = &FileSize;
    m.xFileControl = &FileControl;
    m.xFetch = &Fetch;
    return m;
  }();
  return methods;
}

int Open(sqlite3_vfs* vfs, sqlite3_filename name, sqlite3_file* file, int flags,
         int* out_flags) {
  sqlite3_vfs* base = reinterpret_cast<BatchedVfs*>(vfs)->base;
  if ((flags & SQLITE_OPEN_WAL) == 0) {
    // Any other file is the base VFS's, in the same memory.
    return base->xOpen(base, name, file, flags, out_flags);
  }
  auto* base_file = reinterpret_cast<sqlite3_file*>(
      reinterpret_cast<char*>(file) + kBaseOffset);
  if (const int rc =
          OpenLowerFile(base, name, file, base_file, flags, out_flags);
      rc != SQLITE_OK) {
    return rc;
  }
  WalFile* w = new (file) WalFile();
  w->layered.lower = base_file;
  w->layered.file.pMethods = &WalMethods();
  return SQLITE_OK;
}

}  // namespace

absl::Status RegisterBatchedWalVfs(const char* name, sqlite3_vfs* base) {
  if (base == nullptr) return absl::InternalError("SQLite has no default VFS");
  // Registered VFSes live as long as the process: SQLite keeps a pointer.
  auto* batched = new BatchedVfs{*base, base};
  batched->vfs.pNext = nullptr;
  batched->vfs.zName = name;
  batched->vfs.szOsFile = static_cast<int>(kBaseOffset) + base->szOsFile;
  batched->vfs.xOpen = &Open;
  if (const int rc = sqlite3_vfs_register(&batched->vfs, /*makeDflt=*/0);
      rc != SQLITE_OK) {
    return absl::InternalError(absl::StrCat("registering the SQLite VFS ", name,
                                            ": ", sqlite3_errstr(rc)));
  }
  return absl::OkStatus();
}

absl::Status RegisterBatchedWalVfs() {
  static const absl::Status* const registered = new absl::Status(
      RegisterBatchedWalVfs(kBatchedWalVfs, sqlite3_vfs_find(nullptr)));
  return *registered;
}

}  // namespace cassino::recorder
