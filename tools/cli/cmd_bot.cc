// cassino bot register|list|show|rotate-key|revoke: bot accounts over the
// organiser API (docs/cli.md, *The organiser's commands*).

#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include "absl/strings/str_cat.h"
#include "tools/cli/commands.h"
#include "tools/cli/organiser.h"

namespace cassino::cli {
namespace {

std::vector<std::string> AccountRow(const v1::BotAccount& b) {
  return {
      b.name(),
      b.revoked() ? "revoked" : "active",
      b.connected() ? absl::StrCat("yes (capacity ", b.capacity(), ")") : "no",
      absl::StrCat(b.unfinished_seats()),
      b.owner(),
      b.contact()};
}

const std::vector<std::string> kAccountHeader = {
    "name", "status", "connected", "unfinished", "owner", "contact"};

std::string AccountFields(const v1::BotAccount& b) {
  return FormatFields(
      {{"name", b.name()},
       {"owner", b.owner()},
       {"contact", b.contact()},
       {"registered", FormatUnixMs(b.created_unix_ms())},
       {"key issued", FormatUnixMs(b.key_issued_unix_ms())},
       {"status", b.revoked() ? absl::StrCat("revoked ",
                                             FormatUnixMs(b.revoked_unix_ms()))
                              : "active"},
       {"connected",
        b.connected() ? absl::StrCat("yes, capacity ", b.capacity()) : "no"},
       {"unfinished seats", absl::StrCat(b.unfinished_seats())}});
}

// Register's and rotate-key's text: the account, then the key, shown only
// once.
std::string KeyText(const v1::BotAccount& b, const std::string& key,
                    const char* what) {
  return absl::StrCat(AccountFields(b), "\nbot ", b.name(), " ", what,
                      "; its key, shown only now (give it to the bot's "
                      "author):\n",
                      key, "\n");
}

struct BotOptions {
  OrganiserFlags flags;
  std::string name;
  std::string owner;
  std::string contact;
};

using Stub = v1::RefereeService::Stub;

int Register(const BotOptions& o) {
  v1::RegisterBotRequest req;
  req.set_name(o.name);
  req.set_owner(o.owner);
  req.set_contact(o.contact);
  return Call<v1::RegisterBotRequest, v1::RegisterBotResponse>(
      o.flags, "cassino bot register", &Stub::RegisterBot, req,
      [](const Organiser&, const v1::RegisterBotResponse& r) {
        return KeyText(r.bot(), r.key(), "registered");
      });
}

int List(const BotOptions& o) {
  auto org = Organiser::Connect(o.flags, "cassino bot list");
  if (!org) return Organiser::kUsage;
  v1::ListBotsResponse all;
  std::string page;
  do {
    v1::ListBotsRequest req;
    req.set_page_size(1000);
    req.set_page_token(page);
    v1::ListBotsResponse resp;
    const grpc::Status s =
        org->stub().ListBots(org->Context().get(), req, &resp);
    if (!s.ok()) return org->Fail(s);
    for (const v1::BotAccount& b : resp.bots()) *all.add_bots() = b;
    page = resp.next_page_token();
  } while (!page.empty());
  if (org->json()) return org->PrintJson(all);
  std::vector<std::vector<std::string>> rows;
  for (const v1::BotAccount& b : all.bots()) rows.push_back(AccountRow(b));
  std::cout << FormatTable(kAccountHeader, rows);
  return Organiser::kOk;
}

int Show(const BotOptions& o) {
  v1::GetBotRequest req;
  req.set_name(o.name);
  return Call<v1::GetBotRequest, v1::GetBotResponse>(
      o.flags, "cassino bot show", &Stub::GetBot, req,
      [](const Organiser&, const v1::GetBotResponse& r) {
        return AccountFields(r.bot());
      });
}

int RotateKey(const BotOptions& o) {
  v1::RotateBotKeyRequest req;
  req.set_name(o.name);
  return Call<v1::RotateBotKeyRequest, v1::RotateBotKeyResponse>(
      o.flags, "cassino bot rotate-key", &Stub::RotateBotKey, req,
      [](const Organiser&, const v1::RotateBotKeyResponse& r) {
        return KeyText(r.bot(), r.key(),
                       "has a new key (the old one no longer works)");
      });
}

int Revoke(const BotOptions& o) {
  v1::RevokeBotRequest req;
  req.set_name(o.name);
  return Call<v1::RevokeBotRequest, v1::RevokeBotResponse>(
      o.flags, "cassino bot revoke", &Stub::RevokeBot, req,
      [](const Organiser&, const v1::RevokeBotResponse& r) {
        return AccountFields(r.bot());
      });
}

}  // namespace

void AddBotCommand(CLI::App& app, int* exit_code) {
  CLI::App* cmd = app.add_subcommand(
      "bot",
      absl::StrCat("Bot accounts on a running referee (organiser): register, "
                   "list, show, rotate-key, revoke. ",
                   kOrganiserHelp));
  cmd->require_subcommand(1);
  auto o = std::make_shared<BotOptions>();
  struct Sub {
    const char* name;
    const char* help;
    int (*run)(const BotOptions&);
    bool takes_name;
  };
  for (const Sub& sub : {
           Sub{"register",
               "register a bot account and print its key (shown only once)",
               Register, true},
           Sub{"list", "every bot account (never a key)", List, false},
           Sub{"show", "one bot account (never its key)", Show, true},
           Sub{"rotate-key",
               "give the account a new key (printed once; the old one stops "
               "working; a revoked account is reinstated)",
               RotateKey, true},
           Sub{"revoke",
               "revoke the account's key: its lobby stream ends, its offered "
               "seat tokens stop working, it cannot be seated again",
               Revoke, true},
       }) {
    CLI::App* c = cmd->add_subcommand(sub.name, sub.help);
    AddOrganiserFlags(c, &o->flags);
    if (sub.takes_name) {
      c->add_option("NAME", o->name,
                    "the account's name (1 to 64 letters, digits, -_.)")
          ->required();
    }
    if (sub.run == Register) {
      c->add_option("--owner", o->owner, "who runs the bot");
      c->add_option("--contact", o->contact,
                    "how to reach the owner (e-mail, chat handle)");
    }
    c->callback([o, run = sub.run, exit_code] { *exit_code = run(*o); });
  }
}

}  // namespace cassino::cli
