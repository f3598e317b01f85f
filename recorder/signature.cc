#include "recorder/signature.h"

#include <fcntl.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>
#include <vector>

#include "absl/strings/ascii.h"
#include "absl/strings/str_cat.h"
#include "recorder/payload.h"
#include "rules/deal.h"

namespace cassino::recorder {
namespace {

constexpr absl::string_view kMemberStart = ",\"signature\":{\"key\":\"";
constexpr absl::string_view kMemberMiddle = "\",\"sig\":\"";
constexpr absl::string_view kMemberEnd = "\"}";
constexpr size_t kKeyHex = 64;
constexpr size_t kSigHex = 128;

// OpenSSL's last error, for a message.
std::string OpenSslError() {
  const unsigned long code = ERR_get_error();
  ERR_clear_error();
  if (code == 0) return "unknown OpenSSL error";
  char text[256];
  ERR_error_string_n(code, text, sizeof(text));
  return text;
}

bool IsLowerHex(absl::string_view text, size_t length) {
  if (text.size() != length) return false;
  for (char c : text) {
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  }
  return true;
}

absl::StatusOr<std::vector<uint8_t>> HexBytes(absl::string_view hex) {
  if (hex.size() % 2 != 0) return absl::InvalidArgumentError("odd hex");
  std::vector<uint8_t> out(hex.size() / 2);
  for (size_t i = 0; i < out.size(); ++i) {
    int v = 0;
    for (char c : hex.substr(2 * i, 2)) {
      v <<= 4;
      if (c >= '0' && c <= '9') {
        v |= c - '0';
      } else if (c >= 'a' && c <= 'f') {
        v |= c - 'a' + 10;
      } else {
        return absl::InvalidArgumentError("not hex");
      }
    }
    out[i] = static_cast<uint8_t>(v);
  }
  return out;
}

std::string Member(const RecordSignature& s) {
  return absl::StrCat(kMemberStart, s.key, kMemberMiddle, s.sig, kMemberEnd);
}

// Checks that the unsigned `payload` reads as its kind's payload; the
// offset where the signature member goes.
absl::StatusOr<size_t> MemberOffset(EventKind kind, absl::string_view payload) {
  if (kind == EventKind::kEnd) {
    EndFields end;
    if (absl::Status s = ParseEndPayload(payload, &end); !s.ok()) return s;
    if (end.signature.has_value()) {
      return absl::InvalidArgumentError("the end payload is already signed");
    }
    // After "seed", before "totals" (keys in byte order). `,"totals":`
    // cannot occur inside a string (its quote would be escaped).
    return payload.rfind(",\"totals\":");
  }
  if (kind == EventKind::kAbort) {
    AbortFields abort;
    if (absl::Status s = ParseAbortPayload(payload, &abort); !s.ok()) return s;
    if (abort.signature.has_value()) {
      return absl::InvalidArgumentError("the abort payload is already signed");
    }
    return payload.size() - 1;  // before the closing brace
  }
  return absl::InvalidArgumentError(absl::StrCat(
      "only end and abort events are signed, not ", EventKindName(kind)));
}

}  // namespace

// Signing and verifying are libsodium's (crypto_sign_detached,
// crypto_sign_verify_detached): on this project's machine it verifies in
// about 90 us where OpenSSL 3.0 takes 155-215, and signs in 31-38 us
// against ~50 plus a context's set-up (docs/performance.md, "Ed25519 with
// libsodium"). Key files stay OpenSSL's PEM. Both implement RFC 8032's
// Ed25519, which is deterministic: the signatures are the same bytes.
struct SigningKey::Secret {
  std::array<uint8_t, crypto_sign_SECRETKEYBYTES> bytes{};  // seed || public
  ~Secret() { sodium_memzero(bytes.data(), bytes.size()); }
};

namespace {

// sodium_init, once; false if libsodium cannot be used.
bool SodiumReady() {
  static const bool ready = sodium_init() >= 0;
  return ready;
}

}  // namespace

absl::StatusOr<SigningKey> SigningKey::FromKey(evp_pkey_st* raw) {
  SigningKey key;
  key.key_.reset(raw, EVP_PKEY_free);
  if (EVP_PKEY_get_id(raw) != EVP_PKEY_ED25519) {
    return absl::InvalidArgumentError("not an Ed25519 key");
  }
  uint8_t pub[32];
  size_t length = sizeof(pub);
  if (EVP_PKEY_get_raw_public_key(raw, pub, &length) != 1 ||
      length != sizeof(pub)) {
    return absl::InternalError(
        absl::StrCat("reading the public key: ", OpenSslError()));
  }
  key.public_key_ = ToHex(pub);
  // The same key for libsodium, from its 32-byte seed (RFC 8032's private
  // key). Both derive the public key from the seed: they must agree.
  std::array<uint8_t, crypto_sign_SEEDBYTES> seed{};
  length = seed.size();
  auto secret = std::make_shared<Secret>();
  std::array<uint8_t, crypto_sign_PUBLICKEYBYTES> sodium_pub{};
  const bool derived =
      EVP_PKEY_get_raw_private_key(raw, seed.data(), &length) == 1 &&
      length == seed.size() && SodiumReady() &&
      crypto_sign_seed_keypair(sodium_pub.data(), secret->bytes.data(),
                               seed.data()) == 0;
  sodium_memzero(seed.data(), seed.size());
  if (!derived) {
    ERR_clear_error();
    return absl::InternalError("reading the private key for signing");
  }
  if (ToHex(sodium_pub) != key.public_key_) {
    return absl::InternalError(
        "libsodium and OpenSSL derive different public keys");
  }
  key.secret_ = std::move(secret);
  return key;
}

absl::StatusOr<SigningKey> SigningKey::Generate() {
  EVP_PKEY* raw = EVP_PKEY_Q_keygen(nullptr, nullptr, "ED25519");
  if (raw == nullptr) {
    return absl::InternalError(
        absl::StrCat("generating an Ed25519 key: ", OpenSslError()));
  }
  return FromKey(raw);
}

absl::StatusOr<SigningKey> SigningKey::FromPrivateBytes(
    std::span<const uint8_t> private_key) {
  if (private_key.size() != 32) {
    return absl::InvalidArgumentError("an Ed25519 private key has 32 bytes");
  }
  EVP_PKEY* raw = EVP_PKEY_new_raw_private_key(
      EVP_PKEY_ED25519, nullptr, private_key.data(), private_key.size());
  if (raw == nullptr) {
    return absl::InvalidArgumentError(
        absl::StrCat("an Ed25519 private key: ", OpenSslError()));
  }
  return FromKey(raw);
}

absl::StatusOr<SigningKey> SigningKey::ReadFile(const std::string& path) {
  FILE* file = std::fopen(path.c_str(), "r");
  if (file == nullptr) {
    const int err = errno;
    const std::string message =
        absl::StrCat("signing key ", path, ": ", std::strerror(err));
    return err == ENOENT ? absl::NotFoundError(message)
                         : absl::PermissionDeniedError(message);
  }
  EVP_PKEY* raw = PEM_read_PrivateKey(file, nullptr, nullptr, nullptr);
  std::fclose(file);
  if (raw == nullptr) {
    ERR_clear_error();
    return absl::InvalidArgumentError(
        absl::StrCat("signing key ", path, ": not a PEM private key (PKCS#8)"));
  }
  absl::StatusOr<SigningKey> key = FromKey(raw);
  if (!key.ok()) {
    return absl::InvalidArgumentError(
        absl::StrCat("signing key ", path, ": ", key.status().message()));
  }
  return key;
}

absl::StatusOr<SigningKey> SigningKey::LoadOrCreate(const std::string& path,
                                                    bool* created) {
  *created = false;
  absl::StatusOr<SigningKey> key = ReadFile(path);
  if (!absl::IsNotFound(key.status())) return key;
  key = Generate();
  if (!key.ok()) return key;
  if (absl::Status s = key->WriteFile(path); !s.ok()) return s;
  *created = true;
  return key;
}

absl::Status SigningKey::WriteFile(const std::string& path) const {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
                        S_IRUSR | S_IWUSR);
  if (fd < 0) {
    const int err = errno;
    const std::string message =
        absl::StrCat("writing signing key ", path, ": ", std::strerror(err));
    return err == EEXIST ? absl::AlreadyExistsError(message)
                         : absl::PermissionDeniedError(message);
  }
  FILE* file = ::fdopen(fd, "w");
  if (file == nullptr) {
    ::close(fd);
    return absl::InternalError(absl::StrCat("writing signing key ", path));
  }
  const bool written = PEM_write_PrivateKey(file, key_.get(), nullptr, nullptr,
                                            0, nullptr, nullptr) == 1;
  const bool flushed = std::fflush(file) == 0 && ::fsync(fd) == 0;
  std::fclose(file);
  if (!written || !flushed) {
    ERR_clear_error();
    ::unlink(path.c_str());
    return absl::InternalError(absl::StrCat("writing signing key ", path));
  }
  return absl::OkStatus();
}

absl::StatusOr<std::string> SigningKey::Sign(
    std::span<const uint8_t> message) const {
  std::array<uint8_t, crypto_sign_BYTES> sig{};
  if (crypto_sign_detached(sig.data(), nullptr, message.data(), message.size(),
                           secret_->bytes.data()) != 0) {
    return absl::InternalError("signing failed");
  }
  return ToHex(sig);
}

bool IsPublicKeyHex(absl::string_view text) {
  return IsLowerHex(text, kKeyHex);
}

absl::StatusOr<SplitPayload> SplitSignature(absl::string_view payload) {
  SplitPayload out;
  const size_t at = payload.find(kMemberStart);
  if (at == absl::string_view::npos) {
    out.unsigned_payload = std::string(payload);
    return out;
  }
  const absl::string_view rest = payload.substr(at + kMemberStart.size());
  const size_t length = kMemberStart.size() + kKeyHex + kMemberMiddle.size() +
                        kSigHex + kMemberEnd.size();
  const absl::string_view key = rest.substr(0, kKeyHex);
  const absl::string_view middle = rest.substr(kKeyHex, kMemberMiddle.size());
  const absl::string_view sig = rest.substr(
      std::min(rest.size(), kKeyHex + kMemberMiddle.size()), kSigHex);
  const absl::string_view end = rest.substr(
      std::min(rest.size(), kKeyHex + kMemberMiddle.size() + kSigHex),
      kMemberEnd.size());
  if (!IsLowerHex(key, kKeyHex) || middle != kMemberMiddle ||
      !IsLowerHex(sig, kSigHex) || end != kMemberEnd) {
    return absl::InvalidArgumentError(
        "the signature is not in canonical form: expected "
        "{\"key\":<64 lower-case hex digits>,\"sig\":<128 lower-case hex "
        "digits>}");
  }
  if (payload.find(kMemberStart, at + length) != absl::string_view::npos) {
    return absl::InvalidArgumentError("the payload has two signatures");
  }
  out.unsigned_payload =
      absl::StrCat(payload.substr(0, at), payload.substr(at + length));
  out.signature = RecordSignature{std::string(key), std::string(sig)};
  out.offset = at;
  return out;
}

Digest UnsignedHead(const Digest& previous, EventKind kind,
                    absl::string_view unsigned_payload) {
  return ChainHash(previous, kind, unsigned_payload);
}

std::string SignedMessage(absl::string_view game_id, const Digest& head) {
  std::string message;
  message.reserve(kSignatureContext.size() + game_id.size() + 2 + head.size());
  absl::StrAppend(&message, kSignatureContext, absl::string_view("\0", 1),
                  game_id, absl::string_view("\0", 1));
  message.append(reinterpret_cast<const char*>(head.data()), head.size());
  return message;
}

absl::StatusOr<std::string> SignLastPayload(const SigningKey& key,
                                            absl::string_view game_id,
                                            const Digest& previous,
                                            EventKind kind,
                                            absl::string_view payload) {
  absl::StatusOr<size_t> offset = MemberOffset(kind, payload);
  if (!offset.ok()) return offset.status();
  const std::string message =
      SignedMessage(game_id, UnsignedHead(previous, kind, payload));
  absl::StatusOr<std::string> sig = key.Sign(TextBytes(message));
  if (!sig.ok()) return sig.status();
  return absl::StrCat(payload.substr(0, *offset),
                      Member({key.public_key(), *std::move(sig)}),
                      payload.substr(*offset));
}

absl::Status CheckSignature(const RecordSignature& signature,
                            absl::string_view game_id, const Digest& previous,
                            EventKind kind,
                            absl::string_view unsigned_payload) {
  absl::StatusOr<std::vector<uint8_t>> key = HexBytes(signature.key);
  absl::StatusOr<std::vector<uint8_t>> sig = HexBytes(signature.sig);
  if (!key.ok() || key->size() != 32 || !sig.ok() || sig->size() != 64) {
    return absl::InvalidArgumentError("the signature is not in canonical form");
  }
  if (!SodiumReady()) return absl::InternalError("libsodium did not start");
  const std::string message =
      SignedMessage(game_id, UnsignedHead(previous, kind, unsigned_payload));
  // (libsodium also refuses a key or an R of small order, and a
  // non-canonical S: no signature made with a private key is either.)
  if (crypto_sign_verify_detached(
          sig->data(), reinterpret_cast<const uint8_t*>(message.data()),
          message.size(), key->data()) != 0) {
    return absl::InvalidArgumentError(
        "the signature does not verify with its key");
  }
  return absl::OkStatus();
}

}  // namespace cassino::recorder
