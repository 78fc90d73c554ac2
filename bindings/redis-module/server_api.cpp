// Fills ServerApi through the lookup function the server puts in the first
// word of the context it passes to RedisModule_OnLoad.

#include "server_api.hpp"

#include <cstring>

namespace cuckoo::redis {

ServerApi server;

bool loadServerApi(Ctx* ctx) noexcept {
  using GetApi = int (*)(const char* name, void** target);
  GetApi getApi = nullptr;
  std::memcpy(&getApi, static_cast<const void*>(ctx), sizeof getApi);
  bool complete = true;
#define CUCKOO_API_LOAD(name, result, parameters) \
  complete = getApi("RedisModule_" #name, reinterpret_cast<void**>(&server.name)) == kOk && complete;
  CUCKOO_SERVER_API(CUCKOO_API_LOAD)
#undef CUCKOO_API_LOAD
  return complete;
}

}  // namespace cuckoo::redis
