# CassinoBotClient: the C++ bot client library (tools/bots/README.md) of the
# Cassino build tree this file was copied into, for bots built outside the
# repository (`cassino new-bot --lang cpp` writes such a project):
#
#   find_package(CassinoBotClient CONFIG REQUIRED)  # CassinoBotClient_DIR=
#                                                   # BUILD/cassino-bot-client
#   target_link_libraries(my-bot PRIVATE cassino::cassino_bot_client)
#
# The targets are the build tree's own (export(TARGETS) in
# tools/bots/CMakeLists.txt): static libraries, the headers of the
# repository and the generated API messages. Their dependencies are
# Debian's packages, found here as the build found them.
include(CMakeFindDependencyMacro)
include("${CMAKE_CURRENT_LIST_DIR}/CassinoBotClientBuild.cmake")
if(CASSINO_BOT_CLIENT_SANITIZED)
  set(CassinoBotClient_FOUND FALSE)
  set(CassinoBotClient_NOT_FOUND_MESSAGE
    "this Cassino build is instrumented (${CASSINO_BOT_CLIENT_SANITIZED}): "
    "build the bot against a build without sanitizers (cmake --preset default)")
  return()
endif()
find_dependency(Threads)
find_dependency(OpenSSL)
find_dependency(absl)
find_dependency(Protobuf)
find_dependency(gRPC CONFIG)
include("${CMAKE_CURRENT_LIST_DIR}/CassinoBotClientTargets.cmake")
