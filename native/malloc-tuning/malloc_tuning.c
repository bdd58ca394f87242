/*
 * glibc's malloc limits for a long-running server: few arenas, and freed
 * memory given back to the system instead of kept. Everywhere else (musl,
 * macOS, Windows) `tune` does nothing and returns false.
 */
#include <node_api.h>
#include <stdbool.h>
#include <stdint.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/* tune(arenaMax, mmapThreshold, trimThreshold): true when glibc took all three. */
static napi_value tune(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  int32_t values[3] = {0, 0, 0};
  bool ok = false;
  napi_value result;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 3) {
    napi_throw_type_error(env, NULL, "tune(arenaMax, mmapThreshold, trimThreshold)");
    return NULL;
  }
  for (size_t i = 0; i < 3; i++) {
    if (napi_get_value_int32(env, argv[i], &values[i]) != napi_ok || values[i] <= 0) {
      napi_throw_type_error(env, NULL, "tune: every limit is a positive 32-bit integer");
      return NULL;
    }
  }
#if defined(__GLIBC__)
  ok = mallopt(M_ARENA_MAX, values[0]) == 1 && mallopt(M_MMAP_THRESHOLD, values[1]) == 1 && mallopt(M_TRIM_THRESHOLD, values[2]) == 1;
#endif
  napi_get_boolean(env, ok, &result);
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  if (napi_create_function(env, "tune", NAPI_AUTO_LENGTH, tune, NULL, &fn) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "tune", fn) != napi_ok) return NULL;
  return exports;
}
