// Record signatures: a referee's Ed25519 key, and how it signs the last
// event of a game (docs/record_format.md, "Signatures", is the normative
// text for other languages).
//
// The last event of an ended game (`end`, or `abort`) carries, in its
// payload, the member
//
//   ,"signature":{"key":"<64 hex>","sig":"<128 hex>"}
//
// placed where its key sorts (end: between "seed" and "totals"; abort:
// after "detail"). `key` is the raw 32-byte Ed25519 public key, `sig` the
// 64-byte signature, both lower-case hex. Deleting exactly those bytes
// gives the **unsigned payload**, the payload the event would have without
// a signature. The signed message is
//
//   "cassino-record-signature-v1" || 0x00 || game_id || 0x00 || head
//
// where head = SHA-256(hash[n-1] || kind || 0x00 || unsigned payload), the
// chain hash (record.h) the last event would have unsigned, hash[n-1] the
// previous event's hash as 32 raw bytes. The hash chain itself is
// unchanged: the stored (signed) payload is hashed like any other.
//
// Only the recorder's writer, which alone knows the chain head, signs
// (RecorderOptions::signing_key). The private key never leaves a
// SigningKey: there is no accessor for it, and nothing here prints it.
//
// Thread-safety: a SigningKey (and its copies) may sign from several
// threads at once.

#ifndef CASSINO_RECORDER_SIGNATURE_H_
#define CASSINO_RECORDER_SIGNATURE_H_

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>

#include "absl/status/status.h"
#include "absl/status/statusor.h"
#include "absl/strings/string_view.h"
#include "recorder/record.h"

struct evp_pkey_st;  // OpenSSL's EVP_PKEY

namespace cassino::recorder {

// The domain-separation prefix of every signed message.
inline constexpr absl::string_view kSignatureContext =
    "cassino-record-signature-v1";

// A referee's Ed25519 private key. Copies share the one key.
class SigningKey {
 public:
  // A fresh random key.
  static absl::StatusOr<SigningKey> Generate();
  // Reads a PEM private key (PKCS#8, as `openssl genpkey -algorithm
  // ed25519` writes it). NotFound if there is no file, InvalidArgument if
  // it holds no Ed25519 private key.
  static absl::StatusOr<SigningKey> ReadFile(const std::string& path);
  // The key of a 32-byte Ed25519 private key (RFC 8032's secret seed): for
  // tests and known answers. InvalidArgument unless 32 bytes.
  static absl::StatusOr<SigningKey> FromPrivateBytes(
      std::span<const uint8_t> private_key);
  // ReadFile, or when `path` does not exist, Generate and write it there
  // (mode 0600, never over an existing file). `*created` tells which.
  static absl::StatusOr<SigningKey> LoadOrCreate(const std::string& path,
                                                 bool* created);

  // Writes the private key as PEM to a new file of mode 0600;
  // AlreadyExists if `path` exists.
  absl::Status WriteFile(const std::string& path) const;

  // The public key: 64 lower-case hex digits (the raw 32 bytes).
  const std::string& public_key() const { return public_key_; }

  // The Ed25519 signature of `message`, 128 lower-case hex digits.
  absl::StatusOr<std::string> Sign(std::span<const uint8_t> message) const;

 private:
  // The key in libsodium's form, which signs (signature.cc).
  struct Secret;

  // Takes ownership of `key`.
  static absl::StatusOr<SigningKey> FromKey(evp_pkey_st* key);
  SigningKey() = default;

  std::shared_ptr<evp_pkey_st> key_;  // OpenSSL's, for the key file
  std::shared_ptr<const Secret> secret_;
  std::string public_key_;
};

// The signature member of a payload.
struct RecordSignature {
  std::string key;  // 64 lower-case hex digits
  std::string sig;  // 128 lower-case hex digits
  friend bool operator==(const RecordSignature&,
                         const RecordSignature&) = default;
};

// Whether `text` is a public key as written here: 64 lower-case hex digits.
bool IsPublicKeyHex(absl::string_view text);

// A payload split into its unsigned bytes and its signature (nullopt when
// it has none; `unsigned_payload` is then the payload itself). `offset` is
// where the member was, in the unsigned payload.
struct SplitPayload {
  std::string unsigned_payload;
  std::optional<RecordSignature> signature;
  size_t offset = 0;
};
// InvalidArgument if the payload holds `,"signature":` but not exactly one
// member in the form above.
absl::StatusOr<SplitPayload> SplitSignature(absl::string_view payload);

// The chain head the last event would have unsigned, and the message
// signed for it.
Digest UnsignedHead(const Digest& previous, EventKind kind,
                    absl::string_view unsigned_payload);
std::string SignedMessage(absl::string_view game_id, const Digest& head);

// The signed payload of a game's last event (`end` or `abort`): `payload`
// (unsigned) with the member of `key`'s signature inserted.
// InvalidArgument for another kind, or a payload already signed or not in
// the form of its kind (recorder/payload.h).
absl::StatusOr<std::string> SignLastPayload(const SigningKey& key,
                                            absl::string_view game_id,
                                            const Digest& previous,
                                            EventKind kind,
                                            absl::string_view payload);

// Checks `signature` against the game's last event: OK if it is the
// signature of SignedMessage(game_id, UnsignedHead(...)) by its key;
// InvalidArgument naming the fault otherwise.
absl::Status CheckSignature(const RecordSignature& signature,
                            absl::string_view game_id, const Digest& previous,
                            EventKind kind, absl::string_view unsigned_payload);

}  // namespace cassino::recorder

#endif  // CASSINO_RECORDER_SIGNATURE_H_
