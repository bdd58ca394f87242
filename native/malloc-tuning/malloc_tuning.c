/*
 * glibc's malloc limits for a long-running server: few arenas, and the free
 * memory at the top of each arena given back to the system instead of kept.
 * Everywhere else (musl, macOS, Windows) `tune` does nothing and returns false.
 */
#include <limits.h>
#include <math.h>
#include <node_api.h>
#include <stdbool.h>
#include <stdint.h>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

/* The number `value` as an int in [1, INT_MAX]; false for anything else. */
static bool positive_int(napi_env env, napi_value value, int *out) {
  double d;
  if (napi_get_value_double(env, value, &d) != napi_ok) return false;
  if (!(d >= 1 && d <= INT_MAX) || floor(d) != d) return false;
  *out = (int)d;
  return true;
}

/*
 * tune(arenaMax, mmapThreshold, trimThreshold): true when glibc took all
 * three, false where glibc is not the allocator; throws for limits that are
 * not whole numbers in [1, 2^31 - 1], and when glibc refuses one.
 */
static napi_value tune(napi_env env, napi_callback_info info) {
  size_t argc = 3;
  napi_value argv[3];
  int values[3] = {0, 0, 0};
  bool ok = false;
  napi_value result = NULL;
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc != 3) {
    napi_throw_type_error(env, NULL, "tune(arenaMax, mmapThreshold, trimThreshold)");
    return NULL;
  }
  for (size_t i = 0; i < 3; i++) {
    if (!positive_int(env, argv[i], &values[i])) {
      napi_throw_type_error(env, NULL, "tune: every limit is a whole number from 1 to 2^31 - 1");
      return NULL;
    }
  }
#if defined(__GLIBC__)
  if (mallopt(M_ARENA_MAX, values[0]) != 1 || mallopt(M_MMAP_THRESHOLD, values[1]) != 1 || mallopt(M_TRIM_THRESHOLD, values[2]) != 1) {
    napi_throw_error(env, NULL, "tune: glibc refused a limit");
    return NULL;
  }
  ok = true;
#endif
  if (napi_get_boolean(env, ok, &result) != napi_ok) return NULL;
  return result;
}

NAPI_MODULE_INIT() {
  napi_value fn;
  if (napi_create_function(env, "tune", NAPI_AUTO_LENGTH, tune, NULL, &fn) != napi_ok) return NULL;
  if (napi_set_named_property(env, exports, "tune", fn) != napi_ok) return NULL;
  return exports;
}
